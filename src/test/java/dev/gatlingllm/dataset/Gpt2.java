package dev.gatlingllm.dataset;

import dev.gatlingllm.tokenizer.Tokenizer;
import java.nio.file.Path;

/** Tokenizers shared by the dataset tests (loading one takes a few hundred milliseconds). */
final class Gpt2 {

  /** The shipped GPT-2 tokenizer, loaded once per test JVM and never closed. */
  static final Tokenizer TOKENIZER = Tokenizer.gpt2();

  /**
   * A six-word WordLevel tokenizer that adds a {@code <s>} token in front of each sequence:
   * every word is exactly one token, so expected counts can be worked out by hand.
   */
  static final Tokenizer WORDS = Tokenizer.load(Path.of("src/test/resources/tokenizer/bos"));

  private Gpt2() {}
}
