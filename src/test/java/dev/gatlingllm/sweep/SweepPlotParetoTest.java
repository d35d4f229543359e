package dev.gatlingllm.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code Sweep.plotPareto} from Java, per GPU as vLLM draws it or per joule as ours. */
class SweepPlotParetoTest {

  @TempDir
  Path dir;

  @Test
  void perJouleTheChartIsDrawnAgainstTokensPerJouleAsPlotParetoPerJouleDrawsIt()
      throws Exception {
    // two points with energy figures, one without (left out per joule)
    write("SERVE-BENCH-max_concurrency=1", 1, 60.0, 0.8);
    write("SERVE-BENCH-max_concurrency=4", 4, 200.0, 2.5);
    write("SERVE-BENCH-max_concurrency=8", 8, 260.0, null);

    List<Path> perJoule = Sweep.plotPareto(dir, "max_concurrency", null,
        List.of("max_concurrency"), dir.resolve("joule"), "svg", true);
    assertEquals(List.of(dir.resolve("joule/pareto.svg"), dir.resolve("joule/pareto.html")),
        perJoule);
    String svg = Files.readString(dir.resolve("joule/pareto.svg"));
    assertTrue(svg.contains(">output tokens per joule<"), svg);
    assertFalse(svg.contains("max_concurrency=8"), "the run without energy is left out");

    // the same as the command's flag writes
    assertEquals(0, Sweep.run(new String[] {"plot_pareto", dir.toString(), "--per-joule",
        "--label-by", "max_concurrency", "--fig-dir", dir.resolve("cli").toString(),
        "--format", "svg"}, System.out, System.err));
    assertEquals(svg, Files.readString(dir.resolve("cli/pareto.svg")));

    // without it: tokens/s per GPU, every run
    Sweep.plotPareto(dir, "max_concurrency", null, List.of("max_concurrency"),
        dir.resolve("gpu"), "svg");
    String perGpu = Files.readString(dir.resolve("gpu/pareto.svg"));
    assertTrue(perGpu.contains(">output tokens/s per GPU<"), perGpu);
    assertFalse(perGpu.contains("per joule"));
    assertTrue(perGpu.contains("max_concurrency=8"), "on the frontier per GPU: labelled");
  }

  private void write(String point, int users, double out, Double perJoule) throws Exception {
    Map<String, Object> run = new java.util.LinkedHashMap<>();
    run.put("sweep_point", point);
    run.put("max_concurrency", users);
    run.put("output_throughput", out);
    if (perJoule != null) {
      run.put("gpu_energy", Map.of("output_tokens_per_joule", perJoule));
    }
    Files.createDirectories(dir.resolve(point));
    new ObjectMapper().writeValue(dir.resolve(point).resolve("run=0.json").toFile(), run);
  }
}
