package dev.gatlingllm.internal.sweep;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The trade-off between each user's speed and the hardware's: output tokens/s per user
 * ({@code output_throughput} ÷ concurrent users) against output tokens/s per GPU
 * ({@code output_throughput} ÷ GPU count), one point per sweep point (mean of its runs), and
 * the frontier of points no other point beats on both. With {@code perJoule} the second axis
 * is the GPUs' energy efficiency instead, output tokens per joule
 * ({@code gpu_energy.output_tokens_per_joule}, runs scraped with {@code --gpu-metrics-url}):
 * the trade-off between each user's speed and the energy each token costs.
 */
public final class Pareto {

  static final String X_LABEL = "output tokens/s per user";
  static final String Y_LABEL = "output tokens/s per GPU";
  static final String JOULE_LABEL = "output tokens per joule";
  static final String JOULE_KEY = "gpu_energy.output_tokens_per_joule";

  record Point(double perUser, double perGpu, String label, String point, double users,
      double gpus) {}

  /** The points, the frontier, the keys read and the second axis' label. */
  record Result(List<Point> points, List<Point> frontier, String userKey, String gpuKey,
      String yLabel) {

    Result(List<Point> points, List<Point> frontier, String userKey, String gpuKey) {
      this(points, frontier, userKey, gpuKey, Y_LABEL);
    }
  }

  private Pareto() {}

  /**
   * @param userCountVar key of the concurrent user count (vLLM's default
   *                     {@code max_concurrency}); falls back to {@code max_concurrent_requests}
   * @param gpuCountVar  key of the GPU count; null: {@code num_gpus}, {@code gpu_count}, else
   *                     {@code tensor_parallel_size × pipeline_parallel_size ×
   *                     data_parallel_size} (each 1 when absent)
   * @param labelBy      keys shown beside frontier points
   */
  static Result compute(List<Map<String, Object>> records, String userCountVar,
      String gpuCountVar, List<String> labelBy) {
    return compute(records, userCountVar, gpuCountVar, labelBy, false);
  }

  /** {@link #compute(List, String, String, List)}, against tokens per joule with {@code perJoule}. */
  static Result compute(List<Map<String, Object>> records, String userCountVar,
      String gpuCountVar, List<String> labelBy, boolean perJoule) {
    Map<String, List<Map<String, Object>>> byPoint = new LinkedHashMap<>();
    for (Map<String, Object> r : records) {
      Object key = r.getOrDefault(SweepData.POINT_KEY, "run " + byPoint.size());
      byPoint.computeIfAbsent(String.valueOf(key), k -> new ArrayList<>()).add(r);
    }
    List<Point> points = new ArrayList<>();
    byPoint.forEach((point, rs) -> {
      double perUser = 0;
      double perGpu = 0;
      double users = 0;
      double gpus = 0;
      int n = 0;
      for (Map<String, Object> r : rs) {
        double out = SweepData.number(r, "output_throughput");
        double u = users(r, userCountVar);
        double g = gpus(r, gpuCountVar);
        double joule = SweepData.number(r, JOULE_KEY);
        if (!Double.isFinite(out) || !(u > 0) || !Double.isFinite(u) || !(g > 0)
            || (perJoule && !(joule > 0 && Double.isFinite(joule)))) {
          continue;
        }
        perUser += out / u;
        perGpu += perJoule ? joule : out / g;
        users += u;
        gpus += g;
        n++;
      }
      if (n > 0) {
        Map<String, Object> first = rs.get(0);
        List<String> parts = new ArrayList<>();
        for (String k : labelBy) {
          if (k.equals("gpu_count")) {
            parts.add("gpu_count=" + Params.text(gpus / n));
          } else if (first.containsKey(k)) {
            parts.add(k + "=" + SweepData.text(first, k));
          }
        }
        points.add(new Point(perUser / n, perGpu / n, String.join(", ", parts), point,
            users / n, gpus / n));
      }
    });
    if (points.isEmpty()) {
      throw new IllegalArgumentException("plot_pareto: no run has output_throughput, a user "
          + "count (" + userCountVar + " or max_concurrent_requests) and "
          + (perJoule ? JOULE_KEY + " (runs with --gpu-metrics-url)" : "a GPU count above 0"));
    }
    return perJoule ? new Result(points, frontier(points), userCountVar, JOULE_KEY, JOULE_LABEL)
        : new Result(points, frontier(points), userCountVar,
            gpuCountVar == null ? "num_gpus | gpu_count | tp×pp×dp" : gpuCountVar);
  }

  /** The points no other point matches or beats on both axes, by tokens/s per user. */
  static List<Point> frontier(List<Point> points) {
    List<Point> sorted = new ArrayList<>(points);
    sorted.sort(Comparator.comparingDouble(Point::perUser).reversed()
        .thenComparing(Comparator.comparingDouble(Point::perGpu).reversed()));
    List<Point> front = new ArrayList<>();
    double best = Double.NEGATIVE_INFINITY;
    for (Point p : sorted) {
      if (p.perGpu() > best) {
        front.add(p);
        best = p.perGpu();
      }
    }
    front.sort(Comparator.comparingDouble(Point::perUser));
    return front;
  }

  private static double users(Map<String, Object> r, String key) {
    double u = SweepData.number(r, key);
    if (Double.isFinite(u) && u > 0) {
      return u;
    }
    return SweepData.number(r, "max_concurrent_requests");
  }

  private static double gpus(Map<String, Object> r, String key) {
    if (key != null) {
      return SweepData.number(r, key);
    }
    for (String k : List.of("num_gpus", "gpu_count")) {
      double v = SweepData.number(r, k);
      if (Double.isFinite(v) && v > 0) {
        return v;
      }
    }
    double product = 1;
    for (String k : List.of("tensor_parallel_size", "pipeline_parallel_size",
        "data_parallel_size")) {
      double v = SweepData.number(r, k);
      product *= Double.isFinite(v) && v > 0 ? v : 1;
    }
    return product;
  }
}
