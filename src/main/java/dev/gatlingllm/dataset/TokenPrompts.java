package dev.gatlingllm.dataset;

import dev.gatlingllm.tokenizer.Tokenizer;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Turns token ids into prompt text of an exact token count. Tokenizers are not bijective:
 * decoding ids and encoding the text again can give more or fewer tokens (GPT-2 merges
 * "Ġcalls"+"here" into "Ġcall"+"sh"+"ere"), so the text is re-encoded and the ids trimmed or
 * topped up with random regular tokens, up to {@value #MAX_RETRIES} times.
 */
final class TokenPrompts {

  static final int MAX_RETRIES = 10;

  /** Prompt text and its real token count (the target, unless the retries ran out). */
  record Prompt(String text, int tokens) {}

  private TokenPrompts() {}

  static Prompt exactLength(Tokenizer tokenizer, int[] ids, int target, int[] regularIds,
      SplittableRandom rng) {
    int[] current = ids;
    for (int attempt = 0; ; attempt++) {
      String text = tokenizer.decode(current);
      int[] encoded = tokenizer.encode(text);
      if (encoded.length == target || attempt == MAX_RETRIES) {
        return new Prompt(text, encoded.length);
      }
      if (encoded.length > target) {
        current = Arrays.copyOf(encoded, target);
      } else {
        current = Arrays.copyOf(encoded, target);
        for (int i = encoded.length; i < target; i++) {
          current[i] = regularIds[rng.nextInt(regularIds.length)];
        }
      }
    }
  }

  /** {@code count} consecutive regular ids starting at {@code start} (wrapping around). */
  static int[] consecutive(int[] regularIds, long start, int count) {
    int[] out = new int[count];
    int n = regularIds.length;
    int first = (int) Math.floorMod(start, (long) n);
    for (int j = 0; j < count; j++) {
      out[j] = regularIds[(first + j) % n];
    }
    return out;
  }

  /** {@code count} regular ids drawn uniformly at random. */
  static int[] random(int[] regularIds, int count, SplittableRandom rng) {
    int[] out = new int[count];
    for (int j = 0; j < count; j++) {
      out[j] = regularIds[rng.nextInt(regularIds.length)];
    }
    return out;
  }
}
