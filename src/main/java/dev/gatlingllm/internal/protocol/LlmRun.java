package dev.gatlingllm.internal.protocol;

import io.gatling.core.CoreComponents;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The run in progress in this JVM. Gatling runs one simulation per JVM at a time, and the
 * simulation's {@code after()} hook has no handle on protocol components: this is how it
 * finds the records to report.
 */
public final class LlmRun {

  private static final AtomicReference<LlmComponents> CURRENT = new AtomicReference<>();
  /** Closed with the next run registered; see {@link #closeAfterRun}. */
  private static final List<AutoCloseable> TO_CLOSE = new ArrayList<>();
  private static final Map<LlmComponents, List<AutoCloseable>> CLOSED_WITH =
      Collections.synchronizedMap(new WeakHashMap<>());

  private LlmRun() {}

  /**
   * Refuses a second {@code llm()} protocol in a run, before its components are made: its
   * requests could not go into the run's one result.
   *
   * @throws IllegalStateException when the run of {@code core} already has a protocol
   */
  static void requireFirstProtocol(CoreComponents core, LlmProtocol protocol) {
    LlmComponents running = CURRENT.get();
    if (running != null && running.parts().setup().core() == core) {
      // Scenarios sharing one protocol share one components instance; a second one means a
      // second protocol in the same simulation.
      throw new IllegalStateException("this simulation has two llm() protocols ("
          + running.parts().setup().protocol() + " and " + protocol + ") but a run has one "
          + "result: build the protocol once and give it once, in setUp(...).protocols(llm), "
          + "for every scenario");
    }
  }

  /** Makes {@code components} the current run. */
  static void register(LlmComponents components) {
    RunResults.printPendingSummary();
    LlmComponents previous = CURRENT.getAndSet(components);
    synchronized (TO_CLOSE) {
      CLOSED_WITH.put(components, new ArrayList<>(TO_CLOSE));
      TO_CLOSE.clear();
    }
    components.parts().setup().protocol().onStart()
        .forEach(s -> s.accept(components.parts()));
    if (previous != null) {
      // The previous simulation in this JVM never called LlmDsl.writeResults(this).
      RunResults.writeForgotten(previous, false);
    }
    RunResults.writeForgottenAtExit();
  }

  /** The components of the latest run started in this JVM. */
  public static Optional<LlmComponents> current() {
    return Optional.ofNullable(CURRENT.get());
  }

  /**
   * Forgets the current run (after its results were written) and closes what was to be
   * closed with it.
   */
  public static void clear(LlmComponents components) {
    CURRENT.compareAndSet(components, null);
    List<AutoCloseable> closing = CLOSED_WITH.remove(components);
    if (closing != null) {
      for (AutoCloseable c : closing) {
        try {
          c.close();
        } catch (Exception e) {
          // the results are written; a resource that fails to close harms nothing now
        }
      }
    }
  }

  /**
   * Closes {@code resource} once the results of the next run to start in this JVM are
   * written (or with the one after, when none does): for what a simulation starts while it
   * is built, such as an embedded simulator, which its {@code after()} need not close.
   */
  public static void closeAfterRun(AutoCloseable resource) {
    synchronized (TO_CLOSE) {
      TO_CLOSE.add(resource);
    }
  }



  /** Takes the current run if its results were never written, so they are written once. */
  static Optional<LlmComponents> takeUnreported() {
    return Optional.ofNullable(CURRENT.getAndSet(null));
  }
}
