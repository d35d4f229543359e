package dev.gatlingllm.tokenizer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tiktoken engine against DJL's GPT-2 on the texts the project ships: an r50k_base file
 * derived from GPT-2's tokenizer.json must give exactly GPT-2's ids and text back.
 */
class TiktokenTokenizerTest {

  @TempDir
  static Path dir;

  private static Tokenizer gpt2;
  private static Tokenizer tiktoken;
  private static Path rankFile;

  @BeforeAll
  static void load() throws IOException {
    gpt2 = Tokenizer.gpt2();
    rankFile = Gpt2Tiktoken.write(dir.resolve("r50k_base.tiktoken"));
    tiktoken = Tokenizer.load(rankFile);
  }

  @AfterAll
  static void close() {
    gpt2.close();
    tiktoken.close();
  }

  /** Sonnet, every ShareGPT turn, and the project's README and docs (arrows, ×, accents). */
  static List<String> corpora() throws IOException {
    List<String> texts = new ArrayList<>();
    texts.add(Files.readString(Path.of("datasets/sonnet/sonnet.txt")));
    JsonNode sharegpt = new ObjectMapper()
        .readTree(Path.of("datasets/sharegpt/sharegpt_sample.json").toFile());
    sharegpt.forEach(row -> row.get("conversations")
        .forEach(turn -> texts.add(turn.get("value").asText())));
    texts.add(Files.readString(Path.of("README.md")));
    try (Stream<Path> docs = Files.list(Path.of("docs"))) {
      for (Path doc : docs.filter(p -> p.toString().endsWith(".md")).sorted().toList()) {
        texts.add(Files.readString(doc));
      }
    }
    return texts;
  }

  @Test
  void givesGpt2sIdsAndTextOnEveryShippedCorpus() throws IOException {
    List<String> texts = corpora();
    long tokens = 0;
    long nonAscii = 0;
    for (String text : texts) {
      int[] expected = gpt2.encode(text);
      int[] actual = tiktoken.encode(text);
      assertArrayEquals(expected, actual, () -> "ids differ for: " + excerpt(text));
      assertEquals(text, tiktoken.decode(actual));
      assertEquals(gpt2.decode(expected), tiktoken.decode(actual));
      assertEquals(expected.length, tiktoken.count(text));
      tokens += actual.length;
      nonAscii += text.chars().filter(c -> c > 127).count();
    }
    assertTrue(texts.size() > 500, "every ShareGPT turn: " + texts.size());
    assertTrue(tokens > 100_000, "a real amount of text: " + tokens);
    assertTrue(nonAscii > 100, "the docs hold non-ASCII text: " + nonAscii);
  }

  @Test
  void givesGpt2sIdsOnTextsInOtherScriptsAndOddWhitespace() {
    List<String> texts = List.of(
        "Voilà l'été: naïve façade, Straße, smørrebrød.",
        "Привет, мир! Как дела? Ελληνικά γράμματα.",
        "日本語のテキストと中文文本，还有한국어。",
        "emoji 🙂👍🏽 and combining e\u0301 marks",
        "tabs\tand\u00a0no-break\u2003em spaces,\r\nCRLF lines\n\n\n  indented",
        "I'm sure they'll've done it; it's 12345678 o'clock, isn't it?",
        "   leading and trailing spaces   ",
        "");
    for (String text : texts) {
      assertArrayEquals(gpt2.encode(text), tiktoken.encode(text), text);
      assertEquals(text, tiktoken.decode(tiktoken.encode(text)));
    }
  }

