package dev.gatlingllm.internal.arrival;

/**
 * A point where a ramp's integer rate went up, as vLLM records it in {@code rps_change_events}:
 * one event for the start rate when the run begins, then one per integer the rate crosses,
 * stamped when the request that crossed it was sent.
 *
 * @param rps         the integer requests-per-second level reached
 * @param offsetNanos when, relative to the start of the schedule (0 for the start rate)
 */
record RpsChangeEvent(int rps, long offsetNanos) {}
