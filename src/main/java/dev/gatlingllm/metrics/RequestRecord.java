package dev.gatlingllm.metrics;

import java.util.Objects;

/**
 * Everything measured about one request, as the client saw it. Times come from
 * {@link System#nanoTime()}, so they are only comparable within one JVM run.
 *
 * <p>Content-chunk arrivals are kept as microsecond offsets from {@code startNanos}
 * (4 bytes per chunk): inter-token latencies are the differences of consecutive offsets,
 * so they always add up to {@code latency - ttft} to the microsecond. TTFT and latency
 * themselves are kept to the nanosecond.
 *
 * @param name             Gatling request name
 * @param scheduledNanos   when the arrival profile wanted the request sent; equals
 *                         {@code startNanos} when nothing paced or queued it
 * @param startNanos       taken right before the request bytes were written, after any
 *                         concurrency permit was acquired
 * @param ttftNanos        first content chunk minus start; -1 when no content arrived
 * @param latencyNanos     last content chunk minus start; -1 when no content arrived
 * @param endNanos         when the request was over (stream end, error or timeout)
 * @param chunkMicros      arrival of every content chunk, microseconds after start
 * @param promptTokens     prompt length from the dataset; -1 when unknown
 * @param usagePromptTokens  {@code usage.prompt_tokens} reported by the server; -1 when absent
 * @param outputTokens     {@code usage.completion_tokens} reported by the server; -1 when absent
 * @param httpStatus       HTTP status, 0 when no response head arrived
 * @param success          HTTP 200 and at least one content chunk and no error event
 * @param error            why it failed (full text); null on success
 * @param generatedText    concatenated text of all content chunks; null when not kept
 * @param requestId        the {@code x-request-id} it was sent with; null when unknown. It is
 *                         how a record is matched with the server's own logs.
 * @param ttfcNanos        first chunk carrying answer text (not reasoning) minus start; -1
 *                         when none arrived
 * @param reasoningChunks  content chunks that carried reasoning text ({@code reasoning_content}
 *                         or {@code reasoning}); they count for TTFT and ITL as any other
 */
public record RequestRecord(
    String name,
    long scheduledNanos,
    long startNanos,
    long ttftNanos,
    long latencyNanos,
    long endNanos,
    int[] chunkMicros,
    int promptTokens,
    int usagePromptTokens,
    int outputTokens,
    int httpStatus,
    boolean success,
    String error,
    String generatedText,
    String requestId,
    long ttfcNanos,
    int reasoningChunks) {

  public RequestRecord {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(chunkMicros, "chunkMicros");
  }

  /** A record of a model that did not reason: no reasoning chunk, TTFC not tracked. */
  public RequestRecord(String name, long scheduledNanos, long startNanos, long ttftNanos,
      long latencyNanos, long endNanos, int[] chunkMicros, int promptTokens,
      int usagePromptTokens, int outputTokens, int httpStatus, boolean success, String error,
      String generatedText, String requestId) {
    this(name, scheduledNanos, startNanos, ttftNanos, latencyNanos, endNanos, chunkMicros,
        promptTokens, usagePromptTokens, outputTokens, httpStatus, success, error, generatedText,
        requestId, -1, 0);
  }

  /** A record without a request id. */
  public RequestRecord(String name, long scheduledNanos, long startNanos, long ttftNanos,
      long latencyNanos, long endNanos, int[] chunkMicros, int promptTokens,
      int usagePromptTokens, int outputTokens, int httpStatus, boolean success, String error,
      String generatedText) {
    this(name, scheduledNanos, startNanos, ttftNanos, latencyNanos, endNanos, chunkMicros,
        promptTokens, usagePromptTokens, outputTokens, httpStatus, success, error, generatedText,
        null);
  }

  /** Number of inter-token latencies: one fewer than content chunks. */
  public int itlCount() {
    return Math.max(0, chunkMicros.length - 1);
  }

  /** The i-th inter-token latency in milliseconds. */
  public double itlMillis(int i) {
    return (chunkMicros[i + 1] - chunkMicros[i]) / 1_000.0;
  }

  public double ttftMillis() {
    return ttftNanos / 1_000_000.0;
  }

  /** Time to the first answer (non-reasoning) chunk; meaningful when {@code ttfcNanos >= 0}. */
  public double ttfcMillis() {
    return ttfcNanos / 1_000_000.0;
  }

  public double latencyMillis() {
    return latencyNanos / 1_000_000.0;
  }

  /** Time spent between the scheduled arrival and the actual send (queueing, pacing). */
  public long waitNanos() {
    return startNanos - scheduledNanos;
  }

  /** This record with another generated text (null drops it), everything else shared. */
  public RequestRecord withGeneratedText(String text) {
    return new RequestRecord(name, scheduledNanos, startNanos, ttftNanos, latencyNanos, endNanos,
        chunkMicros, promptTokens, usagePromptTokens, outputTokens, httpStatus, success, error, text,
        requestId, ttfcNanos, reasoningChunks);
  }
}
