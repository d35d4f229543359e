package dev.gatlingllm.tokenizer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.sim.RecordedRequest;
import dev.gatlingllm.internal.sim.SimTokens;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The server's /tokenize and /detokenize as a tokenizer, against the embedded simulator. */
class ServerTokenizerTest {

  private static final String KEY = "sk-server-tokenizer-test";
  private static Simulator sim;

  @BeforeAll
  static void start() {
    sim = Simulator.start(SimulatorConfig.builder().model("sim-model").build());
  }

  @AfterAll
  static void stop() {
    sim.close();
  }

  private static Tokenizer server() {
    return Tokenizer.fromServer(sim.baseUrl(), "sim-model",
        Map.of("Authorization", "Bearer " + KEY), false);
  }

  @Test
  void countsEncodesAndDecodesAsTheServerDoes() {
    try (Tokenizer server = server()) {
      String text = "So let the golden morning stay beside the meadow;";
      // the simulator's tokens are whitespace-separated words, its ids by SimTokens' rule
      assertEquals(9, server.count(text));
      assertArrayEquals(SimTokens.tokenIds(text), server.encode(text));
      assertEquals(9, server.countWithSpecialTokens(text));
      assertEquals(0, server.numSpecialTokensToAdd());
      int[] digits = {3, 1, 4};
      assertEquals(" three one four", server.decode(digits));
      assertArrayEquals(digits, server.encode(server.decode(digits)));
      assertTrue(server.isServer());
      assertEquals("sim-model", server.id());
      assertTrue(server.source().endsWith("/tokenize (model sim-model)"), server.source());
    }
  }

  @Test
  void drawablePromptIdsAreThoseTheServerGivesTheShippedSonnet() throws IOException {
    String sonnet = Files.readString(Path.of("datasets/sonnet/sonnet.txt"));
    int[] expected = Arrays.stream(SimTokens.tokenIds(sonnet)).sorted().distinct().toArray();
    try (Tokenizer server = server()) {
      assertArrayEquals(expected, server.regularTokenIds());
      assertEquals(expected.length, server.vocabSize());
      assertEquals(0, server.specialTokenIds().length);
      assertTrue(expected.length > 50, "a varied pool: " + expected.length);
    }
  }

  @Test
  void everyCallCarriesTheHeadersAndTheModel() {
    List<RecordedRequest> calls;
    try (Simulator own = Simulator.start(SimulatorConfig.builder().model("sim-model")
        .recordRequests(true).build());
        Tokenizer server = Tokenizer.fromServer(own.baseUrl(), "sim-model",
            Map.of("Authorization", "Bearer " + KEY), false)) {
      server.count("one two");
      calls = own.recordedRequests();
    }
    assertTrue(calls.size() >= 4, "probe (tokenize, detokenize, special tokens) and the count: "
        + calls.size());
    for (RecordedRequest call : calls) {
      assertEquals("POST", call.method());
      assertTrue(call.path().equals("/tokenize") || call.path().equals("/detokenize"),
          call.path());
      assertEquals("Bearer " + KEY, call.header("Authorization"));
      assertTrue(call.bodyText().contains("\"model\":\"sim-model\""), call.bodyText());
    }
    assertTrue(calls.get(calls.size() - 1).bodyText().contains("\"add_special_tokens\":false"));
  }

  @Test
  void aServerWithoutTokenizeForTheModelOrNoServerAtAllSaysWhy() throws IOException {
    IllegalStateException unknownModel = assertThrows(IllegalStateException.class,
        () -> Tokenizer.fromServer(sim.baseUrl(), "other-model", Map.of(), false));
    assertTrue(unknownModel.getMessage().contains("/tokenize answered HTTP 404"),
        unknownModel.getMessage());

    int closed;
    try (ServerSocket socket = new ServerSocket(0)) {
      closed = socket.getLocalPort();
    }
    IllegalStateException down = assertThrows(IllegalStateException.class,
        () -> Tokenizer.fromServer("http://127.0.0.1:" + closed, "m", Map.of(), false));
    assertTrue(down.getMessage().contains("127.0.0.1:" + closed + "/tokenize"),
        down.getMessage());
  }

  @Test
  void realignmentIsCarriedOnlyWhenTheServerAnswers() {
    try (Tokenizer gpt2 = Tokenizer.gpt2()) {
      Tokenizer realigned = gpt2.realignedByServer(sim.baseUrl(), "sim-model", Map.of(), false);
      assertTrue(realigned.serverAlignment().isPresent());
      assertEquals("sim-model", realigned.serverAlignment().get().id());
      // everything else stays the local tokenizer's
      assertEquals(gpt2.count("Hello world"), realigned.count("Hello world"));
      assertEquals(gpt2.id(), realigned.id());

      Tokenizer unchanged = gpt2.realignedByServer(sim.baseUrl(), "other-model", Map.of(),
          false);
      assertSame(gpt2, unchanged);
      assertFalse(unchanged.serverAlignment().isPresent());
    }
  }
}
