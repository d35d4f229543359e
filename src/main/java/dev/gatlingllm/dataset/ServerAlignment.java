package dev.gatlingllm.dataset;

import dev.gatlingllm.tokenizer.Tokenizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * vLLM 0.29's second stage for random and prefix_repetition prompts: a prompt built to its
 * length with the local tokenizer is brought to the same length in the server's tokens, so
 * that its {@code prompt_len} is the server's exact count. The prompt is tokenized by the
 * server; too many ids are cut at the end, too few are topped up with the prompt's own ids
 * from its start (the prompt's words again, so no id is guessed), then detokenized and
 * counted again, up to {@value TokenPrompts#MAX_RETRIES} times.
 *
 * <p>Each try is two round trips to the server: prompts are aligned {@value #THREADS} at a
 * time so that a remote server's latency, not the client's cores, bounds the wait.
 */
final class ServerAlignment {

  static final int THREADS = 8;

  private ServerAlignment() {}

  /** The server's tokenizer of a sampling, if the tokenizer carries one. */
  static boolean applies(Tokenizer tokenizer) {
    return tokenizer.serverAlignment().isPresent();
  }

  /** Special tokens the server adds on its own, else the local tokenizer's. */
  static int specialTokensToAdd(Tokenizer tokenizer) {
    return tokenizer.serverAlignment().orElse(tokenizer).numSpecialTokensToAdd();
  }

  /**
   * The prompts, each aligned to its target in the server's tokens; the prompts unchanged
   * when the tokenizer carries no server tokenizer.
   */
  static List<TokenPrompts.Prompt> align(Tokenizer tokenizer, List<TokenPrompts.Prompt> prompts,
      int[] targets) {
    if (!applies(tokenizer)) {
      return prompts;
    }
    Tokenizer server = tokenizer.serverAlignment().orElseThrow();
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1,
        Math.min(THREADS, prompts.size())), r -> {
          Thread t = new Thread(r, "gatling-llm-server-align");
          t.setDaemon(true);
          return t;
        });
    try {
      List<Future<TokenPrompts.Prompt>> futures = new ArrayList<>(prompts.size());
      for (int i = 0; i < prompts.size(); i++) {
        String text = prompts.get(i).text();
        int target = targets[i];
        futures.add(pool.submit(() -> exactLength(server, text, target)));
      }
      List<TokenPrompts.Prompt> out = new ArrayList<>(prompts.size());
      for (Future<TokenPrompts.Prompt> future : futures) {
        out.add(future.get());
      }
      return out;
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      throw new IllegalStateException("Re-aligning the prompts through the server's "
          + "/tokenize failed: " + cause.getMessage(), cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while re-aligning the prompts through the "
          + "server's /tokenize", e);
    } finally {
      pool.shutdownNow();
    }
  }

  /** One prompt brought to {@code target} server tokens, or as near as the tries got. */
  static TokenPrompts.Prompt exactLength(Tokenizer server, String text, int target) {
    String current = text;
    for (int attempt = 0; ; attempt++) {
      int[] ids = server.encode(current);
      if (ids.length == target || attempt == TokenPrompts.MAX_RETRIES || ids.length == 0) {
        return new TokenPrompts.Prompt(current, ids.length);
      }
      int[] next = Arrays.copyOf(ids, target);
      for (int i = ids.length; i < target; i++) {
        next[i] = ids[(i - ids.length) % ids.length];
      }
      current = server.decode(next);
    }
  }
}
