package dev.gatlingllm.internal.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.dataset.Conversation;
import dev.gatlingllm.dataset.Conversations;
import dev.gatlingllm.dataset.Samples;
import dev.gatlingllm.tokenizer.Tokenizer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** vllm-bench's {@code --multi-turn} flags: what they sample, and every refusal's message. */
class BenchConversationsTest {

  private static final String CHAT = "--backend openai-chat --model m --tokenizer gpt2 "
      + "--seed 4 ";
  private static final String SHAREGPT = "--dataset-name sharegpt --dataset-path "
      + "datasets/sharegpt/sharegpt_sample.json ";

  private static Tokenizer gpt2;

  @BeforeAll
  static void load() {
    gpt2 = Tokenizer.gpt2();
  }

  @AfterAll
  static void close() {
    gpt2.close();
  }

  private static BenchPlan plan(String line) {
    return BenchPlan.of(BenchArgs.parse(CommandLine.split(line)));
  }

  private static String error(String line) {
    return assertThrows(IllegalArgumentException.class, () -> plan(line)).getMessage();
  }

  private static List<Conversation> sampled(String line) {
    Samples samples = plan(line).sample(gpt2);
    return samples.records().stream()
        .map(r -> (Conversation) r.get(Conversations.CONVERSATION)).toList();
  }

  @Test
  void numPromptsCountsConversationsOfTheGivenTurnsAndExactLengths() {
    List<Conversation> talks = sampled(CHAT + "--multi-turn --multi-turn-num-turns 4 "
        + "--per-turn-input-len 20 --random-output-len 7 --num-prompts 5");
    assertEquals(5, talks.size());
    for (Conversation c : talks) {
      assertEquals(4, c.turns().size());
      for (Conversation.Turn t : c.turns()) {
        assertEquals(20, t.promptLen());
        assertEquals(20, gpt2.count(t.prompt()), "the turn's real length");
        assertEquals(7, t.outputLen());
      }
    }
    assertEquals(Set.of("conv-0", "conv-1", "conv-2", "conv-3", "conv-4"),
        talks.stream().map(Conversation::id).collect(Collectors.toSet()));
  }

  @Test
  void withoutPerTurnLengthsTheRandomLengthsAndVllmsThreeTurnsApply() {
    List<Conversation> talks = sampled(CHAT + "--multi-turn --input-len 9 --output-len 3 "
        + "--num-prompts 2");
    assertEquals(2, talks.size());
    for (Conversation c : talks) {
      assertEquals(3, c.turns().size(), "--multi-turn-num-turns defaults to 3");
      assertEquals(9, c.turns().get(0).promptLen(), "--input-len sets random_input_len");
      assertEquals(3, c.turns().get(2).outputLen());
    }
  }

  @Test
  void aTurnRangeDrawsCountsWithinItAndPrefixRatiosShareTheMessageStarts() {
    List<Conversation> talks = sampled(CHAT + "--multi-turn --multi-turn-min-turns 2 "
        + "--multi-turn-max-turns 4 --per-turn-input-len 40 --random-output-len 2 "
        + "--multi-turn-prefix-global-ratio 0.25 --multi-turn-prefix-conversation-ratio 0.5 "
        + "--num-prompts 30");
    Set<Integer> counts = talks.stream().map(c -> c.turns().size()).collect(Collectors.toSet());
    assertEquals(Set.of(2, 3, 4), counts, "30 draws in [2, 4] hit each count");
    // 10 global tokens, 20 of the conversation: the first 30 tokens' text is shared within
    // a conversation; at least the first few characters across all conversations
    String a = talks.get(0).turns().get(0).prompt();
    String b = talks.get(0).turns().get(1).prompt();
    String other = talks.get(1).turns().get(0).prompt();
    assertTrue(commonPrefix(a, b) > commonPrefix(a, other), a + " | " + b + " | " + other);
    assertTrue(commonPrefix(a, other) > 0, "the global prefix: " + a + " | " + other);
  }

  @Test
  void shareGptConversationsKeepTheirRecordedTurns() {
    List<Conversation> talks = sampled(CHAT + SHAREGPT + "--multi-turn --num-prompts 3");
    assertTrue(talks.size() >= 1 && talks.size() <= 3, talks.toString());
    for (Conversation c : talks) {
      assertTrue(c.turns().size() >= 2, "only entries with two turns or more: " + c);
      assertTrue(c.id().startsWith("sharegpt-"), c.id());
    }
  }

