package dev.gatlingllm.internal.protocol;

import java.util.ArrayList;
import java.util.List;

/**
 * How a run ended, said once: the last line it prints, which a CI log can grep, and the exit
 * status that goes with it (README, "How a run ends"). The same in every route, since every
 * route ends in {@link RunResults}: the launcher, {@code gatling:test} with the drop-in, and a
 * simulation of the user's own.
 *
 * @param outcome    what decides the exit status
 * @param succeeded  requests that succeeded
 * @param total      requests that finished, succeeded or not
 * @param selfCheck  the client's self-check, in a few words
 * @param compliance the server's compliance, in a few words
 * @param model      the model check, in a few words
 * @param exitZero   whether the run was asked to exit 0 whatever the outcome
 */
record RunVerdict(Outcome outcome, long succeeded, long total, String selfCheck,
    String compliance, String model, boolean exitZero) {

  /** What the line starts with, for {@code grep}. */
  public static final String PREFIX = "gatling-llm verdict: ";

  /** The outcomes that decide the exit status, worst last. */
  public enum Outcome {
    /** At least one request succeeded and the results were written. */
    OK(0, "ok"),
    /** The results could not be written (the run itself may have gone well). */
    RESULTS_NOT_WRITTEN(RunResults.RESULTS_FAILED_STATUS,
        "FAILED: the results were not written"),
    /** Not one request succeeded: nothing was measured of the server. */
    NO_REQUEST_SUCCEEDED(RunResults.NO_REQUEST_SUCCEEDED_STATUS,
        "FAILED: no request succeeded"),
    /**
     * Stopped at a server's first non-compliance, as asked ({@code
     * --stop-on-server-noncompliance}): the figures are not of what was asked.
     */
    STOPPED_NONCOMPLIANT(5, "FAILED: stopped, the server did not do what was asked");

    private final int status;
    private final String text;

    Outcome(int status, String text) {
      this.status = status;
      this.text = text;
    }

    /** The exit status of this outcome (Gatling's own are 1 and 2). */
    public int status() {
      return status;
    }
  }

  /** The JVM's exit status for this verdict: 0 when asked to exit 0 whatever happened. */
  public int exitStatus() {
    return exitZero ? 0 : outcome.status;
  }

  /**
   * The verdict line, for instance {@code gatling-llm verdict: ok | 200 of 200 requests
   * succeeded | client self-check: good | server compliance: ok | model: m listed by the
   * server}, with {@code | exit status N} when the verdict sets a non-zero status.
   */
  public String line() {
    List<String> parts = new ArrayList<>(6);
    parts.add(outcome.text + (exitZero && outcome != Outcome.OK ? " (exit zero asked)" : ""));
    parts.add(succeeded + " of " + total + " requests succeeded");
    parts.add("client self-check: " + selfCheck);
    parts.add("server compliance: " + compliance);
    parts.add("model: " + model);
    if (exitStatus() != 0) {
      // said only when the verdict sets it: a 0 is Gatling's to change (2 when its
      // assertions failed), which it does after this line
      parts.add("exit status " + exitStatus());
    }
    return PREFIX + String.join(" | ", parts);
  }
}
