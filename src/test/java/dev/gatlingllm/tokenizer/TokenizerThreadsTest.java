package dev.gatlingllm.tokenizer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One tokenizer is shared by the feeder (sampling prompts), the event loops (counting a
 * stream's output tokens) and the results: the same text must give the same tokens whichever
 * thread asks, and while others ask. Each text's tokens are first taken alone, then again by
 * four threads at once, each going through the texts in another order.
 */
@Timeout(120)
class TokenizerThreadsTest {

  private static List<String> texts() {
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < 64; i++) {
      StringBuilder s = new StringBuilder();
      for (int w = 0; w < 20 + i * 7; w++) {
        s.append(w % 5 == 0 ? "répétez " : w % 3 == 0 ? "四 " : "token" + (w * 31 + i) + ' ');
      }
      texts.add(s.toString());
    }
    return texts;
  }

  @Test
  void theSameTextGivesTheSameTokensOnEveryThreadAtOnce() throws Exception {
    Tokenizer tokenizer = Tokenizer.gpt2();
    List<String> texts = texts();
    List<int[]> alone = texts.stream().map(tokenizer::encode).toList();
    ExecutorService threads = Executors.newFixedThreadPool(4);
    try {
      List<Future<Integer>> checked = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int offset = t * 17;
        checked.add(threads.submit(() -> {
          int n = 0;
          for (int round = 0; round < 5; round++) {
            for (int k = 0; k < texts.size(); k++) {
              int i = (k + offset + round) % texts.size();
              assertArrayEquals(alone.get(i), tokenizer.encode(texts.get(i)), "text " + i);
              assertEquals(alone.get(i).length, tokenizer.count(texts.get(i)), "text " + i);
              n++;
            }
          }
          return n;
        }));
      }
      for (Future<Integer> f : checked) {
        assertEquals(5 * texts.size(), f.get(100, TimeUnit.SECONDS));
      }
    } finally {
      threads.shutdownNow();
    }
  }
}
