package dev.gatlingllm.it;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.cli.BenchServe;
import dev.gatlingllm.internal.cli.CommandLine;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.report.RecordLog;
import dev.gatlingllm.internal.report.RecordLogReader;
import dev.gatlingllm.sim.RecordedRequest;
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
 * {@code --probe-request-rate} against the simulator: single-token probes go out during the
 * run beside its 10 requests (capped at 2 in flight), are reported in the {@code probe} object
 * and count in none of the benchmark's figures. (The summary's section, printed at exit, is
 * {@code ProbeReportTest}'s.)
 */
@Timeout(180)
class ProbeRequestsIntegrationTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path results;

  @Test
  void probesAreSentBesideTheRunAndReportedApart() throws IOException {
    try (Simulator sim = Simulator.start(StrictServer.builder().ttft(Duration.ofMillis(30))
        .itl(Duration.ofMillis(10)).jitter(0).recordRequests(true).build())) {
      String args = "--backend openai --model served-llm --tokenizer datasets/tokenizers/gpt2 "
          + "--dataset-name random --random-input-len 16 --random-output-len 20 "
          + "--num-prompts 10 --request-rate inf --max-concurrency 2 --probe-request-rate 10 "
          + "--percentile-metrics ttft,e2el,client_queue_time --seed 1 --save-result "
          + "--base-url " + sim.baseUrl();
      GatlingRunner.Result result = GatlingRunner.run(BenchServe.class, results,
          Map.of(CommandLine.ARGS_PROPERTY, args, "llm.resultsFolder", results.toString()));
      assertEquals(0, result.exitCode());

      JsonNode doc;
      try (Stream<Path> files = Files.list(result.runFolder())) {
        List<Path> json = files.filter(p -> p.toString().endsWith(".json")
            && !p.toString().endsWith(".pytorch.json")).toList();
        assertEquals(1, json.size(), json.toString());
        doc = JSON.readTree(json.get(0).toFile());
      }
      // the benchmark's figures are its 10 requests of 20 tokens: no probe among them
      assertEquals(10, doc.get("completed").asInt());
      assertEquals(0, doc.get("failed").asInt());
      assertEquals(200, doc.get("total_output_tokens").asLong());
      List<RequestRecord> records =
          RecordLogReader.read(result.file(RecordLog.FILE_NAME)).records();
      assertEquals(10, records.size());
      records.forEach(r -> assertFalse(r.requestId().contains("probe"), r.requestId()));

      // 10 requests of about 30 + 19 · 10 ms, 2 at a time: about 1.1 s, so about 10 probes,
      // and never more than the run's duration allows at 10 a second
      JsonNode probe = doc.get("probe");
      int sent = probe.get("sent").asInt();
      double duration = doc.get("duration").asDouble();
      assertTrue(sent >= 3 && sent <= Math.ceil(10 * duration) + 2, sent + " probes in "
          + duration + " s: " + probe);
      assertEquals(0, probe.get("failed").asInt(), probe.toString());
      assertEquals(0, probe.get("unfinished").asInt(), probe.toString());
      assertEquals(sent, probe.get("completed").asInt(), probe.toString());
      assertEquals(10.0, probe.get("request_rate").asDouble());
      double probeTtft = probe.get("mean_ttft_ms").asDouble();
      assertTrue(probeTtft >= 30, probe.toString());
      assertTrue(probe.get("mean_e2el_ms").asDouble() >= probeTtft, probe.toString());
      assertTrue(probe.has("p99_e2el_ms") && probe.has("std_ttft_ms"), probe.toString());
      // outside the cap: a probe does not wait for the run's requests, which queued for
      // 0, 0, 220, 220, 440, 440, ... ms (median about 440)
      assertTrue(probe.get("median_e2el_ms").asDouble()
          < doc.get("median_client_queue_time_ms").asDouble(), doc.toString());

      // on the wire: one token asked, the dataset's prompts, ids of their own
      List<RecordedRequest> probes = sim.recordedRequests().stream()
          .filter(r -> r.header("x-request-id") != null
              && r.header("x-request-id").contains("probe-")).toList();
      assertEquals(sent, probes.size());
      for (RecordedRequest r : probes) {
        JsonNode body = JSON.readTree(r.body());
        assertEquals(1, body.get("max_tokens").asInt(), r.bodyText());
        assertEquals("served-llm", body.get("model").asText());
        assertTrue(body.get("prompt").asText().length() > 0, r.bodyText());
      }
    }
  }
}
