package dev.gatlingllm.sim;

/**
 * Kinds of failure the simulator can inject. Which requests get which kind is fixed by
 * the request's arrival number, see {@link SimulatorConfig#faultsFor(long)}.
 */
public enum Fault {
  /** HTTP 500 with vLLM's error JSON, answered at once; the request never runs. */
  HTTP_ERROR("error"),
  /** The connection is closed mid-stream after some content chunks, without a terminator. */
  DISCONNECT("disconnect"),
  /** Some content chunks, then {@code data: {"error": {...}}} and {@code data: [DONE]}. */
  IN_BAND_ERROR("inband_error"),
  /** The stream pauses for the stall duration mid-way, then continues normally. */
  STALL("stall");

  private final String label;

  Fault(String label) {
    this.label = label;
  }

  /** Short lower-case name, as used in the {@code /metrics} {@code kind} label. */
  public String label() {
    return label;
  }
}
