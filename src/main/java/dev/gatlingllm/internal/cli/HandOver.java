package dev.gatlingllm.internal.cli;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The flags the launcher parsed for the next run. Gatling builds a simulation by reflection,
 * with no arguments, so this is the one channel from {@code gatling-llm bench serve} (same JVM)
 * to the {@code BenchServe} it starts: given just before Gatling starts, taken once by
 * {@code BenchServe}'s constructor. A run that {@code gatling:test} forks has no launcher in its
 * JVM: it parses {@code -Dllm.args} / {@code -Dllm.argsFile} instead (the JVM's command line is
 * the channel there). Either way the words are parsed once. It lives here, not in
 * {@code BenchServe}, so that the simulation users name shows no internal type.
 */
public final class HandOver {

  private static final AtomicReference<BenchArgs> NEXT = new AtomicReference<>();

  private HandOver() {}

  /** Gives the next {@code BenchServe} Gatling builds in this JVM its flags, already parsed. */
  public static void give(BenchArgs args) {
    NEXT.set(Objects.requireNonNull(args, "args"));
  }

  /** Takes back flags given but not used (a run that failed before the simulation). */
  public static void clear() {
    NEXT.set(null);
  }

  /** The flags given for this run, once; null when none were (a forked run). */
  public static BenchArgs take() {
    return NEXT.getAndSet(null);
  }
}
