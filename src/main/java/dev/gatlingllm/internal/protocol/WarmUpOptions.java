package dev.gatlingllm.internal.protocol;

/**
 * Real requests sent before the measured run (vLLM's {@code --num-warmups}, and more): they
 * open the connections the run will use and compile the response path, so the first
 * requests of the run are not timed on a cold client. They never reach Gatling's statistics,
 * the vLLM summary or the result JSON.
 *
 * <p>By default ({@link #auto()}) one probe request goes first (it also tells early when the
 * server refuses the requests), then two rounds of requests at the run's concurrency, more
 * when that is fewer than 4,000 content chunks (the per-chunk path is then compiled), for at
 * most about 3 seconds. The run's concurrency: the max concurrency when there is one, every request
 * of a rate-{@code inf} profile, rate × the probe's latency for a paced profile (Little's
 * law), else one per event loop; never more than the profile's requests nor 1,024.
 *
 * @param enabled     whether to warm up at all
 * @param requests    warm-up requests after the probe; -1 picks them as above
 * @param concurrency streams at once; -1 picks it as above
 * @param maxTokens   {@code max_tokens} of each warm-up request
 */
public record WarmUpOptions(boolean enabled, int requests, int concurrency, int maxTokens) {

  /** Most streams a picked concurrency opens. */
  static final int MAX_AUTO_CONCURRENCY = 1024;
  /** Content chunks the default warm-up aims for: enough to compile the per-chunk path. */
  static final int TARGET_CHUNKS = 4000;
  static final int DEFAULT_MAX_TOKENS = 64;
  /** Longest the default warm-up goes on for chunks' sake once its two rounds are done. */
  static final long MAX_EXTRA_NANOS = 3_000_000_000L;

  public WarmUpOptions {
    if (requests < -1) {
      throw new IllegalArgumentException("warm-up requests must be >= 0, got " + requests);
    }
    if (concurrency == 0 || concurrency < -1) {
      throw new IllegalArgumentException("warm-up concurrency must be >= 1, got " + concurrency);
    }
    if (maxTokens < 1) {
      throw new IllegalArgumentException("warm-up maxTokens must be >= 1, got " + maxTokens);
    }
  }

  /** The default: a probe, then requests and concurrency picked from the run. */
  public static WarmUpOptions auto() {
    return new WarmUpOptions(true, -1, -1, DEFAULT_MAX_TOKENS);
  }

  /** No warm-up: the first requests of the run meet a cold client. */
  public static WarmUpOptions off() {
    return new WarmUpOptions(false, 0, -1, DEFAULT_MAX_TOKENS);
  }

  public WarmUpOptions withRequests(int n) {
    return new WarmUpOptions(n != 0, n, concurrency, maxTokens);
  }

  public WarmUpOptions withConcurrency(int c) {
    return new WarmUpOptions(enabled, requests, c, maxTokens);
  }

  public WarmUpOptions withMaxTokens(int t) {
    return new WarmUpOptions(enabled, requests, concurrency, t);
  }
}
