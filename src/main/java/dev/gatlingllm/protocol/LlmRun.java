package dev.gatlingllm.protocol;

import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The run in progress in this JVM. Gatling runs one simulation per JVM at a time, and the
 * simulation's {@code after()} hook has no handle on protocol components: this is how it
 * finds the records to report.
 */
public final class LlmRun {

  private static final Logger LOG = LoggerFactory.getLogger(LlmRun.class);
  private static final AtomicReference<LlmComponents> CURRENT = new AtomicReference<>();
  private static final Map<LlmComponents, Long> REGISTERED_AT =
      Collections.synchronizedMap(new WeakHashMap<>());

  private LlmRun() {}

  static void register(LlmComponents components) {
    RunResults.printPendingSummary();
    LlmComponents previous = CURRENT.getAndSet(components);
    REGISTERED_AT.put(components, System.currentTimeMillis());
    if (previous != null && previous.core() == components.core()) {
      // Scenarios sharing one protocol share one components instance; a second one means a
      // second protocol in the same simulation.
      LOG.warn("this simulation uses more than one llm protocol: only the requests of the "
          + "last one built ({}) go into the vLLM result", components.protocol().target());
    } else if (previous != null) {
      // The previous simulation in this JVM never called LlmDsl.writeResults(this).
      RunResults.writeForgotten(previous, registeredAt(previous), false);
    }
    RunResults.writeForgottenAtExit();
  }

  /** When {@code run} was registered (its Gatling run had started), epoch ms; -1 if unknown. */
  static long registeredAt(LlmComponents run) {
    return REGISTERED_AT.getOrDefault(run, -1L);
  }

  /** The components of the latest run started in this JVM. */
  public static Optional<LlmComponents> current() {
    return Optional.ofNullable(CURRENT.get());
  }

  /** Forgets the current run (after its results were written). */
  public static void clear(LlmComponents components) {
    CURRENT.compareAndSet(components, null);
  }

  /** Takes the current run if its results were never written, so they are written once. */
  static Optional<LlmComponents> takeUnreported() {
    return Optional.ofNullable(CURRENT.getAndSet(null));
  }
}
