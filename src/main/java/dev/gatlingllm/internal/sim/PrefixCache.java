package dev.gatlingllm.internal.sim;

import java.util.HashSet;
import java.util.Set;

/**
 * A stand-in for vLLM's automatic prefix cache, so that {@code vllm:prefix_cache_hits_total}
 * and {@code vllm:prefix_cache_queries_total} move as a real server's do: the prompt is cut
 * into blocks of {@value #BLOCK_CHARS} characters, a block hits when the same prompt prefix
 * up to and including it was seen before, and hits are counted in prompt tokens in
 * proportion to the characters that hit. Bounded: forgets everything past
 * {@value #MAX_BLOCKS} blocks (a full cache being evicted). Not thread-safe: the caller
 * holds {@link ServerState}'s lock.
 */
final class PrefixCache {

  static final int BLOCK_CHARS = 64;
  static final int MAX_BLOCKS = 200_000;

  private final Set<Long> blocks = new HashSet<>();
  private long queries;
  private long hits;

  /** Looks a prompt up (and caches it): returns the prompt tokens that hit. */
  long lookup(String prompt, int promptTokens) {
    queries += promptTokens;
    if (prompt == null || prompt.isEmpty() || promptTokens <= 0) {
      return 0;
    }
    long hash = 1125899906842597L;
    int hitChars = 0;
    boolean hitting = true;
    int full = prompt.length() / BLOCK_CHARS;
    for (int b = 0; b < full; b++) {
      for (int i = b * BLOCK_CHARS; i < (b + 1) * BLOCK_CHARS; i++) {
        hash = 31 * hash + prompt.charAt(i);
      }
      boolean seen = !blocks.add(hash);
      if (hitting && seen) {
        hitChars += BLOCK_CHARS;
      } else {
        hitting = false;
      }
    }
    if (blocks.size() > MAX_BLOCKS) {
      blocks.clear();
    }
    long hit = Math.round((double) promptTokens * hitChars / prompt.length());
    hits += hit;
    return hit;
  }

  /** Forgets every prompt seen (vLLM's reset); the counters go on, as vLLM's do. */
  void reset() {
    blocks.clear();
  }

  long queries() {
    return queries;
  }

  long hits() {
    return hits;
  }
}
