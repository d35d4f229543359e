package dev.gatlingllm.it;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.cli.BenchServe;
import dev.gatlingllm.internal.cli.CommandLine;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.report.RecordLog;
import dev.gatlingllm.internal.report.RecordLogReader;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * vLLM 0.29's {@code client_queue_time} and {@code e2el_including_client_queue} from a pasted
 * command line against the simulator: 6 requests at rate {@code inf} behind
 * {@code --max-concurrency 2} wait for a permit, the later ones for whole requests.
 */
@Timeout(180)
class ClientQueueIntegrationTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  /** The simulator's time to first token: a request holds its permit at least this long. */
  private static final long TTFT_MS = 40;

  @TempDir
  Path results;

  private GatlingRunner.Result run(Simulator sim, String cap) {
    String args = "--backend openai --model served-llm --tokenizer datasets/tokenizers/gpt2 "
        + "--dataset-name random --random-input-len 16 --random-output-len 4 --num-prompts 6 "
        + "--request-rate inf " + cap + " --seed 1 --save-result --percentile-metrics "
        + "ttft,e2el,client_queue_time,e2el_including_client_queue --base-url " + sim.baseUrl();
    GatlingRunner.Result result = GatlingRunner.run(BenchServe.class, results,
        Map.of(CommandLine.ARGS_PROPERTY, args, "llm.resultsFolder", results.toString()));
    assertEquals(0, result.exitCode());
    return result;
  }

  private static JsonNode resultJson(Path folder) throws IOException {
    try (Stream<Path> files = Files.list(folder)) {
      List<Path> json = files.filter(p -> p.toString().endsWith(".json")
          && !p.toString().endsWith(".pytorch.json")).toList();
      assertEquals(1, json.size(), json.toString());
      return JSON.readTree(json.get(0).toFile());
    }
  }

  @Test
  void requestsBehindTheCapRecordTheirWaitForAPermit() throws IOException {
    try (Simulator sim = Simulator.start(StrictServer.builder()
        .ttft(Duration.ofMillis(TTFT_MS)).itl(Duration.ofMillis(2)).jitter(0).build())) {
      GatlingRunner.Result capped = run(sim, "--max-concurrency 2");
      List<RequestRecord> records =
          RecordLogReader.read(capped.file(RecordLog.FILE_NAME)).records();
      assertEquals(6, records.size());
      int waitedARequest = 0;
      for (RequestRecord r : records) {
        assertTrue(r.success(), r.toString());
        assertTrue(r.clientQueueNanos() > 0, "every request waited a moment: " + r);
        double e2el = r.latencyMillis();
        double withQueue = e2el + r.clientQueueMillis();
        assertTrue(withQueue >= e2el, withQueue + " < " + e2el);
        waitedARequest += r.clientQueueMillis() >= TTFT_MS ? 1 : 0;
      }
      // all 6 arrive at once and 2 go: the other 4 wait at least one request's TTFT
      assertEquals(4, waitedARequest, records.toString());

      JsonNode doc = resultJson(capped.runFolder());
      assertTrue(doc.get("mean_client_queue_time_ms").doubleValue() >= TTFT_MS * 4 / 6.0,
          doc.toString());
      assertTrue(doc.get("p99_client_queue_time_ms").doubleValue() >= 2 * TTFT_MS,
          "the last two waited for two requests in a row: " + doc);
      double e2el = doc.get("mean_e2el_ms").doubleValue();
      double meanQueue = doc.get("mean_client_queue_time_ms").doubleValue();
      assertEquals(e2el + meanQueue,
          doc.get("mean_e2el_including_client_queue_ms").doubleValue(), 1e-6);
      assertTrue(doc.get("p99_e2el_including_client_queue_ms").doubleValue()
          >= doc.get("p99_e2el_ms").doubleValue(), doc.toString());
    }
  }

  @Test
  void withoutACapNothingQueues() throws IOException {
    try (Simulator sim = Simulator.start(StrictServer.builder()
        .ttft(Duration.ofMillis(TTFT_MS)).itl(Duration.ofMillis(2)).jitter(0).build())) {
      GatlingRunner.Result free = run(sim, "");
      for (RequestRecord r : RecordLogReader.read(free.file(RecordLog.FILE_NAME)).records()) {
        assertEquals(0, r.clientQueueNanos(), r.toString());
      }
      JsonNode doc = resultJson(free.runFolder());
      assertEquals(0.0, doc.get("mean_client_queue_time_ms").doubleValue());
      assertEquals(0.0, doc.get("p99_client_queue_time_ms").doubleValue());
      assertEquals(doc.get("mean_e2el_ms").doubleValue(),
          doc.get("mean_e2el_including_client_queue_ms").doubleValue(), 1e-9);
    }
  }
}
