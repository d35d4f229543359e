package dev.gatlingllm.internal.client;

/**
 * When the client gives up on a request on purpose, as a user who closes the browser tab
 * ({@code --cancel-fraction}): after its {@code chunks}-th content chunk, or {@code millis}
 * after its last byte was written (AIPerf's {@code --request-cancellation-delay} counts from
 * there too, so that the point does not move with connect and queueing times). HTTP/1.1 has
 * no way to cancel a request but closing its connection, which is what the client does.
 *
 * @param chunks content chunks received before the close; 0 when the cancel is by time
 * @param millis milliseconds after the request was written; -1 when the cancel is by chunks
 */
public record CancelAfter(int chunks, long millis) {

  /** Not cancelled: the request runs to its end. */
  public static final CancelAfter NEVER = new CancelAfter(0, -1);

  public CancelAfter {
    if (chunks < 0 || millis < -1 || (chunks > 0 && millis >= 0)) {
      throw new IllegalArgumentException("a cancel comes after chunks or after a time, not both: "
          + chunks + " chunks, " + millis + " ms");
    }
  }

  /** After the {@code n}-th content chunk (n >= 1). */
  public static CancelAfter chunks(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("cancel after at least 1 token, got " + n);
    }
    return new CancelAfter(n, -1);
  }

  /** {@code ms} milliseconds after the request was written (ms >= 0). */
  public static CancelAfter millis(long ms) {
    if (ms < 0) {
      throw new IllegalArgumentException("cancel after 0 ms or more, got " + ms);
    }
    return new CancelAfter(0, ms);
  }

  /** Whether the request is cancelled at all. */
  public boolean cancels() {
    return chunks > 0 || millis >= 0;
  }
}
