package dev.gatlingllm.it;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.sim.SimTokens;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code saveTextAs} through a real Gatling run: the session gets exactly the generated text. */
@Timeout(120)
class SaveTextIntegrationTest {

  @TempDir
  Path results;

  @Test
  void theSavedAttributeIsTheGeneratedTextAndFeedsTheNextTurn() {
    SaveTextItSimulation.SAVED.clear();
    List<RequestRecord> records;
    try (Simulator simulator = Simulator.start(StrictServer.builder()
        .ttft(Duration.ofMillis(5)).itl(Duration.ofMillis(2)).build())) {
      GatlingRunner.Result result = GatlingRunner.run(SaveTextItSimulation.class, results,
          Map.of(SaveTextItSimulation.BASE_URL, simulator.baseUrl()));
      assertEquals(0, result.exitCode(), "Gatling run (with its no-KO assertion) must pass");
      records = GatlingRunner.records();
    }

    String completion = SimTokens.text(SaveTextItSimulation.COMPLETION_TOKENS);
    String reply = SimTokens.text(SaveTextItSimulation.REPLY_TOKENS);
    assertEquals(" zero one two three four five six", completion);
    assertEquals(SaveTextItSimulation.USERS, SaveTextItSimulation.SAVED.size());
    for (List<Object> saved : SaveTextItSimulation.SAVED) {
      assertEquals(Arrays.asList(completion, reply), saved);
    }

    // The same texts the records hold, and the saved completion was the chat turn's prompt:
    // the simulator counts its 7 words as prompt tokens.
    assertEquals(2 * SaveTextItSimulation.USERS, records.size());
    for (RequestRecord r : records) {
      if (r.name().equals("complete")) {
        assertEquals(completion, r.generatedText());
        assertEquals(3, r.usagePromptTokens());
      } else {
        assertEquals("reply", r.name());
        assertEquals(reply, r.generatedText());
        assertEquals(SaveTextItSimulation.COMPLETION_TOKENS, r.usagePromptTokens());
      }
    }
  }
}
