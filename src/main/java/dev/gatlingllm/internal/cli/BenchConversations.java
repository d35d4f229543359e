package dev.gatlingllm.internal.cli;

import dev.gatlingllm.action.Backends.Backend;
import dev.gatlingllm.action.ConversationBuilder;
import dev.gatlingllm.action.RequestFlags;
import dev.gatlingllm.dataset.Conversations;
import dev.gatlingllm.dataset.ShareGptConversations;
import dev.gatlingllm.dataset.SyntheticConversations;
import dev.gatlingllm.internal.flags.FlagValues;
import dev.gatlingllm.tokenizer.Tokenizer;
import io.gatling.javaapi.core.ActionBuilder;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code vllm-bench --multi-turn}: {@code --num-prompts} conversations instead of single
 * requests, each a virtual user that plays all its turns (the history with the server's real
 * answers, {@code X-Session-ID}, one LoRA module, the think time), checked as a whole when the
 * command line is read. The conversations arrive on the run's schedule ({@code --request-rate}
 * paces conversations, not turns) and hold one of {@code --multi-turn-concurrency} places
 * until their last turn. Synthetic turns come from the random dataset's flags, recorded ones
 * from a ShareGPT file. Immutable.
 */
public final class BenchConversations {

  /** The flags that only mean something with {@code --multi-turn}. */
  static final List<String> FLAGS = List.of("multi-turn-num-turns", "multi-turn-min-turns",
      "multi-turn-max-turns", "multi-turn-concurrency", "multi-turn-delay-ms",
      "multi-turn-prefix-global-ratio", "multi-turn-prefix-conversation-ratio",
      "per-turn-input-len");

  /** The flags that shape synthetic turns: a ShareGPT conversation keeps its own. */
  private static final List<String> SYNTHETIC_ONLY = List.of("multi-turn-num-turns",
      "multi-turn-min-turns", "multi-turn-max-turns", "multi-turn-prefix-global-ratio",
      "multi-turn-prefix-conversation-ratio", "per-turn-input-len");

  /** Random-dataset flags whose lengths a conversation's exact turns cannot honour. */
  private static final Map<String, String> NOT_WITH_TURNS = Map.of(
      "random-range-ratio", "every synthetic turn has exactly --per-turn-input-len tokens",
      "random-prefix-len", "use --multi-turn-prefix-global-ratio for a prefix shared by all"
          + " conversations");

  private static final int DEFAULT_INPUT_LEN = 1024;
  private static final int DEFAULT_OUTPUT_LEN = 128;

  private final String dataset;
  private final int count;
  private final int minTurns;
  private final int maxTurns;
  private final int perTurnInputLen;
  private final int outputLen;
  private final double globalRatio;
  private final double conversationRatio;
  private final Integer concurrency;
  private final long delayMs;
  private final long seed;
  private final FlagValues datasetFlags;

  private BenchConversations(BenchArgs args, FlagValues datasetFlags) {
    this.datasetFlags = datasetFlags;
    this.dataset = datasetFlags.value("dataset-name").orElseThrow();
    this.count = args.integer("num-prompts").orElseThrow();
    this.seed = args.integer("seed").orElseThrow();
    boolean range = args.has("multi-turn-min-turns") || args.has("multi-turn-max-turns");
    if (range && args.has("multi-turn-num-turns")) {
      throw new IllegalArgumentException("--multi-turn-num-turns and --multi-turn-min-turns/"
          + "--multi-turn-max-turns: give a fixed number of turns or a range, not both");
    }
    if (range) {
      this.minTurns = args.integer("multi-turn-min-turns").orElseThrow();
      this.maxTurns = args.integer("multi-turn-max-turns").orElseThrow();
      if (minTurns < 1 || maxTurns < minTurns) {
        throw new IllegalArgumentException("--multi-turn-min-turns " + minTurns
            + " --multi-turn-max-turns " + maxTurns + ": give both, with 1 <= min <= max");
      }
    } else {
      this.minTurns = args.integer("multi-turn-num-turns").orElseThrow();
      this.maxTurns = minTurns;
      if (minTurns < 1) {
        throw new IllegalArgumentException("--multi-turn-num-turns must be >= 1, got "
            + minTurns);
      }
    }
    int perTurn = args.integer("per-turn-input-len").orElseThrow();
    if (perTurn < 0) {
      throw new IllegalArgumentException("--per-turn-input-len must be >= 1 (or 0 for "
          + "--random-input-len), got " + perTurn);
    }
    this.perTurnInputLen = perTurn > 0 ? perTurn : lengthFlag("random-input-len",
        DEFAULT_INPUT_LEN);
    this.outputLen = lengthFlag("random-output-len", DEFAULT_OUTPUT_LEN);
    this.globalRatio = args.decimal("multi-turn-prefix-global-ratio").orElseThrow();
    this.conversationRatio = args.decimal("multi-turn-prefix-conversation-ratio").orElseThrow();
    if (!(globalRatio >= 0 && globalRatio < 1) || !(conversationRatio >= 0
        && conversationRatio < 1) || !(globalRatio + conversationRatio < 1)) {
      throw new IllegalArgumentException("--multi-turn-prefix-global-ratio " + globalRatio
          + " and --multi-turn-prefix-conversation-ratio " + conversationRatio + ": each must "
          + "be in [0, 1) and their sum below 1 (the rest of each message is its unique part)");
    }
    Integer inFlight = args.integer("multi-turn-concurrency")
        .or(() -> args.integer("max-concurrency")).orElse(null);
    if (inFlight != null && inFlight < 1) {
      throw new IllegalArgumentException("--multi-turn-concurrency must be >= 1, got "
          + inFlight);
    }
    this.concurrency = inFlight;
    this.delayMs = args.integer("multi-turn-delay-ms").orElseThrow();
    if (delayMs < 0) {
      throw new IllegalArgumentException("--multi-turn-delay-ms must be >= 0, got " + delayMs);
    }
  }

