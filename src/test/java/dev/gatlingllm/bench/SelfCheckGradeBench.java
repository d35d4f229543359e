package dev.gatlingllm.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import io.gatling.app.Gatling$;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * How much an event-loop lag moves each reported percentile (docs/client-overhead.md,
 * "Grading the self-check (session 16)"): the simulator answers with a fixed TTFT and ITL
 * (jitter 0), the client runs {@link SelfCheckGradeSimulation} with a known busy task on its
 * event loops, and each rung prints the self-check's loop-lag p99 beside the shift of TTFT
 * and ITL p50/p99 from the configured values, and the grade the run got.
 *
 * <p>Run with the project's JVM flags (those of {@code <jvmArgs>} in the pom), e.g. {@code
 * java -XX:TieredStopAtLevel=1 -XX:+UseParallelGC -Xms1024m -Xmx1024m -Xmn64m ... -cp
 * target/test-classes:target/classes:<test classpath> dev.gatlingllm.bench.SelfCheckGradeBench
 * [busyMs/everyMs ...]}: each argument is a rung ("0/0" = no disturbance); each rung runs
 * about 5 s.
 */
public final class SelfCheckGradeBench {

  private static final long TTFT_MS = 50;
  private static final long ITL_MS = 10;

  private SelfCheckGradeBench() {}

  public static void main(String[] args) throws Exception {
    List<String> rungs = args.length > 0 ? List.of(args)
        : List.of("0/0", "0.5/20", "1/20", "2/20", "3/20", "5/20", "8/40", "12/60");
    Path results = Files.createTempDirectory("grade-bench");
    StringBuilder table = new StringBuilder("| busy on the loops | loop lag p50 / p99 (ms) |"
        + " TTFT p50 / p99 shift (ms) | ITL p50 / p99 shift (ms) | lag p99 / ITL p50 | grade |\n"
        + "|---|---|---|---|---|---|\n");
    try (Simulator sim = Simulator.start(SimulatorConfig.builder().model("grade-model")
        .ttft(Duration.ofMillis(TTFT_MS)).itl(Duration.ofMillis(ITL_MS)).jitter(0).build())) {
      for (String rung : rungs) {
        String[] parts = rung.split("/");
        System.setProperty("grade.baseUrl", sim.baseUrl());
        System.setProperty("grade.busyMs", parts[0]);
        System.setProperty("grade.everyMs", parts[1]);
        Gatling$.MODULE$.fromArgs(new String[] {"--simulation",
            SelfCheckGradeSimulation.class.getName(), "--results-folder", results.toString(),
            "--launcher", "maven", "--build-tool-version", "bench"});
        JsonNode doc = newestResult(results);
        JsonNode sc = doc.get("client_self_check");
        double lagP99 = sc.get("p99_loop_lag_ms").asDouble();
        table.append(String.format(Locale.ROOT,
            "| %s ms every %s ms | %.2f / %.2f | %+.2f / %+.2f | %+.2f / %+.2f | %.0f %% | %s |%n",
            parts[0], parts[1], sc.get("median_loop_lag_ms").asDouble(), lagP99,
            doc.get("median_ttft_ms").asDouble() - TTFT_MS,
            doc.get("p99_ttft_ms").asDouble() - TTFT_MS,
            doc.get("median_itl_ms").asDouble() - ITL_MS,
            doc.get("p99_itl_ms").asDouble() - ITL_MS,
            100 * lagP99 / doc.get("median_itl_ms").asDouble(), sc.get("grade").asText()));
        System.out.println(table);
      }
    }
    System.out.println(table);
    System.exit(0);
  }

  private static JsonNode newestResult(Path results) throws IOException {
    try (Stream<Path> files = Files.walk(results)) {
      Path json = files.filter(p -> p.toString().endsWith(".json")
              && p.getFileName().toString().contains("grade"))
          .max(Comparator.comparing(p -> p.toFile().lastModified())).orElseThrow();
      return new ObjectMapper().readTree(json.toFile());
    }
  }
}