  @Test
  void theStepAndConsoleLineSayWhatIsSent() {
    BenchPlan plan = plan(CHAT + "--multi-turn --multi-turn-min-turns 2 "
        + "--multi-turn-max-turns 5 --per-turn-input-len 64 --random-output-len 16 "
        + "--num-prompts 40 --max-concurrency 8 --multi-turn-delay-ms 250");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    plan.conversations().orElseThrow()
        .describe(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    assertEquals("Multi-turn: 40 conversations (2-5 turns of 64 input and 16 output tokens), "
        + "conversation concurrency 8, delay between turns 250 ms\n",
        bytes.toString(StandardCharsets.UTF_8), "--max-concurrency is the default");
    assertTrue(plan(CHAT + "--num-prompts 3").conversations().isEmpty());
  }

  @Test
  void everyWrongFlagIsRefusedWithOneMessageNamingIt() {
    Map<String, String> refusals = Map.ofEntries(
        Map.entry("--multi-turn-num-turns 4", "--multi-turn-num-turns needs --multi-turn (it "
            + "shapes the conversations a multi-turn run sends)"),
        Map.entry("--per-turn-input-len 4", "--per-turn-input-len needs --multi-turn (it "
            + "shapes the conversations a multi-turn run sends)"),
        Map.entry("--multi-turn --multi-turn-num-turns 0",
            "--multi-turn-num-turns must be >= 1, got 0"),
        Map.entry("--multi-turn --multi-turn-min-turns 3",
            "--multi-turn-min-turns 3 --multi-turn-max-turns 0: give both, with 1 <= min <= max"),
        Map.entry("--multi-turn --multi-turn-min-turns 5 --multi-turn-max-turns 2",
            "--multi-turn-min-turns 5 --multi-turn-max-turns 2: give both, with 1 <= min <= max"),
        Map.entry("--multi-turn --multi-turn-num-turns 3 --multi-turn-max-turns 4",
            "--multi-turn-num-turns and --multi-turn-min-turns/--multi-turn-max-turns: give a "
                + "fixed number of turns or a range, not both"),
        Map.entry("--multi-turn --multi-turn-prefix-global-ratio 0.6 "
            + "--multi-turn-prefix-conversation-ratio 0.4",
            "--multi-turn-prefix-global-ratio 0.6 and --multi-turn-prefix-conversation-ratio "
                + "0.4: each must be in [0, 1) and their sum below 1 (the rest of each message "
                + "is its unique part)"),
        Map.entry("--multi-turn --multi-turn-prefix-global-ratio -0.1",
            "--multi-turn-prefix-global-ratio -0.1 and --multi-turn-prefix-conversation-ratio "
                + "0.0: each must be in [0, 1) and their sum below 1 (the rest of each message "
                + "is its unique part)"),
        Map.entry("--multi-turn --multi-turn-concurrency 0",
            "--multi-turn-concurrency must be >= 1, got 0"),
        Map.entry("--multi-turn --multi-turn-delay-ms -5",
            "--multi-turn-delay-ms must be >= 0, got -5"),
        Map.entry("--multi-turn --per-turn-input-len -1",
            "--per-turn-input-len must be >= 1 (or 0 for --random-input-len), got -1"),
        Map.entry("--multi-turn --random-range-ratio 0.5", "--random-range-ratio does not "
            + "apply to --multi-turn: every synthetic turn has exactly --per-turn-input-len "
            + "tokens"),
        Map.entry("--multi-turn --dataset-name sonnet --dataset-path x.txt",
            "--multi-turn takes --dataset-name random (synthetic turns) or sharegpt (every "
                + "turn of its multi-turn conversations), got sonnet"),
        Map.entry(SHAREGPT + "--multi-turn --multi-turn-num-turns 4", "--multi-turn-num-turns "
            + "shapes synthetic turns: with --dataset-name sharegpt every conversation keeps "
            + "its recorded turns and lengths; drop it, or use --dataset-name random"));
    refusals.forEach((flags, message) -> assertEquals(message, error(CHAT + flags), flags));
    assertEquals("--multi-turn needs --backend openai-chat: every turn sends the "
        + "conversation's history as chat messages; got --backend openai",
        error("--model m --multi-turn"));
  }

  private static int commonPrefix(String a, String b) {
    int n = 0;
    while (n < a.length() && n < b.length() && a.charAt(n) == b.charAt(n)) {
      n++;
    }
    return n;
  }
}
