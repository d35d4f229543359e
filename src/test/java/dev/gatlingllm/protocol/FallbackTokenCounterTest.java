package dev.gatlingllm.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gatlingllm.sim.SimTokens;
import org.junit.jupiter.api.Test;

class FallbackTokenCounterTest {

  @Test
  void countsWithGpt2WhenAsked() {
    try (FallbackTokenCounter counter = new FallbackTokenCounter()) {
      // The simulator's words are one GPT-2 token each.
      assertEquals(7, counter.applyAsInt(SimTokens.text(7)));
      assertEquals(0, counter.applyAsInt(""));
    }
  }
}
