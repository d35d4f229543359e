package dev.gatlingllm.internal.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ParetoTest {

  private static Map<String, Object> run(String point, int users, double out, int tp) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put(SweepData.POINT_KEY, point);
    r.put("max_concurrency", users);
    r.put("output_throughput", out);
    r.put("tensor_parallel_size", tp);
    return r;
  }

  @Test
  void perUserAndPerGpuRatesAndTheFrontier() {
    // (per user, per GPU): a (100, 100), b (50, 200), c (40, 150) dominated by b,
    // d (25, 100) with tp 4: 400/16 users, 400/4 GPUs; dominated by b
    Pareto.Result r = Pareto.compute(List.of(run("a", 1, 100, 1), run("b", 4, 200, 1),
        run("c", 3, 120, 1), run("c", 3, 120, 1), run("d", 16, 400, 4)), "max_concurrency",
        null, List.of("max_concurrency", "gpu_count"));
    assertEquals(4, r.points().size());
    assertEquals(List.of("b", "a"), r.frontier().stream().map(Pareto.Point::point).toList());
    Pareto.Point b = r.frontier().get(0);
    assertEquals(50, b.perUser(), 1e-12);
    assertEquals(200, b.perGpu(), 1e-12);
    assertEquals("max_concurrency=4, gpu_count=1.0", b.label());
    Pareto.Point d = r.points().get(3);
    assertEquals(25, d.perUser(), 1e-12);
    assertEquals(100, d.perGpu(), 1e-12);
  }

  @Test
  void aNamedGpuCountAndTheConcurrencyFallback() {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("output_throughput", 300.0);
    r.put("max_concurrency", null);
    r.put("max_concurrent_requests", 6.0);
    r.put("gpus", 3);
    Pareto.Result p = Pareto.compute(List.of(r), "max_concurrency", "gpus", List.of());
    assertEquals(50, p.points().get(0).perUser(), 1e-12);
    assertEquals(100, p.points().get(0).perGpu(), 1e-12);
  }

  @Test
  void perJouleTheSecondAxisIsTokensPerJouleAndRunsWithoutItAreLeftOut() {
    // (per user, tok/J): a (100, 1.0), b (50, 2.5), c (40, 2.0) dominated by b; d has no energy
    Map<String, Object> a = run("a", 1, 100, 1);
    a.put("gpu_energy", Map.of("output_tokens_per_joule", 1.0));
    Map<String, Object> b = run("b", 4, 200, 1);
    b.put("gpu_energy", Map.of("output_tokens_per_joule", 2.5));
    Map<String, Object> c = run("c", 3, 120, 1);
    c.put("gpu_energy", Map.of("output_tokens_per_joule", 2.0));
    Pareto.Result r = Pareto.compute(List.of(a, b, c, run("d", 2, 100, 1)), "max_concurrency",
        null, List.of(), true);
    assertEquals(List.of("a", "b", "c"), r.points().stream().map(Pareto.Point::point).toList());
    assertEquals(List.of("b", "a"), r.frontier().stream().map(Pareto.Point::point).toList());
    assertEquals(2.5, r.frontier().get(0).perGpu(), 1e-12);
    assertEquals("output tokens per joule", r.yLabel());
    assertEquals("gpu_energy.output_tokens_per_joule", r.gpuKey());
    assertEquals("output tokens/s per GPU", Pareto.compute(List.of(a), "max_concurrency", null,
        List.of()).yLabel());
  }
}
