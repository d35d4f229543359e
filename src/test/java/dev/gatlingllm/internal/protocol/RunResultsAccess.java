package dev.gatlingllm.internal.protocol;

/** Test access to the summary {@link RunResults} holds back until exit. */
public final class RunResultsAccess {

  private RunResultsAccess() {}

  /** Prints the last run's vLLM summary now instead of at exit. */
  public static void printPendingSummary() {
    RunResults.printPendingSummary();
  }
}