  @Test
  void knowsR50ksVocabularyAndSpecialToken() {
    assertEquals(gpt2.vocabSize(), tiktoken.vocabSize());
    assertArrayEquals(gpt2.specialTokenIds(), tiktoken.specialTokenIds());
    assertArrayEquals(gpt2.regularTokenIds(), tiktoken.regularTokenIds());
    assertEquals(0, tiktoken.numSpecialTokensToAdd());
    assertEquals("<|endoftext|>", tiktoken.decode(new int[] {50256}));
    assertEquals(rankFile.toString(), tiktoken.id());
    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
        () -> tiktoken.decode(new int[] {60_000}));
    assertTrue(unknown.getMessage().contains("60000"), unknown.getMessage());
  }

  @Test
  void aFolderWithATiktokenFileAndNoTokenizerJsonLoadsIt(@TempDir Path folder)
      throws IOException {
    Files.copy(rankFile, folder.resolve("tiktoken.model"));
    try (Tokenizer fromFolder = Tokenizer.resolve(folder.toString())) {
      // tiktoken.model names no encoding: cl100k_base's pattern keeps digits in threes
      assertEquals(folder.resolve("tiktoken.model").toAbsolutePath().toString(),
          fromFolder.source());
      assertEquals(List.of("2015"), pieces(tiktoken, "2015"));
      List<String> inThrees = pieces(fromFolder, "2015");
      assertEquals("2015", String.join("", inThrees));
      assertTrue(inThrees.size() >= 2 && inThrees.stream().allMatch(p -> p.length() <= 3),
          inThrees.toString());
    }
    // a tokenizer.json beside it wins
    Files.copy(Tokenizer.GPT2_PATH, folder.resolve("tokenizer.json"));
    try (Tokenizer both = Tokenizer.load(folder)) {
      assertTrue(both.source().endsWith("tokenizer.json"), both.source());
    }
  }

  @Test
  void aPatternOfTheModelsOwnCanBeGiven() {
    // every character its own piece: BPE never merges across pieces
    try (Tokenizer perChar = Tokenizer.tiktoken(rankFile, "(?s).")) {
      assertEquals(5, perChar.count("hello"));
      assertEquals(1, tiktoken.count("hello"));
    }
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
        () -> Tokenizer.tiktoken(rankFile, "(unclosed"));
    assertTrue(bad.getMessage().contains(rankFile.toString()), bad.getMessage());
  }

  @Test
  void aMalformedRankFileNamesTheFileAndLine(@TempDir Path folder) throws IOException {
    List<String> lines = new ArrayList<>(Files.readAllLines(rankFile));
    assertMalformed(folder, lines, 3, "not base64", "%%%% 2", "line 3: '%%%%' is not base64");
    assertMalformed(folder, lines, 5, "no rank", "IQ==", "line 5: expected '<base64 bytes> "
        + "<rank>'");
    assertMalformed(folder, lines, 7, "a word for a rank", "IQ== seven",
        "line 7: rank 'seven' is not a number");
    assertMalformed(folder, lines, 9, "a token twice", lines.get(0).split(" ")[0] + " 99999",
        "line 9: token listed twice");

    Path missingByte = folder.resolve("short.tiktoken");
    Files.write(missingByte, lines.subList(1, lines.size()));
    IllegalArgumentException noByte = assertThrows(IllegalArgumentException.class,
        () -> Tokenizer.load(missingByte));
    assertTrue(noByte.getMessage().contains(missingByte.toString())
        && noByte.getMessage().contains("single byte"), noByte.getMessage());
  }

  private static void assertMalformed(Path folder, List<String> good, int line, String what,
      String bad, String expected) throws IOException {
    List<String> lines = new ArrayList<>(good);
    lines.set(line - 1, bad);
    Path file = folder.resolve(what.replace(' ', '_') + ".tiktoken");
    Files.write(file, lines, StandardCharsets.US_ASCII);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Tokenizer.load(file), what);
    assertTrue(e.getMessage().startsWith("Not a tiktoken rank file: " + file)
        && e.getMessage().contains(expected), e.getMessage());
  }

  private static List<String> pieces(Tokenizer tokenizer, String text) {
    List<String> out = new ArrayList<>();
    for (int id : tokenizer.encode(text)) {
      out.add(tokenizer.decode(new int[] {id}));
    }
    return out;
  }

  private static String excerpt(String text) {
    return text.length() <= 120 ? text : text.substring(0, 120) + "...";
  }
}
