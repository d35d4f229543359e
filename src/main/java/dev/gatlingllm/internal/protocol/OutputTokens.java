package dev.gatlingllm.internal.protocol;

import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.tokenizer.Tokenizer;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.function.ToIntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The run's one rule for the output length of a response: {@code usage.completion_tokens}
 * when the server sent it, else the tokens of the generated text (no special tokens) counted
 * by the protocol's {@code tokenCounter}, else by the shipped GPT-2 tokenizer (loaded only
 * when first needed, with a warning). The {@code <name> goodput} rows during the run and the
 * result file after it both count with this object, so they agree.
 *
 * <p>Counting is CPU work of about 1.5 ms for 256 tokens and 7 ms for 1024 with GPT-2 on
 * this project's VM: too long for an event loop, whose other streams would see it as ITL.
 * During the run it therefore happens on one counting thread of its own.
 */
public final class OutputTokens implements ToIntFunction<String>, AutoCloseable {

  /** How the result file names the fallback tokenizer. */
  static final String FALLBACK_ID = "gpt2";

  private static final Logger LOG = LoggerFactory.getLogger(OutputTokens.class);

  private final ToIntFunction<String> configured;
  // One thread, started by the first count and gone after a minute without one (a run whose
  // results are never written does not leak it). Never behind a lock an event loop could
  // wait on: loading the fallback tokenizer on that thread takes hundreds of milliseconds.
  private final ThreadPoolExecutor counting = new ThreadPoolExecutor(1, 1, 1, TimeUnit.MINUTES,
      new LinkedBlockingQueue<>(), r -> {
        Thread t = new Thread(r, "gatling-llm-token-count");
        t.setDaemon(true);
        return t;
      });

  private Tokenizer fallback;
  private boolean warned;

  /** @param configured the protocol's token counter; null for the GPT-2 fallback */
  OutputTokens(ToIntFunction<String> configured) {
    this.configured = configured;
    counting.allowCoreThreadTimeOut(true);
  }

  /** Tokens of {@code text} without special tokens. */
  @Override
  public int applyAsInt(String text) {
    return configured != null ? configured.applyAsInt(text) : fallback().count(text);
  }

  private synchronized Tokenizer fallback() {
    if (!warned) {
      LOG.warn("some responses carried no usage: their output tokens are counted with the "
          + "GPT-2 tokenizer; load the model's with tokenizer(...) for the dataset (or give it to "
          + "llm().tokenizer(...)) to count with it");
      warned = true;
    }
    return loadedFallback();
  }

  private synchronized Tokenizer loadedFallback() {
    if (fallback == null) {
      fallback = Tokenizer.gpt2();
    }
    return fallback;
  }

  /**
   * Loads the fallback tokenizer now, when there is no configured counter: call before the
   * run when outputs may be counted during it, so that the load (hundreds of milliseconds of
   * CPU) does not compete with the event loops mid-run.
   */
  public void prepareForRunTimeCounting() {
    if (configured == null) {
      loadedFallback();
    }
  }

  /**
   * Hands the output length of a successful request to {@code then}: at once, on the calling
   * thread, when the server sent usage; else once the text is counted, on the counting
   * thread. When counting fails, {@code failed} gets the exception instead. Exactly one of
   * them is called.
   */
  public void outputLen(RequestRecord record, IntConsumer then,
      Consumer<RuntimeException> failed) {
    if (record.outputTokens() > 0) {
      then.accept(record.outputTokens());
      return;
    }
    String text = record.generatedText() == null ? "" : record.generatedText();
    Runnable count = () -> {
      int tokens;
      try {
        tokens = applyAsInt(text);
      } catch (RuntimeException e) {
        failed.accept(e);
        return;
      }
      then.accept(tokens);
    };
    try {
      counting.execute(count);
    } catch (RejectedExecutionException afterClose) {
      // only once the run's results are written; nothing is timed any more
      count.run();
    }
  }

  /** Stops the counting thread (after the counts in flight) and frees the tokenizer. */
  @Override
  public void close() {
    counting.shutdown();
    try {
      counting.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    synchronized (this) {
      if (fallback != null) {
        fallback.close();
        fallback = null;
      }
    }
  }
}
