package dev.gatlingllm.internal.cli;

import dev.gatlingllm.action.Backends.Backend;
import dev.gatlingllm.action.Backends.Takes;
import dev.gatlingllm.internal.flags.BenchFlags;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The checks of a {@code bench serve} command line that need only its flags: one run or
 * several, flags that belong to sweeps, flags a backend does not take, the profiler's,
 * LoRA's, self-timed and multimodal datasets'. {@link BenchPlan} builds the run and calls
 * these first, so that a mistake is said in the user's flags before anything is built,
 * loaded or sent; the launcher asks {@link #numRuns} and {@link #sweepFlag} to choose its
 * route.
 */
public final class BenchChecks {

  /** How {@code --lora-assignment} may give the modules out, as vLLM's choices list them. */
  static final List<String> LORA_ASSIGNMENTS = List.of("random", "round-robin");

  private BenchChecks() {}

  /**
   * One Gatling run is one benchmark run: {@code --num-runs} above 1 and the one-command sweep
   * flags need the launcher, which forks a Gatling run per run.
   */
  static void checkOneRun(BenchArgs args) {
    if (numRuns(args) > 1) {
      throw new IllegalArgumentException("--num-runs " + numRuns(args) + " runs the benchmark "
          + "as that many Gatling runs, each in a JVM of its own, which one Gatling run cannot "
          + "do: use `gatling-llm bench serve ... --num-runs " + numRuns(args) + "` (or "
          + "dev.gatlingllm.sweep.Sweep.repeat from Java)");
    }
    sweepFlag(args).ifPresent(flag -> {
      throw new IllegalArgumentException("--" + flag + " runs a sweep of Gatling runs, each "
          + "in a JVM of its own, which one Gatling run cannot do: use `gatling-llm bench "
          + "serve ... --" + flag + " ...` (or gatling-llm bench sweep serve)");
    });
    checkSweepOnly(args);
  }

  /**
   * {@code vllm-bench}'s flags that act on its one-command sweeps alone: the prefix-cache
   * reset before each point, the percentiles of the sweep's summary table.
   */
  public static final List<String> SWEEP_ONLY_FLAGS = List.of("reset-prefix-cache",
      "sweep-summary-percentiles");

  /**
   * Refuses a {@link #SWEEP_ONLY_FLAGS} flag without a one-command sweep: it would do nothing.
   */
  public static void checkSweepOnly(BenchArgs args) {
    if (sweepFlag(args).isPresent()) {
      return;
    }
    SWEEP_ONLY_FLAGS.stream().filter(args::has).findFirst().ifPresent(flag -> {
      throw new IllegalArgumentException("--" + flag + " acts on a one-command sweep's points:"
          + " give --sweep-max-concurrency or --sweep-request-rate with it (`gatling-llm bench "
          + "serve`)");
    });
  }

  /** {@code vllm-bench}'s one-command sweep flags, which the launcher runs as a sweep. */
  public static final List<String> SWEEP_FLAGS = List.of("sweep-max-concurrency",
      "sweep-request-rate", "sweep-num-prompts-factor");

  /** The first one-command sweep flag given, if any. */
  public static Optional<String> sweepFlag(BenchArgs args) {
    return SWEEP_FLAGS.stream().filter(args::has).findFirst();
  }

  /**
   * {@code --num-runs}: how many times the benchmark is run (1 by default).
   *
   * @throws IllegalArgumentException for a value below 1
   */
  public static int numRuns(BenchArgs args) {
    int n = args.integer("num-runs").orElse(1);
    if (n < 1) {
      throw new IllegalArgumentException("--num-runs must be at least 1, got " + n);
    }
    return n;
  }

  /** vLLM's name of the one dataset that carries its own timestamps. */
  static final String TIMED_TRACE = "timed_trace";

  static void checkSelfTimed(BenchArgs args, String datasetName) {
    if (args.on("self-timed") && args.on("no-self-timed")) {
      throw new IllegalArgumentException("--self-timed and --no-self-timed: give one of them");
    }
    if ((args.on("self-timed") || args.on("no-self-timed")) && !TIMED_TRACE.equals(datasetName)) {
      throw new IllegalArgumentException("--self-timed/--no-self-timed is only supported with "
          + "--dataset-name=timed_trace (the only dataset with timestamps), as in vLLM");
    }
  }

  /** The datasets whose requests carry media that {@code --enable-multimodal-chat} puts in. */
  static final List<String> MULTIMODAL_CHAT_DATASETS = List.of("custom_image", "custom_audio",
      "random-mm");

  /**
   * vLLM's {@code --enable-multimodal-chat} makes each request one user chat message, its
   * text part then its media parts: how {@code openai-chat} sends a media dataset's requests
   * anyway, so it is accepted where that message is what goes out, refused elsewhere.
   */
  static void checkMultimodalChat(BenchArgs args, Backend backend, String dataset) {
    if (!args.on("enable-multimodal-chat")) {
      return;
    }
    if (!MULTIMODAL_CHAT_DATASETS.contains(dataset)) {
      throw new IllegalArgumentException("--enable-multimodal-chat with --dataset-name "
          + dataset + ": it makes each prompt and its images or audio one chat message, for "
          + "the datasets with media (" + String.join(", ", MULTIMODAL_CHAT_DATASETS) + ")");
    }
    if (!backend.chatTemplate()) {
      throw new IllegalArgumentException("--enable-multimodal-chat with --backend "
          + backend.name() + ": the multimodal chat message is a chat request's; use "
          + "--backend openai-chat");
    }
  }

  static void checkLora(BenchArgs args) {
    String assignment = args.value("lora-assignment").orElseThrow().strip();
    if (!LORA_ASSIGNMENTS.contains(assignment)) {
      throw new IllegalArgumentException("--lora-assignment: invalid choice '" + assignment
          + "' (choose from " + String.join(", ",
              LORA_ASSIGNMENTS.stream().map(n -> "'" + n + "'").toList()) + ")");
    }
  }

  /**
   * {@code --cancel-fraction} needs one point to cancel at, and a point needs the fraction:
   * alone, either would be silently ignored.
   */
  static void checkCancel(BenchArgs args) {
    boolean tokens = args.has("cancel-after-tokens");
    boolean millis = args.has("cancel-after-ms");
    if (!args.has("cancel-fraction")) {
      if (tokens || millis) {
        throw new IllegalArgumentException("--cancel-after-" + (tokens ? "tokens" : "ms")
            + " says when the cancelled requests are cancelled: give --cancel-fraction too");
      }
      return;
    }
    double fraction = args.decimal("cancel-fraction").orElseThrow();
    if (!(fraction >= 0 && fraction <= 1)) {
      throw new IllegalArgumentException("--cancel-fraction is a share from 0 to 1, got "
          + fraction);
    }
    if (tokens == millis) {
      throw new IllegalArgumentException("--cancel-fraction needs one of --cancel-after-tokens "
          + "N and --cancel-after-ms T" + (tokens ? ", not both" : ""));
    }
    if (tokens && args.integer("cancel-after-tokens").orElseThrow() < 1) {
      throw new IllegalArgumentException("--cancel-after-tokens must be at least 1, got "
          + args.integer("cancel-after-tokens").orElseThrow());
    }
    if (millis && args.integer("cancel-after-ms").orElseThrow() < 0) {
      throw new IllegalArgumentException("--cancel-after-ms must be 0 or more, got "
          + args.integer("cancel-after-ms").orElseThrow());
    }
  }

  /** Flags vLLM refuses, or cannot send, with this backend. */
  static void checkBackendFlags(BenchArgs args, Backend backend) {
    if (args.has("logprobs") && !backend.takes(Takes.LOGPROBS)) {
      throw new IllegalArgumentException("--logprobs is not supported with --backend "
          + backend.name() + ": " + BenchFlags.find("--logprobs").orElseThrow().note());
    }
    List<String> sampling = Takes.SAMPLING.flags().stream().filter(args::has).toList();
    if (!sampling.isEmpty() && !backend.takes(Takes.SAMPLING)
        && !backend.ignores(Takes.SAMPLING)) {
      throw new IllegalArgumentException("--" + String.join(", --", sampling) + " with --backend "
          + backend.name() + ": sampling parameters are only supported by openai-compatible "
          + "backends (completions and chat), as vLLM refuses them");
    }
    if (args.on("prompt-token-ids") && !backend.takes(Takes.PROMPT_TOKEN_IDS)) {
      throw new IllegalArgumentException("--prompt-token-ids is not supported with --backend "
          + backend.name() + ": only a completions request (--backend openai or vllm) takes "
          + "its prompt as token ids; " + (backend.pooling() ? "pooling requests send text "
          + "or media as their input" : "chat, Responses and audio requests send messages or "
          + "a clip, which the server renders and tokenizes itself"));
    }
    if (args.on("prompt-token-ids") && args.on("skip-tokenizer-init")) {
      throw new IllegalArgumentException("--prompt-token-ids with --skip-tokenizer-init: the "
          + "token ids come from the model's tokenizer, which --skip-tokenizer-init does not "
          + "load; give one of them");
    }
    if (args.has("lora-modules") && !backend.takes(Takes.MODEL_PER_REQUEST)) {
      throw new IllegalArgumentException("--lora-modules is not supported with --backend "
          + backend.name() + ": " + BenchFlags.find("--lora-modules").orElseThrow().note());
    }
  }

  /** vllm-bench's rules for the batch-threshold profiling flags. */
  static void checkProfileFlags(BenchArgs args) {
    if (args.has("profile-batch-threshold") && !args.on("profile")) {
      throw new IllegalArgumentException("--profile-batch-threshold requires --profile");
    }
    if (args.has("profile-batch-threshold")
        && args.integer("profile-batch-threshold").orElseThrow() < 0) {
      throw new IllegalArgumentException("--profile-batch-threshold must be >= 0 (requests "
          + "running on the server), got " + args.integer("profile-batch-threshold")
          .orElseThrow());
    }
    double seconds = args.decimal("profile-duration").orElseThrow();
    if (!(seconds > 0) || Double.isInfinite(seconds)) {
      throw new IllegalArgumentException("--profile-duration must be a positive number of "
          + "seconds, got " + args.value("profile-duration").orElseThrow());
    }
    // vllm-bench lets its default through alone, as a pasted default-valued flag
    double byDefault = (Double) BenchFlags.defaultOf("profile-duration");
    if (seconds != byDefault && !args.has("profile-batch-threshold")) {
      throw new IllegalArgumentException("--profile-duration requires "
          + "--profile-batch-threshold: without it, --profile profiles the whole measured run");
    }
  }

  /** Runs a DSL call, naming the flag in its error message. */
  static <T> T flagged(String flag, Supplier<T> call) {
    try {
      return call.get();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(inFlagWords(flag, e.getMessage()), e);
    }
  }

  /**
   * A DSL method's refusal as the flag's: {@code "topP must be in (0, 1], got 1.5"} from
   * {@code --top-p} reads {@code "--top-p must be in (0, 1], got 1.5"}; any other message
   * is prefixed with the flag.
   */
  static String inFlagWords(String flag, String message) {
    String dslName = camel(flag);
    if (message != null && message.startsWith(dslName + " ")) {
      return "--" + flag + message.substring(dslName.length());
    }
    return "--" + flag + ": " + message;
  }

  /** {@code top-p} → {@code topP}: the DSL method a flag maps to, by the naming rule. */
  private static String camel(String flag) {
    StringBuilder b = new StringBuilder(flag.length());
    boolean upper = false;
    for (char c : flag.toCharArray()) {
      if (c == '-' || c == '_') {
        upper = true;
      } else {
        b.append(upper ? Character.toUpperCase(c) : c);
        upper = false;
      }
    }
    return b.toString();
  }
}
