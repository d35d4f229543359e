package dev.gatlingllm.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.report.RecordLog;
import dev.gatlingllm.internal.report.LlmReport;
import dev.gatlingllm.internal.report.PageLayout;
import dev.gatlingllm.internal.report.RecordLogReader;
import dev.gatlingllm.report.Recover;
import dev.gatlingllm.sim.RecordedRequest;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.testing.StrictServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gatling-llm bench serve} with {@code --base-url} twice: two simulators serving the
 * same model at different speeds (ITL 2 ms and 40 ms), then one of them down. The result's
 * {@code per_url} adds up to its totals, and each URL's figures are its server's.
 */
@Timeout(300)
class ReplicasIntegrationTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  /** Where the report layout tests leave their screenshots. */
  private static final Path SHOTS = Path.of("target/report-screenshots");

  @TempDir
  Path dir;

  /** Runs bench serve with these flags; the run's folder. */
  private Path run(String... flags) throws Exception {
    Path results = dir.resolve("results");
    List<String> words = new ArrayList<>(List.of("bench", "serve", "--model", "served-llm",
        "--tokenizer", "gpt2", "--dataset-name", "random", "--random-input-len", "16",
        "--random-output-len", "8", "--ignore-eos", "--seed", "1", "--save-result",
        "--result-filename", "result.json"));
    words.addAll(List.of(flags));
    return BenchServeInProcess.run(results, words);
  }

  /** The measured requests a server got (not its model list, /tokenize or /metrics). */
  private static List<RecordedRequest> completions(Simulator sim) {
    return StrictServer.runRequests(sim).stream()
        .filter(r -> r.path().equals("/v1/completions")).toList();
  }

  private static Simulator sim(int itlMillis) {
    return Simulator.start(StrictServer.builder().ttft(Duration.ofMillis(10))
        .itl(Duration.ofMillis(itlMillis)).jitter(0).recordRequests(true).build());
  }

  @Test
  void eachReplicaGetsItsShareAndItsOwnFigures() throws Exception {
    try (Simulator fast = sim(2); Simulator slow = sim(40)) {
      // the vllm backend: each replica's /metrics is scraped
      Path run = run("--backend", "vllm", "--base-url", fast.baseUrl(), "--base-url",
          slow.baseUrl(), "--num-prompts", "12", "--max-concurrency", "4", "--request-rate",
          "inf");
      JsonNode doc = JSON.readTree(run.resolve("result.json").toFile());
      assertEquals(12, doc.get("completed").asInt());
      assertEquals(0, doc.get("failed").asInt());
      assertEquals("round-robin", doc.get("base_url_strategy").asText());
      JsonNode perUrl = doc.get("per_url");
      assertEquals(2, perUrl.size(), doc.toString());
      assertEquals(fast.baseUrl(), perUrl.get(0).get("url").asText());
      assertEquals(slow.baseUrl(), perUrl.get(1).get("url").asText());
      // round-robin: six each, adding up to the totals
      int completed = 0;
      double throughput = 0;
      long tokens = 0;
      for (JsonNode u : perUrl) {
        assertEquals(6, u.get("completed").asInt(), u.toString());
        completed += u.get("completed").asInt();
        throughput += u.get("output_throughput").asDouble();
        tokens += u.get("total_output_tokens").asLong();
      }
      assertEquals(doc.get("completed").asInt(), completed);
      assertEquals(doc.get("total_output_tokens").asLong(), tokens);
      assertEquals(doc.get("output_throughput").asDouble(), throughput, 1e-9);
      // each URL's ITL is its server's, 2 ms and 40 ms a token; loose bounds, as a busy
      // machine stalls a stream now and then (and the simulator then catches up)
      JsonNode fastUrl = perUrl.get(0);
      JsonNode slowUrl = perUrl.get(1);
      double fastItl = fastUrl.get("median_itl_ms").asDouble();
      double slowItl = slowUrl.get("median_itl_ms").asDouble();
      assertTrue(fastItl < 20, "fast replica's median ITL " + fastItl);
      assertTrue(slowItl >= 20, "slow replica's median ITL " + slowItl);
      assertTrue(slowUrl.get("mean_itl_ms").asDouble()
          > 2 * fastUrl.get("mean_itl_ms").asDouble(), perUrl.toString());
      // and each server saw its six requests (one model check each beside them)
      assertEquals(6, completions(fast).size());
      assertEquals(6, completions(slow).size());
      for (RecordedRequest r : completions(slow)) {
        assertEquals(slow.baseUrl().replace("http://", ""), r.header("host"));
      }
      // the record log says where each request went
      List<RequestRecord> records =
          RecordLogReader.read(run.resolve(RecordLog.FILE_NAME)).records();
      assertEquals(6, records.stream().filter(r -> r.target() == 1).count());
      // each replica's server metrics, the first's where they always were
      JsonNode scraped = doc.get("server_metrics_per_url");
      assertEquals(2, scraped.size(), doc.toString());
      assertEquals(fast.baseUrl() + "/metrics", scraped.get(0).get("endpoint").asText());
      assertEquals(slow.baseUrl() + "/metrics", scraped.get(1).get("endpoint").asText());
      assertEquals(fast.baseUrl() + "/metrics",
          doc.get("server_metrics").get("endpoint").asText());
      // recover reads the replicas back from the record log: the same per_url
      Recover.Recovered recovered = Recover.recover(run.resolve(RecordLog.FILE_NAME),
          dir.resolve("recovered.json"), null, new PrintStream(new ByteArrayOutputStream(),
              true, StandardCharsets.UTF_8));
      assertTrue(recovered.outcome().ok(), recovered.outcome().error());
      assertEquals(perUrl, JSON.readTree(recovered.outcome().resultFile().toFile())
          .get("per_url"));
      reportPanel(run, fast.baseUrl(), slow.baseUrl());
    }
  }

  /**
   * The LLM report's per-URL panel, read in Chromium as the report's layout test reads pages
   * (nothing overflows at 1,400 and 800 px): a row per URL with its six requests. Without a
   * Chromium the panel is not looked at, and the test says so on its output.
   */
  private static void reportPanel(Path run, String first, String second) throws Exception {
    Path page = run.resolve(LlmReport.FILE_NAME);
    Optional<Path> chromium = PageLayout.chromium();
    if (chromium.isEmpty()) {
      System.out.println("no Chromium: the per-URL panel of " + page + " was not looked at");
      return;
    }
    Files.createDirectories(SHOTS);
    try (PageLayout browser = PageLayout.start(chromium.get())) {
      for (int width : new int[] {1400, 800}) {
        PageLayout.Findings f = browser.inspect(page, width,
            SHOTS.resolve("per-url-" + width + ".png"), null);
        assertEquals(List.of(), f.problems(), "per-URL report at " + width + " px");
      }
      String table = browser.text(page, "#per-url-table");
      assertTrue(table.contains(first + "\t6\t0\t"), table);
      assertTrue(table.contains(second + "\t6\t0\t"), table);
    }
  }

  @Test
  void aReplicaThatIsDownFailsOnlyItsShareAndSaysWhy() throws Exception {
    int down;
    try (ServerSocket socket = new ServerSocket(0)) {
      down = socket.getLocalPort();
    }
    try (Simulator up = sim(5)) {
      Path run = run("--base-url", up.baseUrl(), "--base-url", "http://127.0.0.1:" + down,
          "--num-prompts", "8", "--max-concurrency", "2");
      JsonNode doc = JSON.readTree(run.resolve("result.json").toFile());
      JsonNode perUrl = doc.get("per_url");
      assertEquals(4, perUrl.get(0).get("completed").asInt(), perUrl.toString());
      assertEquals(0, perUrl.get(0).get("failed").asInt());
      assertTrue(!perUrl.get(0).has("first_error"), perUrl.toString());
      assertEquals(0, perUrl.get(1).get("completed").asInt());
      assertEquals(4, perUrl.get(1).get("failed").asInt());
      assertEquals("connect failed: connection refused",
          perUrl.get(1).get("first_error").asText());
      assertEquals(4, doc.get("completed").asInt());
      assertEquals(4, doc.get("failed").asInt());
      assertEquals(4, completions(up).size());
    }
  }
}
