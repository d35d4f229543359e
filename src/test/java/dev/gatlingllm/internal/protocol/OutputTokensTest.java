package dev.gatlingllm.internal.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.sim.SimTokens;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class OutputTokensTest {

  private static RequestRecord answer(int usageTokens, String text) {
    return RequestRecord.builder("r").startNanos(0).ttftNanos(1_000).latencyNanos(2_000)
        .endNanos(2_000).chunkMicros(new int[] {1, 2}).promptTokens(3).outputTokens(usageTokens)
        .httpStatus(200).success(true).generatedText(text).build();
  }

  @Test
  void countsWithGpt2WhenNoCounterIsConfigured() {
    try (OutputTokens tokens = new OutputTokens(null)) {
      // The simulator's words are one GPT-2 token each.
      assertEquals(7, tokens.applyAsInt(SimTokens.text(7)));
      assertEquals(0, tokens.applyAsInt(""));
    }
  }

  @Test
  void usageIsTakenAtOnceAndTextIsCountedOffTheCallingThread() throws Exception {
    try (OutputTokens tokens = new OutputTokens(String::length)) {
      Thread caller = Thread.currentThread();
      CompletableFuture<Thread> usageThread = new CompletableFuture<>();
      tokens.outputLen(answer(5, "ignored"), n -> {
        assertEquals(5, n);
        usageThread.complete(Thread.currentThread());
      }, usageThread::completeExceptionally);
      assertSame(caller, usageThread.getNow(null), "usage needs no counting");

      CompletableFuture<Integer> counted = new CompletableFuture<>();
      CompletableFuture<Thread> countingThread = new CompletableFuture<>();
      tokens.outputLen(answer(-1, "abcd"), n -> {
        countingThread.complete(Thread.currentThread());
        counted.complete(n);
      }, counted::completeExceptionally);
      assertEquals(4, counted.get(5, TimeUnit.SECONDS), "the configured counter's count");
      assertNotEquals(caller, countingThread.get());
    }
  }

  @Test
  void aCounterThatThrowsIsReportedNotSwallowed() throws Exception {
    try (OutputTokens tokens = new OutputTokens(text -> {
      throw new IllegalStateException("tokenizer exploded");
    })) {
      CompletableFuture<RuntimeException> failure = new CompletableFuture<>();
      tokens.outputLen(answer(0, "x"), n -> failure.complete(null), failure::complete);
      assertEquals("tokenizer exploded", failure.get(5, TimeUnit.SECONDS).getMessage());
    }
  }
}
