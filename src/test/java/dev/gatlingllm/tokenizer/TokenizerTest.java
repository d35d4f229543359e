package dev.gatlingllm.tokenizer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TokenizerTest {

  static final Path BOS = Path.of("src/test/resources/tokenizer/bos");
  static Tokenizer gpt2;

  @BeforeAll
  static void load() {
    gpt2 = Tokenizer.gpt2();
  }

  @AfterAll
  static void close() {
    gpt2.close();
  }

  @Test
  void gpt2HasTheKnownVocabularyAndIds() {
    assertEquals(50257, gpt2.vocabSize());
    assertArrayEquals(new int[] {50256}, gpt2.specialTokenIds());
    int[] regular = gpt2.regularTokenIds();
    assertEquals(50256, regular.length);
    assertEquals(0, regular[0]);
    assertEquals(50255, regular[regular.length - 1]);
    assertEquals(0, gpt2.numSpecialTokensToAdd());
    // Ids from the GPT-2 vocabulary: "Hello" = 15496, "Ġworld" = 995.
    assertArrayEquals(new int[] {15496, 995}, gpt2.encode("Hello world"));
    assertEquals(2, gpt2.count("Hello world"));
    assertEquals("Hello world", gpt2.decode(new int[] {15496, 995}));
  }

  @Test
  void longTextsAreNeverTruncatedAlthoughDjlTruncatesTo512ByDefault() throws Exception {
    // "Ġhello" is a single GPT-2 token (23748), so 2,000 repetitions are 2,000 tokens.
    String text = " hello".repeat(2_000);
    assertEquals(2_000, gpt2.count(text));
    assertEquals(2_000, gpt2.encode(text).length);
    assertEquals(23748, gpt2.encode(text)[1_999]);
    try (HuggingFaceTokenizer plainDjl = HuggingFaceTokenizer.newInstance(Tokenizer.GPT2_PATH)) {
      assertEquals(512, plainDjl.encode(text).getIds().length,
          "DJL with default options truncates silently; this is what the wrapper avoids");
    }
  }

  @Test
  void decodeThenEncodeRoundTripsOrdinaryText() {
    String text = "The quick brown fox jumps over the lazy dog, 42 times.\nNew line: ok?";
    assertEquals(text, gpt2.decode(gpt2.encode(text)));
  }

  @Test
  void specialTokensAreCountedOnlyWhenAsked() {
    try (Tokenizer bos = Tokenizer.load(BOS)) {
      assertEquals(2, bos.count("hello world"));
      assertEquals(3, bos.countWithSpecialTokens("hello world"));
      assertEquals(1, bos.numSpecialTokensToAdd());
      assertArrayEquals(new int[] {2, 3}, bos.encode("hello world"));
      // model vocab has 6 entries; "<extra>" is an added token outside it and not special
      assertEquals(6, bos.vocabSize());
      assertArrayEquals(new int[] {0, 1}, bos.specialTokenIds());
      assertArrayEquals(new int[] {2, 3, 4, 5}, bos.regularTokenIds());
    }
  }

  @Test
  void loadsFromTheFileOrItsFolder() {
    try (Tokenizer fromFile = Tokenizer.load(BOS.resolve("tokenizer.json"));
        Tokenizer fromFolder = Tokenizer.load(BOS)) {
      assertEquals(fromFile.count("foo bar foo"), fromFolder.count("foo bar foo"));
      assertTrue(fromFolder.source().endsWith("tokenizer.json"), fromFolder.source());
    }
  }

  @Test
  void resolveTakesPathsAndDefaultsToGpt2() {
    try (Tokenizer byDefault = Tokenizer.resolve(null);
        Tokenizer byPath = Tokenizer.resolve(BOS.toString())) {
      assertEquals(50257, byDefault.vocabSize());
      assertEquals(6, byPath.vocabSize());
    }
  }

  @Test
  void badInputGetsClearErrors(@TempDir Path dir) throws Exception {
    IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
        () -> Tokenizer.load(dir.resolve("nope.json")));
    assertTrue(missing.getMessage().contains("does not exist"), missing.getMessage());

    IllegalArgumentException emptyFolder = assertThrows(IllegalArgumentException.class,
        () -> Tokenizer.load(dir));
    assertTrue(emptyFolder.getMessage().contains("has no tokenizer.json"),
        emptyFolder.getMessage());

    Path broken = Files.writeString(dir.resolve("tokenizer.json"), "{\"model\": {\"vocab\": ");
    IllegalArgumentException invalid = assertThrows(IllegalArgumentException.class,
        () -> Tokenizer.load(broken));
    assertTrue(invalid.getMessage().startsWith("Not a valid Hugging Face tokenizer.json"),
        invalid.getMessage());

    Path notATokenizer = Files.writeString(dir.resolve("other.json"), "{\"hello\": 1}");
    IllegalArgumentException noVocab = assertThrows(IllegalArgumentException.class,
        () -> Tokenizer.load(notATokenizer));
    assertTrue(noVocab.getMessage().contains("no model.vocab"), noVocab.getMessage());
  }

  @Test
  void concurrentUseGivesTheSameCountsAsSequentialUse() throws Exception {
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      texts.add("request " + i + " " + "lorem ipsum dolor ".repeat(i % 17));
    }
    int[] expected = texts.stream().mapToInt(gpt2::count).toArray();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<int[]>> results = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        results.add(pool.submit(() -> texts.stream().mapToInt(gpt2::count).toArray()));
      }
      for (Future<int[]> result : results) {
        assertArrayEquals(expected, result.get(30, TimeUnit.SECONDS));
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void loadingOptsOutOfDjlTelemetry() {
    assertTrue(System.getenv(DjlQuiet.OPT_OUT) != null
        || "true".equals(System.getProperty(DjlQuiet.OPT_OUT)),
        "DJL would otherwise query 169.254.169.254 and a telemetry host on every load");
  }
}
