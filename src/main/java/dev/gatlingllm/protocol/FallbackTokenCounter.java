package dev.gatlingllm.protocol;

import dev.gatlingllm.tokenizer.Tokenizer;
import java.util.function.ToIntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Output-token counter used after the run when the protocol names none: the shipped GPT-2
 * tokenizer, loaded only if some response carried no {@code usage}, with a warning that the
 * counts are GPT-2's rather than the model's.
 */
final class FallbackTokenCounter implements ToIntFunction<String>, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(FallbackTokenCounter.class);
  /** How the result file names this counter's tokenizer. */
  static final String ID = "gpt2";

  private Tokenizer tokenizer;

  @Override
  public int applyAsInt(String text) {
    if (tokenizer == null) {
      LOG.warn("some responses carried no usage: their output tokens are counted with the "
          + "GPT-2 tokenizer; set llm().tokenCounter(...) to count with the model's");
      tokenizer = Tokenizer.gpt2();
    }
    return tokenizer.count(text);
  }

  @Override
  public void close() {
    if (tokenizer != null) {
      tokenizer.close();
    }
  }
}
