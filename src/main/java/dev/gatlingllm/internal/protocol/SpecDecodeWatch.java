package dev.gatlingllm.internal.protocol;

import dev.gatlingllm.internal.metrics.SpecDecodeStats;
import dev.gatlingllm.internal.servermetrics.SpecDecodeCounters;
import java.util.Optional;

/**
 * The server's speculative decoding over the run: its counters read once the warm-up is over
 * and before the run's first request, as vLLM does, and again after the run, so that the
 * result counts this run's drafts only. Read on the thread building the simulation and on the
 * one writing the results, never on an event loop.
 */
final class SpecDecodeWatch {

  private final RunSetup setup;
  /** The counters just before the run; empty when not read or none. */
  private volatile Optional<SpecDecodeStats.Counts> before = Optional.empty();

  SpecDecodeWatch(RunSetup setup) {
    this.setup = setup;
  }

  /** Reads the counters the run starts from (after the warm-up). */
  void readBefore() {
    before = read();
  }

  /**
   * The run's speculative decoding: the counters read now, after the run, against those read
   * before it; empty when the server has none (or they could not be read).
   */
  Optional<SpecDecodeStats> stats() {
    if (before.isEmpty()) {
      return Optional.empty();
    }
    return SpecDecodeStats.between(before, read());
  }

  private Optional<SpecDecodeStats.Counts> read() {
    LlmProtocol protocol = setup.protocol();
    return SpecDecodeCounters.fetch(protocol.specDecodeMetrics(), setup.headerMap(),
            protocol.insecureTls())
        .map(c -> new SpecDecodeStats.Counts(c.drafts(), c.draftTokens(), c.accepted(),
            c.acceptedByPos()));
  }
}
