package dev.gatlingllm.internal.sim;

import java.util.Arrays;

/**
 * A stand-in for vLLM's speculative decoding, so that its counters
 * ({@code vllm:spec_decode_num_drafts}, {@code _num_draft_tokens}, {@code _num_accepted_tokens},
 * {@code _num_accepted_tokens_per_pos}) move as a real server's do and a benchmark's
 * acceptance figures can be checked against known values. Every draft proposes
 * {@code k} tokens and the first {@code a} of them are accepted, so that one verification
 * step writes {@code a + 1} tokens (the accepted ones and the target model's own). The first
 * output token comes from the prefill, with no draft; the last draft of a request may be cut
 * short by its length, and then accepts only the tokens still to write but one. Not
 * thread-safe: the caller holds {@link ServerState}'s lock.
 */
final class SpecDecoding {

  private long drafts;
  private long draftTokens;
  private long accepted;
  private long[] acceptedByPos = new long[0];

  /**
   * Counts the drafts of a request that wrote {@code outputTokens}, with {@code k} tokens
   * proposed and {@code a} accepted per draft; nothing when {@code k} is 0 (no speculative
   * decoding).
   */
  void count(int outputTokens, int k, int a) {
    if (k <= 0 || outputTokens <= 1) {
      return;
    }
    if (acceptedByPos.length < k) {
      acceptedByPos = Arrays.copyOf(acceptedByPos, k);
    }
    int afterPrefill = outputTokens - 1;
    int full = afterPrefill / (a + 1);
    int left = afterPrefill % (a + 1);
    long requestDrafts = full + (left > 0 ? 1 : 0);
    drafts += requestDrafts;
    draftTokens += requestDrafts * k;
    accepted += (long) full * a + (left > 0 ? left - 1 : 0);
    for (int pos = 0; pos < a; pos++) {
      acceptedByPos[pos] += full + (pos < left - 1 ? 1 : 0);
    }
  }

  Counts snapshot() {
    return new Counts(drafts, draftTokens, accepted, acceptedByPos.clone());
  }

  /** A copy of the counters; {@code acceptedByPos} has one entry per draft position. */
  record Counts(long drafts, long draftTokens, long accepted, long[] acceptedByPos) {}
}
