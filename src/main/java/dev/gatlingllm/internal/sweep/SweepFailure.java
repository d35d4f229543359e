package dev.gatlingllm.internal.sweep;

import dev.gatlingllm.sweep.SweepOutcome;

/** A run, a server or a search that failed; the message names it and says where to look. */
public final class SweepFailure extends RuntimeException {

  private static final long serialVersionUID = 1L;
  private final transient SweepOutcome outcome;

  public SweepFailure(String message) {
    this(message, (Throwable) null);
  }

  public SweepFailure(String message, Throwable cause) {
    super(message, cause);
    this.outcome = null;
  }

  /** A sweep that ran to its end with failed combinations: what it did is kept. */
  SweepFailure(String message, SweepOutcome outcome) {
    super(message);
    this.outcome = outcome;
  }

  /** What the sweep did before it failed, when it got to its end; else null. */
  public SweepOutcome outcome() {
    return outcome;
  }
}
