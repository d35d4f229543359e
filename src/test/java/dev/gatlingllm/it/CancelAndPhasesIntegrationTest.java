package dev.gatlingllm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.testing.StrictServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Users who leave and where the time went, through the drop-in against the strict simulator:
 * {@code --cancel-fraction 0.5 --cancel-after-tokens 5} cancels exactly half the requests,
 * counted apart from the completed and the failed ones, and the simulator counts as many
 * aborts; {@code --save-detailed} writes the requests' phases, with every request that opened
 * a connection timed and the TTFT split into parts that add up to it. The simulator aborts a
 * stream when its client closes it, and counts it as vLLM does, in
 * {@code vllm:request_success_total{finished_reason="abort"}}.
 */
@Timeout(180)
class CancelAndPhasesIntegrationTest {

  /** 20 requests of 8 prompt and 20 output tokens, a token every 5 ms, 40 a second. */
  private static final String COMMON = "--backend openai-chat --model " + StrictServer.MODEL
      + " --tokenizer datasets/tokenizers/gpt2 --save-result --seed 3 --dataset-name random"
      + " --random-input-len 8 --random-output-len 20 --num-prompts 20 --request-rate 40 ";

  @TempDir
  Path results;

  private static Simulator simulator() {
    return Simulator.start(StrictServer.builder().ttft(Duration.ofMillis(10))
        .itl(Duration.ofMillis(5)).tokensPerChunk(1).build());
  }

  @Test
  void halfTheRequestsAreCancelledAfterFiveTokensAndTheServerAbortsThem() throws Exception {
    try (Simulator sim = simulator()) {
      // the vllm backend (completions): its server metrics are scraped
      CapturedBench.Run run = CapturedBench.run(results.resolve("cancel"), COMMON.replace(
          "openai-chat", "vllm") + "--cancel-fraction 0.5 --cancel-after-tokens 5 --base-url " + sim.baseUrl());
      JsonNode json = run.json();
      assertEquals(10, json.get("cancelled").asInt(), json.toString());
      assertEquals(10, json.get("completed").asInt());
      assertEquals(0, json.get("failed").asInt(), "a cancel is not a failure");
      // only the completed requests' tokens: 10 × 20
      assertEquals(200, json.get("total_output_tokens").asInt());
      JsonNode cancel = json.get("cancellation");
      assertEquals(0.5, cancel.get("fraction").asDouble());
      assertEquals(5, cancel.get("after_tokens").asInt());
      assertTrue(cancel.get("after_ms").isNull());
      assertEquals(10, cancel.get("cancelled").asInt());
      assertEquals(10, cancel.get("cancelled_with_first_token").asInt());
      assertTrue(cancel.get("mean_cancelled_ttft_ms").asDouble() > 0, cancel.toString());
      assertEquals(10, serverAborts(sim), "the simulator saw each close and stopped");
      assertTrue(json.get("server_metrics").has("requests_aborted"),
          json.get("server_metrics").toString());
      // the last scrape is at the run's end: every abort is in the counter's growth
      assertEquals(10, cancel.get("server_aborted").asInt(), cancel.toString());
      assertTrue(run.console().contains("Cancelled requests:"), run.console());
    }
  }

  @Test
  void theDetailedResultSaysWhereTheTimeWent() throws Exception {
    try (Simulator sim = simulator()) {
      CapturedBench.Run run = CapturedBench.run(results.resolve("phases"), COMMON
          + "--save-detailed --base-url " + sim.baseUrl());
      JsonNode json = run.json();
      assertEquals(20, json.get("completed").asInt());
      assertTrue(json.path("cancelled").isMissingNode(), "no cancel asked, no key");
      JsonNode p = json.get("request_phases");
      assertEquals(20, p.get("requests").asInt(), p.toString());
      assertEquals(20, p.get("new_connections").asInt() + p.get("reused_connections").asInt());
      assertEquals(20, p.get("ttft_split_requests").asInt());
      assertEquals(0, p.get("tls_handshakes").asInt(), "plain HTTP");
      double parts = p.get("mean_ttft_network_ms").asDouble()
          + p.get("mean_ttft_server_ms").asDouble() + p.get("mean_ttft_stream_ms").asDouble();
      assertEquals(json.get("mean_ttft_ms").asDouble(), parts, 1e-6,
          "the means of the parts add up to the mean TTFT");
      // the simulator, as vLLM, sends a stream's head at once: its 10 ms before the first
      // token fall between the head and the first chunk
      assertTrue(p.get("median_ttft_stream_ms").asDouble() >= 9, p.toString());
      JsonNode shares = p.get("ttft_mean_share");
      assertEquals(1.0, shares.get("network").asDouble() + shares.get("server").asDouble()
          + shares.get("stream").asDouble(), 1e-9);
    }
  }

  private static final Pattern ABORTS =
      Pattern.compile("vllm:request_success_total\\{finished_reason=\"abort\",[^}]*} (\\d+)");

  private static long serverAborts(Simulator sim) throws Exception {
    String text = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create(sim.baseUrl() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString())
        .body();
    Matcher m = ABORTS.matcher(text);
    assertTrue(m.find(), text);
    return Long.parseLong(m.group(1));
  }
}
