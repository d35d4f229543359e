package dev.gatlingllm.sim;

import static dev.gatlingllm.sim.SimulatorEndpointsTest.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatlingllm.internal.sim.SimCommand;
import dev.gatlingllm.internal.sim.SimTokens;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The simulator started with a real tokenizer ({@code --tokenizer gpt2}): prompts counted,
 * {@code usage.prompt_tokens} reported and {@code /tokenize} answered with GPT-2's own ids, the
 * output's count what {@code usage} says. Expected ids are read from the vocabulary of the
 * shipped {@code tokenizer.json} (GPT-2 marks a leading space with {@code Ġ}), not from the
 * tokenizer under test.
 */
class SimulatorTokenizerTest {

  /** GPT-2: Hello , Ġworld Ġand Ġone Ġmore ! (7 tokens); 5 whitespace-separated words. */
  private static final String TEXT = "Hello, world and one more!";
  private static final String[] PIECES = {"Hello", ",", "Ġworld", "Ġand", "Ġone", "Ġmore", "!"};

  private static Simulator gpt2;
  private static JsonNode vocab;

  @BeforeAll
  static void start() throws IOException {
    gpt2 = Simulator.start(SimCommand.parse("--tokenizer", "gpt2", "--ttft-ms", "1",
        "--itl-ms", "0"));
    vocab = TestClient.JSON.readTree(Path.of("datasets/tokenizers/gpt2/tokenizer.json").toFile())
        .path("model").path("vocab");
  }

  @AfterAll
  static void stop() {
    gpt2.close();
  }

  private static String expectedIds() {
    StringBuilder ids = new StringBuilder("[");
    for (String piece : PIECES) {
      assertTrue(vocab.has(piece), piece);
      ids.append(ids.length() == 1 ? "" : ",").append(vocab.get(piece).asInt());
    }
    return ids.append(']').toString();
  }

  @Test
  void theFlagNamesTheTokenizerAndWordsStayTheDefault() {
    assertEquals("gpt2", gpt2.config().tokenizer());
    assertNull(SimulatorConfig.defaults().tokenizer());
    IllegalArgumentException blank = assertThrows(IllegalArgumentException.class,
        () -> SimCommand.parse("--tokenizer", " "));
    assertTrue(blank.getMessage().startsWith("tokenizer must be gpt2, a tokenizer.json"),
        blank.getMessage());
  }

  @Test
  void tokenizeAnswersWithGpt2sIds() {
    String ids = expectedIds();
    // two ids known by heart, so that the vocabulary read above is GPT-2's
    assertTrue(ids.startsWith("[15496,11,995,"), ids);
    try (TestClient c = new TestClient(gpt2.port())) {
      JsonNode t = c.post("/tokenize", "{\"model\":\"sim-model\",\"prompt\":\"" + TEXT
          + "\",\"return_token_strs\":true}").json();
      assertEquals(7, t.get("count").asInt());
      assertEquals(ids, t.get("tokens").toString());
      assertEquals("[\"Hello\",\",\",\" world\",\" and\",\" one\",\" more\",\"!\"]",
          t.get("token_strs").toString());
      // a chat's ids: each message's text in turn
      JsonNode chat = c.post("/tokenize", "{\"messages\":[{\"role\":\"user\",\"content\":\""
          + TEXT + "\"},{\"role\":\"user\",\"content\":\" one\"}]}").json();
      assertEquals(ids.substring(0, ids.length() - 1) + "," + vocab.get("Ġone").asInt() + "]",
          chat.get("tokens").toString());

      JsonNode d = c.post("/detokenize", "{\"tokens\":" + ids + "}").json();
      assertEquals(TEXT, d.get("prompt").asText());
      // 50,257 ids: 0..50255 and <|endoftext|>
      assertError(c.post("/detokenize", "{\"tokens\":[50257]}"), 400, "BadRequestError",
          "token id 50257 is out of vocabulary (0..50256)");
    }
  }

  @Test
  void usageCountsThePromptWithTheTokenizerAndTheOutputAsItIsCounted() {
    for (int k = 0; k < 10; k++) {
      // each output word is one GPT-2 token, so the output of n tokens counts n
      String word = "Ġ" + SimTokens.token(k).substring(1);
      assertTrue(vocab.has(word), word);
    }
    try (TestClient c = new TestClient(gpt2.port())) {
      JsonNode completion = c.post("/v1/completions", "{\"prompt\":\"" + TEXT
          + "\",\"max_tokens\":12}").json();
      assertEquals(7, completion.path("usage").path("prompt_tokens").asInt());
      assertEquals(12, completion.path("usage").path("completion_tokens").asInt());
      assertEquals(SimTokens.text(12), completion.path("choices").get(0).path("text").asText());
      JsonNode chat = c.post("/v1/chat/completions", "{\"messages\":[{\"role\":\"user\","
          + "\"content\":\"" + TEXT + "\"},{\"role\":\"user\",\"content\":[{\"type\":\"text\","
          + "\"text\":\"one more\"}]}],\"max_tokens\":3}").json();
      // 7 + "one" "Ġmore"
      assertEquals(9, chat.path("usage").path("prompt_tokens").asInt());
      // a bad request is still answered, after counting elsewhere
      assertError(c.post("/v1/completions", "{\"prompt\":\"" + TEXT + "\",\"max_tokens\":0}"),
          400, "BadRequestError", "max_tokens must be at least 1, got 0.");
    }
    try (Simulator words = Simulator.start(SimulatorConfig.builder().ttft(Duration.ZERO)
        .itl(Duration.ZERO).build());
        TestClient c = new TestClient(words.port())) {
      assertEquals(5, c.post("/v1/completions", "{\"prompt\":\"" + TEXT + "\",\"max_tokens\":1}")
          .json().path("usage").path("prompt_tokens").asInt(), "the default counts words");
    }
  }

  @Test
  void aTokenizerThatCannotBeLoadedIsRefusedNamingIt(@TempDir Path empty) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Simulator.start(SimulatorConfig.builder().tokenizer(empty.toString()).build()));
    assertTrue(e.getMessage().startsWith("simulator tokenizer '" + empty + "' cannot be loaded: "
        + "Tokenizer folder "), e.getMessage());
    assertTrue(e.getMessage().contains("has no tokenizer.json"), e.getMessage());
  }
}
