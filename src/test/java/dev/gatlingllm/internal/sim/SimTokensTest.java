package dev.gatlingllm.internal.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class SimTokensTest {

  @Test
  void tokensAreDigitWordsCyclingEveryTen() {
    assertEquals(" zero", SimTokens.token(0));
    assertEquals(" nine", SimTokens.token(9));
    assertEquals(" zero", SimTokens.token(10));
    assertEquals(" three", SimTokens.token(23));
  }

  @Test
  void textIsTheConcatenationOfTheTokens() {
    assertEquals(" zero one two", SimTokens.text(3));
    assertEquals(" zero one two three four five six seven eight nine zero one", SimTokens.text(12));
  }

  @Test
  void chunksCarryTokensPerChunkTokensAndTheLastOneTheRest() {
    assertEquals(List.of(" zero one", " two three", " four"), SimTokens.chunks(5, 2));
    assertEquals(List.of(" zero one two"), SimTokens.chunks(3, 8));
    assertEquals(3, SimTokens.chunkCount(5, 2));
    assertEquals(1, SimTokens.chunkCount(3, 8));
    assertEquals(1, SimTokens.chunkCount(3, Integer.MAX_VALUE));
    assertEquals(String.join("", SimTokens.chunks(37, 4)), SimTokens.text(37));
  }

  @Test
  void promptTokensAreWhitespaceSeparatedWords() {
    assertEquals(0, SimTokens.countPromptTokens(""));
    assertEquals(0, SimTokens.countPromptTokens(" \n\t "));
    assertEquals(1, SimTokens.countPromptTokens("hello"));
    assertEquals(4, SimTokens.countPromptTokens("  Hello,  world!\nHow\tare"));
  }

  @Test
  void badArgumentsAreRejected() {
    assertThrows(IllegalArgumentException.class, () -> SimTokens.token(-1));
    assertThrows(IllegalArgumentException.class, () -> SimTokens.chunks(0, 1));
    assertThrows(IllegalArgumentException.class, () -> SimTokens.chunks(1, 0));
  }
}
