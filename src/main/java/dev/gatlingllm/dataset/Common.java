package dev.gatlingllm.dataset;

import java.util.List;
import java.util.Objects;

/** The options every dataset has, with vLLM's defaults. */
record Common(int numPrompts, long seed, boolean noOversample, boolean disableShuffle,
    String requestIdPrefix) {

  static final Common DEFAULTS = new Common(1000, 0, false, false, "");

  Common {
    if (numPrompts < 0) {
      throw new IllegalArgumentException("num-prompts must not be negative, got " + numPrompts);
    }
    Objects.requireNonNull(requestIdPrefix, "requestIdPrefix");
  }

  /** These options with {@code count} prompts (0: every entry once, where a dataset allows it). */
  Common withNumPrompts(int count) {
    return new Common(count, seed, noOversample, disableShuffle, requestIdPrefix);
  }

  /** Fails for datasets where 0 ("all") has no meaning. */
  void requirePrompts(String dataset) {
    if (numPrompts < 1) {
      throw new IllegalArgumentException("num-prompts must be >= 1 for the " + dataset
          + " dataset, got " + numPrompts);
    }
  }

  /**
   * A file's entries in the order they are taken (shuffled with the seed unless
   * {@code --disable-shuffle}; in place) and how many of them are wanted: {@code numPrompts},
   * or all of them for 0.
   */
  <T> int order(List<T> entries) {
    if (!disableShuffle) {
      Sampling.shuffle(entries, seed);
    }
    return numPrompts == 0 ? entries.size() : numPrompts;
  }

  String id(int index) {
    return requestIdPrefix + index;
  }
}
