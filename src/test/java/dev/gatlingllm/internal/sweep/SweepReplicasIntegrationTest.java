package dev.gatlingllm.internal.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sweep.Sweep;
import dev.gatlingllm.sweep.SweepConfig;
import dev.gatlingllm.sweep.SweepOutcome;
import dev.gatlingllm.testing.StrictServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sweep over two replicas of one model (two strict simulators, {@code --base-url} twice)
 * whose users leave: each replica's prefix cache is reset before each run, each run keeps
 * where its time went, and the report draws the TTFT's parts, the cancels beside the server's
 * aborts, and one curve per replica.
 */
@Timeout(300)
class SweepReplicasIntegrationTest {

  @TempDir
  Path dir;

  @Test
  void aSweepOverTwoReplicasResetsEachAndDrawsEachOnesFigures() throws Exception {
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    try (Simulator a = replica(); Simulator b = replica()) {
      SweepOutcome o = Sweep.serve(SweepAccess.withLauncher(SweepConfig.builder()
          .benchArgs("--backend vllm --base-url " + a.baseUrl() + " --base-url " + b.baseUrl()
              + " --model " + StrictServer.MODEL + " --tokenizer datasets/tokenizers/gpt2 "
              + "--random-input-len 16 --random-output-len 12 --ignore-eos --num-prompts 8 "
              + "--cancel-fraction 0.5 --cancel-after-tokens 4 --disable-tqdm")
          .benchParams(Params.parse("[{\"max_concurrency\": 1}, {\"max_concurrency\": 2}]"))
          .numRuns(1).resetPrefixCache(true).outputDir(dir), new InProcessRun())
          .out(new PrintStream(console, true, StandardCharsets.UTF_8)).build());

      for (Simulator replica : List.of(a, b)) {
        assertEquals(2, replica.recordedRequests().stream()
            .filter(r -> r.method().equals("POST") && r.path().equals("/reset_prefix_cache"))
            .count(), "before each of the 2 runs, at " + replica.baseUrl());
      }
      Map<String, Object> run = Params.readObject(o.folder().resolve(
          "SERVE-BENCH-max_concurrency=2/run=0.json"));
      // 8 requests, 4 of them cancelled after 4 tokens; every one written with its phases
      assertEquals(4, ((Number) run.get("cancelled")).intValue(), run.toString());
      assertEquals(8, ((Number) SweepData.value(run, "request_phases.requests")).intValue());
      assertEquals(4, ((Number) SweepData.value(run,
          "request_phases.ttft_split_requests")).intValue(), "the successful ones");
      assertEquals(4, ((Number) SweepData.value(run, "per_url[" + b.baseUrl()
          + "].completed")).intValue() + ((Number) SweepData.value(run, "per_url[" + a.baseUrl()
          + "].completed")).intValue());

      JsonNode data = reportData(o.folder());
      assertEquals(List.of("ttft_part=network", "ttft_part=server", "ttft_part=stream"),
          curveNames(figure(data, SweepReport.MEAN_TTFT_PART)));
      // the server's aborts (each replica's, summed) beside the client's cancels
      JsonNode cancels = figure(data, SweepReport.CANCELLED);
      assertEquals(List.of("counted_by=client: cancelled", "counted_by=server: aborted"),
          curveNames(cancels));
      for (JsonNode curve : cancels.at("/panels/0/curves")) {
        for (JsonNode point : curve.get("points")) {
          assertEquals(4.0, point.get("y").asDouble(), 1e-9, curve.toString());
        }
      }
      assertEquals(List.of("url=" + a.baseUrl(), "url=" + b.baseUrl()),
          curveNames(figure(data, "per_url.output_throughput")));
      assertTrue(Files.exists(o.folder().resolve(
          "plots/per_url.output_throughput-vs-max_concurrency.png")));
    }
  }

  private static Simulator replica() {
    return Simulator.start(StrictServer.builder().ttft(Duration.ofMillis(10))
        .itl(Duration.ofMillis(2)).recordRequests(true).build());
  }

  private static JsonNode figure(JsonNode data, String varY) {
    for (JsonNode f : data.get("figures")) {
      if (f.get("varY").asText().equals(varY)) {
        return f;
      }
    }
    throw new AssertionError("no figure of " + varY + " in " + data.get("figures"));
  }

  private static List<String> curveNames(JsonNode figure) {
    List<String> names = new ArrayList<>();
    figure.at("/panels/0/curves").forEach(c -> names.add(c.get("name").asText()));
    return names;
  }

  private static JsonNode reportData(Path folder) throws Exception {
    String html = Files.readString(folder.resolve(SweepReport.FILE_NAME));
    String open = "<script type=\"application/json\" id=\"llm-data\">";
    int from = html.indexOf(open) + open.length();
    return Params.json().readTree(html.substring(from, html.indexOf("</script>", from)));
  }
}
