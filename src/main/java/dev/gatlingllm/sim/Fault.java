package dev.gatlingllm.sim;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.EnumSet;
import java.util.Set;

/**
 * Kinds of failure the simulator can inject, and the rule that decides which requests get
 * which kind: it is fixed by the request's arrival number ({@link #planned}).
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

  /**
   * The faults {@code config} plans for the request with 0-based arrival number
   * {@code requestNumber}. Each kind is decided on its own by {@link #hits}, so the first N
   * requests hold exactly {@code floor(N*r)} hits of a kind of rate r (50 requests at 0.2
   * give 10, at i = 4, 9, ...).
   *
   * <p>Kinds with the same rate hit the same requests, and the returned set can hold
   * several kinds. They combine this way: {@link #HTTP_ERROR} wins over everything (the
   * request is answered 500 at once and the others are not applied); otherwise the
   * {@link #STALL} pause comes first, then the {@link #IN_BAND_ERROR} event, then the
   * {@link #DISCONNECT} close (so in-band plus disconnect sends the error event and closes
   * without {@code [DONE]}).
   */
  static Set<Fault> planned(SimulatorConfig config, long requestNumber) {
    if (requestNumber < 0) {
      throw new IllegalArgumentException("requestNumber must be >= 0, got " + requestNumber);
    }
    EnumSet<Fault> faults = EnumSet.noneOf(Fault.class);
    if (hits(config.errorRate(), requestNumber)) {
      faults.add(HTTP_ERROR);
    }
    if (hits(config.disconnectRate(), requestNumber)) {
      faults.add(DISCONNECT);
    }
    if (hits(config.inBandErrorRate(), requestNumber)) {
      faults.add(IN_BAND_ERROR);
    }
    if (hits(config.stallRate(), requestNumber)) {
      faults.add(STALL);
    }
    return faults;
  }

  /**
   * Whether a kind of rate {@code rate} hits item {@code i} (0-based): iff
   * {@code floor((i+1)*r) > floor(i*r)}, computed exactly on the rate's shortest decimal form,
   * since in doubles 100 * 0.29 floors to 28, not 29. The dialect's merged tokens and missing
   * role chunks follow the same rule.
   */
  static boolean hits(double rate, long i) {
    if (rate <= 0) {
      return false;
    }
    BigDecimal r = BigDecimal.valueOf(rate);
    BigDecimal before = r.multiply(BigDecimal.valueOf(i)).setScale(0, RoundingMode.FLOOR);
    BigDecimal after = r.multiply(BigDecimal.valueOf(i + 1)).setScale(0, RoundingMode.FLOOR);
    return after.compareTo(before) > 0;
  }
}
