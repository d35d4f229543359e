package dev.gatlingllm.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.sim.SimTokens;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import dev.gatlingllm.tokenizer.Tokenizer;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Random and prefix_repetition prompts re-aligned through the simulator's /tokenize: their
 * prompt_len is the server's count (whitespace words), not GPT-2's.
 */
class ServerAlignmentTest {

  private static Simulator sim;
  private static Tokenizer gpt2;
  private static Tokenizer realigned;

  @BeforeAll
  static void start() {
    sim = Simulator.start(SimulatorConfig.builder().build());
    gpt2 = Tokenizer.gpt2();
    realigned = gpt2.realignedBy(Tokenizer.fromServer(sim.baseUrl(), "sim-model", Map.of(),
        false));
  }

  @AfterAll
  static void stop() {
    realigned.close();
    sim.close();
  }

  @Test
  void randomPromptsHaveTheServersExactLength() {
    RandomDataset random = Datasets.random().inputLen(37).outputLen(4).rangeRatio(0.5)
        .numPrompts(24).seed(7);
    Samples local = random.sample(gpt2);
    Samples aligned = random.sample(realigned);
    long localWords = 0;
    for (int i = 0; i < aligned.size(); i++) {
      SampleRequest request = aligned.requests().get(i);
      // the length drawn for request i is the same with or without the server
      assertEquals(local.requests().get(i).promptLen(), request.promptLen());
      assertEquals(request.promptLen(), SimTokens.countPromptTokens(request.prompt()),
          request.prompt());
      localWords += SimTokens.countPromptTokens(local.requests().get(i).prompt());
    }
    // GPT-2's tokens are not whitespace words: without the server stage the lengths differ
    assertNotEquals(local.totalPromptTokens(), localWords);
    assertEquals(local.totalPromptTokens(), aligned.totalPromptTokens());
  }

  @Test
  void prefixRepetitionPromptsHaveTheServersLengthAndKeepTheirSharedPrefixes() {
    Samples aligned = Datasets.prefixRepetition().prefixLen(20).suffixLen(9).numPrefixes(3)
        .outputLen(4).numPrompts(12).seed(3).sample(realigned);
    Map<Object, String> prefixOf = new HashMap<>();
    for (SampleRequest request : aligned.requests()) {
      assertEquals(29, request.promptLen());
      assertEquals(29, SimTokens.countPromptTokens(request.prompt()), request.prompt());
      // the server's ids of its first words (the text may be the server's spelling of
      // them): a cut or top-up happens at the end, so prompts of one prefix share them
      String head = java.util.Arrays.toString(java.util.Arrays.copyOf(
          SimTokens.tokenIds(request.prompt()), 3));
      Object owner = request.extras().get(PrefixRepetitionDataset.PREFIX_ID);
      String seen = prefixOf.putIfAbsent(owner, head);
      assertTrue(seen == null || seen.equals(head), seen + " vs " + head);
    }
    assertEquals(3, prefixOf.size());
  }

  @Test
  void warmPromptsOfTheCacheHitFractionAreReAlignedToo() {
    Samples aligned = RandomCacheHit.of(Datasets.random().inputLen(30).outputLen(4)
        .numPrompts(10).seed(2), 0.5, 0.5).sample(realigned);
    for (SampleRequest request : aligned.requests()) {
      assertEquals(30, request.promptLen());
      assertEquals(30, SimTokens.countPromptTokens(request.prompt()), request.prompt());
    }
  }

  @Test
  void aPromptTooLongOrTooShortIsCutOrToppedUpWithItsOwnWords() {
    Tokenizer server = realigned.serverAlignment().orElseThrow();
    TokenPrompts.Prompt cut = ServerAlignment.exactLength(server, "a b c d e f", 4);
    assertEquals(4, cut.tokens());
    assertEquals(SimTokens.detokenize(SimTokens.tokenIds("a b c d")), cut.text());

    TokenPrompts.Prompt topped = ServerAlignment.exactLength(server, "x y", 5);
    assertEquals(5, topped.tokens());
    assertEquals(SimTokens.detokenize(SimTokens.tokenIds("x y x y x")), topped.text());
  }
}
