package dev.gatlingllm.internal.sweep;

import dev.gatlingllm.internal.cli.BenchArgs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A run launcher that answers from a queueing model instead of running Gatling: a server with
 * {@code slots} requests running at once, each taking {@code serviceS} seconds, and a TTFT of
 * {@code ttftMs} plus the queueing wait. Every call is recorded.
 */
final class FakeServer implements RunLauncher {

  final int slots;
  final double serviceS;
  final double ttftMs;
  final List<List<String>> calls = new ArrayList<>();
  /** Concurrencies whose runs' client self-check warns, as a starved client's does. */
  final java.util.Set<Integer> starved = new java.util.HashSet<>();
  /** Concurrencies whose runs are found over-saturated. */
  final java.util.Set<Integer> saturated = new java.util.HashSet<>();
  /** Whether {@code --seed} adds its value in ms to the mean TTFT (runs that differ). */
  boolean seedMovesTtft;

  FakeServer(int slots, double serviceS, double ttftMs) {
    this.slots = slots;
    this.serviceS = serviceS;
    this.ttftMs = ttftMs;
  }

  /** Saturation rate, requests per second. */
  double capacity() {
    return slots / serviceS;
  }

  @Override
  public Map<String, Object> run(List<String> benchArgs, Path runDir) {
    calls.add(benchArgs);
    BenchArgs args = BenchArgs.parse(benchArgs);
    double rate = args.decimal("request-rate").orElse(Double.POSITIVE_INFINITY);
    Integer conc = args.has("max-concurrency") ? args.integer("max-concurrency").get() : null;
    double offered = conc == null ? rate : Math.min(rate, conc / serviceS);
    double throughput = Math.min(offered, capacity());
    double waitMs = offered > capacity()
        ? (conc != null ? (conc - slots) * serviceS * 1000 / slots : (offered - capacity()) * 50)
        : 0;
    double e2el = serviceS * 1000 + waitMs;
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("request_rate", Double.isInfinite(rate) ? "inf" : rate);
    r.put("max_concurrency", conc);
    r.put("completed", 40);
    r.put("failed", 0);
    r.put("request_throughput", throughput);
    r.put("output_throughput", throughput * 9);
    int seed = seedMovesTtft ? args.integer("seed").orElse(0) : 0;
    r.put("mean_ttft_ms", ttftMs + waitMs / 2 + seed);
    r.put("p99_ttft_ms", ttftMs + waitMs);
    r.put("mean_e2el_ms", e2el);
    r.put("p99_e2el_ms", e2el + waitMs);
    r.put("ttfts", List.of(0.1, 0.2));
    r.put("client_self_check", Map.of("warnings", starved.contains(conc)
        ? List.of("the client itself was a bottleneck: event-loop lag p99 189.00 ms") : List.of()));
    Map<String, Object> over = new LinkedHashMap<>();
    over.put("detected", saturated.contains(conc));
    over.put("since_s", saturated.contains(conc) ? 2.5 : null);
    r.put("over_saturation", over);
    return r;
  }
}
