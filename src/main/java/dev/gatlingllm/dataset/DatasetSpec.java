package dev.gatlingllm.dataset;

import dev.gatlingllm.internal.dataset.DatasetException;
import dev.gatlingllm.tokenizer.Tokenizer;

/**
 * A fully configured dataset: sampling it with a tokenizer gives the requests. Sampling is
 * deterministic: the same spec and tokenizer give the same requests, in the same order.
 */
public interface DatasetSpec {

  /** The dataset's vLLM name: {@code random}, {@code sharegpt}, {@code sonnet}, ... */
  String name();

  /** How many requests {@link #sample} returns ({@code --num-prompts}). */
  int numPrompts();

  /** The random seed ({@code --seed}). */
  long seed();

  /**
   * Loads the data (reading files or downloading as needed) and draws the requests. Call it
   * once, before the run, off the event loops.
   *
   * @throws DatasetException when the data is missing, malformed or yields no request
   * @throws IllegalArgumentException when options conflict
   */
  Samples sample(Tokenizer tokenizer);
}
