package dev.gatlingllm.dataset;

import dev.gatlingllm.tokenizer.Tokenizer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * Synthetic conversations from the random dataset's tokens, as {@code vllm-bench}'s
 * {@code --multi-turn} builds them: every user turn has exactly {@link #perTurnInputLen}
 * tokens and asks for exactly {@link #outputLen} tokens back; a conversation has a fixed
 * number of turns or a number drawn uniformly in {@code [min, max]}.
 *
 * <p>Each user message is a global prefix (the same for every turn of every conversation),
 * then a prefix of its conversation (the same for all its turns), then a unique suffix; their
 * lengths are {@code floor(L·global)}, {@code floor(L·conversation)} and the rest of
 * {@code L}, so the two ratios must add up to less than 1. With both at 0 (the default)
 * every message is unique. Immutable; {@link #sample} draws the conversations.
 */
public final class SyntheticConversations {

  public static final int DEFAULT_TURNS = 3;
  public static final int DEFAULT_PER_TURN_INPUT_LEN = 128;
  public static final int DEFAULT_OUTPUT_LEN = 128;
  public static final int DEFAULT_COUNT = 100;

  private final int count;
  private final int minTurns;
  private final int maxTurns;
  private final int perTurnInputLen;
  private final int outputLen;
  private final double globalPrefixRatio;
  private final double conversationPrefixRatio;
  private final long seed;
  private final String idPrefix;

  SyntheticConversations() {
    this(DEFAULT_COUNT, DEFAULT_TURNS, DEFAULT_TURNS, DEFAULT_PER_TURN_INPUT_LEN,
        DEFAULT_OUTPUT_LEN, 0, 0, 0, "conv-");
  }

  private SyntheticConversations(int count, int minTurns, int maxTurns, int perTurnInputLen,
      int outputLen, double globalPrefixRatio, double conversationPrefixRatio, long seed,
      String idPrefix) {
    this.count = count;
    this.minTurns = minTurns;
    this.maxTurns = maxTurns;
    this.perTurnInputLen = perTurnInputLen;
    this.outputLen = outputLen;
    this.globalPrefixRatio = globalPrefixRatio;
    this.conversationPrefixRatio = conversationPrefixRatio;
    this.seed = seed;
    this.idPrefix = idPrefix;
  }

  /** The builder for {@code LlmDsl.conversations()}. */
  public static SyntheticConversations builder() {
    return new SyntheticConversations();
  }

  /** Conversations to sample (default 100); vLLM's {@code --num-prompts} in multi-turn mode. */
  public SyntheticConversations count(int conversations) {
    atLeast("count", conversations, 1);
    return new SyntheticConversations(conversations, minTurns, maxTurns, perTurnInputLen,
        outputLen, globalPrefixRatio, conversationPrefixRatio, seed, idPrefix);
  }

  /** Turns of every conversation (default 3, {@code --multi-turn-num-turns}). */
  public SyntheticConversations turns(int turns) {
    return turns(turns, turns);
  }

  /**
   * Turns of each conversation drawn uniformly in {@code [min, max]}
   * ({@code --multi-turn-min-turns} / {@code --multi-turn-max-turns}).
   */
  public SyntheticConversations turns(int min, int max) {
    atLeast("min turns", min, 1);
    if (max < min) {
      throw new IllegalArgumentException("max turns must be >= min turns (" + min + "), got "
          + max);
    }
    return new SyntheticConversations(count, min, max, perTurnInputLen, outputLen,
        globalPrefixRatio, conversationPrefixRatio, seed, idPrefix);
  }

  /** Tokens of each user message (default 128, {@code --per-turn-input-len}). */
  public SyntheticConversations perTurnInputLen(int tokens) {
    atLeast("perTurnInputLen", tokens, 1);
    return new SyntheticConversations(count, minTurns, maxTurns, tokens, outputLen,
        globalPrefixRatio, conversationPrefixRatio, seed, idPrefix);
  }

  /** Tokens of each answer (default 128): sent as {@code max_tokens} and {@code min_tokens}. */
  public SyntheticConversations outputLen(int tokens) {
    atLeast("outputLen", tokens, 1);
    return new SyntheticConversations(count, minTurns, maxTurns, perTurnInputLen, tokens,
        globalPrefixRatio, conversationPrefixRatio, seed, idPrefix);
  }

  /**
   * Shares of each user message taken by the global prefix and by the conversation's prefix
   * ({@code --multi-turn-prefix-global-ratio}, {@code --multi-turn-prefix-conversation-ratio});
   * each in [0, 1), their sum below 1 so every message keeps a unique suffix.
   */
  public SyntheticConversations prefixRatios(double global, double conversation) {
    if (!(global >= 0 && global < 1) || !(conversation >= 0 && conversation < 1)
        || !(global + conversation < 1)) {
      throw new IllegalArgumentException("prefix ratios must each be in [0, 1) and add up to"
          + " less than 1, got global " + global + " and conversation " + conversation);
    }
    return new SyntheticConversations(count, minTurns, maxTurns, perTurnInputLen, outputLen,
        global, conversation, seed, idPrefix);
  }

  /** Seed of the turn counts and tokens (default 0). */
  public SyntheticConversations seed(long value) {
    return new SyntheticConversations(count, minTurns, maxTurns, perTurnInputLen, outputLen,
        globalPrefixRatio, conversationPrefixRatio, value, idPrefix);
  }

  /** Prefix of the conversation ids (default {@code conv-}): ids are the prefix and 0, 1, ... */
  public SyntheticConversations idPrefix(String prefix) {
    if (prefix == null) {
      throw new IllegalArgumentException("idPrefix must not be null");
    }
    return new SyntheticConversations(count, minTurns, maxTurns, perTurnInputLen, outputLen,
        globalPrefixRatio, conversationPrefixRatio, seed, prefix);
  }

  /**
   * Draws the conversations: turn counts from the seed, then each message's tokens, brought to
   * exactly {@link #perTurnInputLen} tokens of {@code tokenizer} (without special tokens: the
   * message as the server's chat template receives it). A message that ten adjustments do
   * not bring there keeps its real length as {@code promptLen}, never the target.
   */
  public Conversations sample(Tokenizer tokenizer) {
    int globalLen = (int) Math.floor(perTurnInputLen * globalPrefixRatio);
    int conversationLen = (int) Math.floor(perTurnInputLen * conversationPrefixRatio);
    int uniqueLen = perTurnInputLen - globalLen - conversationLen;
    SplittableRandom lengths = Sampling.rng(seed, Sampling.Stream.LENGTHS);
    int[] turnCounts = new int[count];
    for (int i = 0; i < count; i++) {
      turnCounts[i] = lengths.nextInt(minTurns, maxTurns + 1);
    }
    int[] regular = tokenizer.regularTokenIds();
    int[] global = TokenPrompts.random(regular, globalLen,
        Sampling.rng(seed, Sampling.Stream.TOKENS));
    List<Conversation> conversations = IntStream.range(0, count).parallel().mapToObj(i -> {
      SplittableRandom rng = Sampling.rng(seed, Sampling.Stream.TOKENS, i);
      int[] own = TokenPrompts.random(regular, conversationLen, rng);
      List<Conversation.Turn> turns = new ArrayList<>(turnCounts[i]);
      for (int t = 0; t < turnCounts[i]; t++) {
        int[] ids = new int[perTurnInputLen];
        System.arraycopy(global, 0, ids, 0, globalLen);
        System.arraycopy(own, 0, ids, globalLen, conversationLen);
        System.arraycopy(TokenPrompts.random(regular, uniqueLen, rng), 0, ids,
            globalLen + conversationLen, uniqueLen);
        TokenPrompts.Prompt p = TokenPrompts.exactLength(tokenizer, ids, perTurnInputLen,
            regular, rng);
        turns.add(new Conversation.Turn(p.text(), p.tokens(), outputLen));
      }
      return new Conversation(idPrefix + i, turns);
    }).toList();
    return new Conversations("random", conversations);
  }

  private static void atLeast(String what, int value, int min) {
    if (value < min) {
      throw new IllegalArgumentException(what + " must be >= " + min + ", got " + value);
    }
  }

  @Override
  public String toString() {
    return "conversations{count=" + count + ", turns=" + minTurns + ".." + maxTurns
        + ", perTurnInputLen=" + perTurnInputLen + ", outputLen=" + outputLen + ", prefix ratios="
        + globalPrefixRatio + "/" + conversationPrefixRatio + ", seed=" + seed + "}";
  }
}