  /**
   * The conversations the command line asks for; empty without {@code --multi-turn}.
   *
   * @param datasetFlags the dataset flags as {@link BenchPlan} resolved them (defaults,
   *                     {@code --input-len}/{@code --output-len} mapped)
   * @throws IllegalArgumentException naming the flag that is wrong or does not apply
   */
  static Optional<BenchConversations> of(BenchArgs args, Backend backend,
      FlagValues datasetFlags) {
    if (!args.on("multi-turn")) {
      for (String flag : FLAGS) {
        if (args.has(flag)) {
          throw new IllegalArgumentException("--" + flag + " needs --multi-turn (it shapes the"
              + " conversations a multi-turn run sends)");
        }
      }
      return Optional.empty();
    }
    if (!backend.chatTemplate()) {
      throw new IllegalArgumentException("--multi-turn needs --backend openai-chat: every turn"
          + " sends the conversation's history as chat messages; got --backend "
          + backend.name());
    }
    String dataset = datasetFlags.value("dataset-name").orElseThrow();
    if (dataset.equals("sharegpt")) {
      for (String flag : SYNTHETIC_ONLY) {
        if (args.has(flag)) {
          throw new IllegalArgumentException("--" + flag + " shapes synthetic turns: with "
              + "--dataset-name sharegpt every conversation keeps its recorded turns and "
              + "lengths; drop it, or use --dataset-name random");
        }
      }
    } else if (dataset.equals("random")) {
      for (Map.Entry<String, String> e : NOT_WITH_TURNS.entrySet()) {
        if (args.has(e.getKey())) {
          throw new IllegalArgumentException("--" + e.getKey() + " does not apply to "
              + "--multi-turn: " + e.getValue());
        }
      }
    } else {
      throw new IllegalArgumentException("--multi-turn takes --dataset-name random (synthetic "
          + "turns) or sharegpt (every turn of its multi-turn conversations), got " + dataset);
    }
    return Optional.of(new BenchConversations(args, datasetFlags));
  }

  /** Samples the conversations (the ShareGPT file is read here). */
  public Conversations sample(Tokenizer tokenizer) {
    if (dataset.equals("sharegpt")) {
      ShareGptConversations file = ShareGptConversations.of(Path.of(datasetFlags.value(
          "dataset-path").orElseThrow())).count(count).seed(seed);
      if (datasetFlags.has("sharegpt-output-len")) {
        file = file.outputLen(datasetFlags.integer("sharegpt-output-len").orElseThrow());
      }
      return file.sample(tokenizer);
    }
    return SyntheticConversations.builder().count(count).turns(minTurns, maxTurns)
        .perTurnInputLen(perTurnInputLen).outputLen(outputLen)
        .prefixRatios(globalRatio, conversationRatio).seed(seed).sample(tokenizer);
  }

  /**
   * The step every user runs: its fed conversation, turn after turn, as the drop-in's chat
   * request of {@code flags} sends them.
   */
  ActionBuilder step(RequestFlags flags) {
    ConversationBuilder step = ConversationBuilder.of(flags)
        .thinkTime(Duration.ofMillis(delayMs));
    // all may run at once: no place to wait for
    return concurrency == null || concurrency >= count ? step
        : step.maxConcurrentConversations(concurrency);
  }

  /** The console lines that say what the run sends, after vLLM's traffic lines. */
  public void describe(PrintStream out) {
    out.println("Multi-turn: " + count + " conversations (" + (dataset.equals("sharegpt")
        ? "ShareGPT turns" : (minTurns == maxTurns ? minTurns : minTurns + "-" + maxTurns)
            + " turns of " + perTurnInputLen + " input and " + outputLen + " output tokens")
        + "), conversation concurrency " + (concurrency == null ? "None" : concurrency)
        + ", delay between turns " + delayMs + " ms");
  }

  private int lengthFlag(String flag, int vllmDefault) {
    if (!datasetFlags.has(flag)) {
      return vllmDefault;
    }
    int n = datasetFlags.integer(flag).orElseThrow();
    if (n < 1) {
      throw new IllegalArgumentException("--" + flag + " must be >= 1 with --multi-turn, got "
          + n);
    }
    return n;
  }
}
