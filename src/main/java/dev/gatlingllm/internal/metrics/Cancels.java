package dev.gatlingllm.internal.metrics;

/**
 * The requests the client cancelled on purpose ({@code --cancel-fraction}): how many, how many
 * of them had received a first token by then, and the TTFT of those. Apart from vLLM's
 * figures, which count completed and failed requests only.
 *
 * @param cancelled       requests cancelled
 * @param withFirstToken  of those, requests that had a first content chunk before the cancel
 * @param ttft            their TTFT
 */
public record Cancels(int cancelled, int withFirstToken, Distribution ttft) {

  /** The cancelled requests among {@code src}. */
  public static Cancels of(RecordSource src, double[] percentiles) {
    int n = src.size();
    int cancelled = 0;
    int first = 0;
    double[] ttfts = new double[n];
    for (int i = 0; i < n; i++) {
      RequestRecord r = src.record(i);
      if (!r.cancelled()) {
        continue;
      }
      cancelled++;
      if (r.ttftNanos() >= 0) {
        ttfts[first++] = r.ttftNanos() / 1e9;
      }
    }
    return new Cancels(cancelled, first, Stats.ofSeconds(ttfts, first, percentiles));
  }

  /** How many requests of {@code src} were cancelled. */
  public static int count(RecordSource src) {
    int cancelled = 0;
    for (int i = 0; i < src.size(); i++) {
      cancelled += src.record(i).cancelled() ? 1 : 0;
    }
    return cancelled;
  }
}
