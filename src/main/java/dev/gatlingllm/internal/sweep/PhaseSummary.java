package dev.gatlingllm.internal.sweep;

import dev.gatlingllm.internal.metrics.Distribution;
import dev.gatlingllm.internal.metrics.RequestPhases;
import dev.gatlingllm.internal.report.RecordLog;
import dev.gatlingllm.internal.report.RecordLogReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Where a sweep run's time went, for the sweep's charts: the result JSON holds
 * {@code request_phases} only with {@code --save-detailed}, whose per-request arrays a sweep
 * should not carry, so the figures are taken from the run's record log (as the LLM report
 * draws them) and kept in its {@code run=N.json} under the same key and names, the means
 * and P99 only.
 */
final class PhaseSummary {

  /** The result's key of the phases, and the record's. */
  static final String KEY = "request_phases";
  /** The TTFT's parts, each a curve of the report's chart. */
  static final List<String> TTFT_PARTS = List.of("network", "server", "stream");

  private PhaseSummary() {}

  /**
   * The phases of the run in {@code runDir}; empty when it left no record log or its records
   * have no phases (a log of an older version) or it cannot be read: the run's own figures
   * stand without them.
   */
  static Optional<Map<String, Object>> of(Path runDir) {
    Optional<Path> log = recordLog(runDir);
    if (log.isEmpty()) {
      return Optional.empty();
    }
    RequestPhases p;
    try {
      p = RequestPhases.of(RecordLogReader.read(log.get()).source(), new double[] {99});
    } catch (IllegalArgumentException | UncheckedIOException e) {
      return Optional.empty();
    }
    if (!p.measured()) {
      return Optional.empty();
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("requests", p.requests());
    out.put("new_connections", p.newConnections());
    out.put("reused_connections", p.reusedConnections());
    put(out, "http_req_connecting", p.connect());
    out.put("ttft_split_requests", p.split());
    put(out, "ttft_network", p.network());
    put(out, "ttft_server", p.server());
    put(out, "ttft_stream", p.stream());
    return Optional.of(out);
  }

  private static void put(Map<String, Object> out, String key, Distribution d) {
    out.put("mean_" + key + "_ms", d.mean());
    out.put("p99_" + key + "_ms", d.percentile(99));
  }

  /** The run's record log: Gatling's run folder under the run's own. */
  private static Optional<Path> recordLog(Path runDir) {
    if (!Files.isDirectory(runDir)) {
      return Optional.empty();
    }
    try (Stream<Path> walk = Files.walk(runDir)) {
      return walk.filter(f -> f.getFileName().toString().equals(RecordLog.FILE_NAME)).sorted()
          .findFirst();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + runDir + ": " + e.getMessage(), e);
    }
  }
}
