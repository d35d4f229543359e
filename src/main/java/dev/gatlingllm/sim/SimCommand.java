package dev.gatlingllm.sim;

import dev.gatlingllm.tool.HelpOption;
import dev.gatlingllm.tool.Tool;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The simulator's command line ({@code gatling-llm sim}, {@code sim.Main}): each flag sets the
 * {@link SimulatorConfig.Builder} when picocli meets it, in the order given, so that flags
 * after {@code --dialect} change its switches. Started, it serves until the process is killed
 * (or {@code stop} is counted down). Exit codes: 0 after {@code --help}, 1 when the port
 * cannot be bound, 2 for a bad flag (a {@code --tokenizer} that cannot be loaded included).
 */
@Command(name = "sim", sortOptions = false, usageHelpWidth = 100,
    description = {"An OpenAI-compatible server that imitates vLLM's timing and output, for "
        + "testing load generators. Runs until killed."})
public final class SimCommand implements Callable<Integer> {

  private static final Duration MAX_DELAY = Duration.ofHours(1);

  @Spec
  private CommandSpec spec;
  private final CountDownLatch stop;
  private final boolean standalone;
  private SimulatorConfig.Builder builder = SimulatorConfig.builder();

  /** A command that serves until the process is killed, alone in its JVM. */
  public SimCommand() {
    this.stop = new CountDownLatch(1);
    this.standalone = true;
  }

  /** A command that serves until {@code stop} is counted down, in a JVM shared with others. */
  SimCommand(CountDownLatch stop) {
    this.stop = stop;
    this.standalone = false;
  }

  /**
   * The configuration the flags give, without starting anything.
   *
   * @throws IllegalArgumentException naming the bad flag or value
   */
  public static SimulatorConfig parse(String... args) {
    SimCommand command = new SimCommand();
    try {
      new CommandLine(command).parseArgs(args);
    } catch (ParameterException e) {
      throw new IllegalArgumentException(Tool.message(e), e);
    }
    return command.builder.build();
  }

  /** The help, as {@code --help} prints it. */
  public static String usage() {
    return new CommandLine(new SimCommand()).getUsageMessage(CommandLine.Help.Ansi.OFF);
  }

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    SimulatorConfig config;
    try {
      config = builder.build();
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    if (standalone) {
      // Without a logging config on the class path logback prints Netty's DEBUG start-up
      // chatter; the standalone server should print its one line and then stay quiet.
      InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
    }
    Simulator simulator;
    try {
      simulator = Simulator.start(config);
    } catch (IllegalStateException e) {
      err.println("error: " + e.getMessage());
      err.flush();
      return 1;
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    try (simulator) {
      out.println("gatling-llm simulator listening on " + simulator.baseUrl()
          + " (model " + config.model()
          + (config.tokenizer() == null ? "" : ", tokenizer " + config.tokenizer()) + ")");
      out.flush();
      stop.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return 0;
  }

  @Mixin
  private HelpOption help;

  @Option(names = "--host", paramLabel = "HOST",
      description = "interface to bind (default 127.0.0.1)")
  void host(String value) {
    builder = builder.host(value);
  }

  @Option(names = "--port", paramLabel = "N", description = "port, 0 = any free port (default 0)")
  void port(String value) {
    builder = builder.port(integer("--port", value));
  }

  @Option(names = "--model", paramLabel = "NAME",
      description = "served model name (default sim-model)")
  void model(String value) {
    builder = builder.model(value);
  }

  @Option(names = "--served-model-name", paramLabel = "NAME[,NAME...]",
      description = "served model names, listed by /v1/models; the first is the one answers "
          + "carry (replaces --model)")
  void servedModelNames(String value) {
    builder = builder.models(List.of(value.split(",", -1)));
  }

  @Option(names = "--ttft-ms", paramLabel = "MS",
      description = "time to first token after admission (default 50)")
  void ttft(String value) {
    builder = builder.ttft(duration("--ttft-ms", value, 1_000_000));
  }

  @Option(names = "--prefill-us-per-token", paramLabel = "US",
      description = "extra TTFT per prompt token, microseconds (default 0)")
  void prefillPerToken(String value) {
    builder = builder.prefillPerToken(duration("--prefill-us-per-token", value, 1_000));
  }

  @Option(names = "--itl-ms", paramLabel = "MS",
      description = "time between consecutive output tokens (default 10)")
  void itl(String value) {
    builder = builder.itl(duration("--itl-ms", value, 1_000_000));
  }

  @Option(names = "--jitter", paramLabel = "F",
      description = "uniform relative jitter 0..1 on every delay (default 0)")
  void jitter(String value) {
    builder = builder.jitter(number("--jitter", value));
  }

  @Option(names = "--tokens-per-chunk", paramLabel = "K",
      description = "tokens per streamed chunk (default 1)")
  void tokensPerChunk(String value) {
    builder = builder.tokensPerChunk(integer("--tokens-per-chunk", value));
  }

  @Option(names = "--max-running", paramLabel = "N",
      description = "requests generating at once, others queue (default 256)")
  void maxRunning(String value) {
    builder = builder.maxRunning(integer("--max-running", value));
  }

  @Option(names = "--max-tokens", paramLabel = "N",
      description = "output tokens when a request sets none (default 16)")
  void maxTokens(String value) {
    builder = builder.defaultMaxTokens(integer("--max-tokens", value));
  }

  @Option(names = "--seed", paramLabel = "N", description = "seed of the jitter (default 0)")
  void seed(String value) {
    try {
      builder = builder.seed(Long.parseLong(value.trim()));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--seed must be an integer, got '" + value + "'");
    }
  }

  @Option(names = "--error-rate", paramLabel = "F",
      description = "fraction answered HTTP 500 (default 0)")
  void errorRate(String value) {
    builder = builder.errorRate(number("--error-rate", value));
  }

  @Option(names = "--disconnect-rate", paramLabel = "F",
      description = "fraction closed mid-stream (default 0)")
  void disconnectRate(String value) {
    builder = builder.disconnectRate(number("--disconnect-rate", value));
  }

  @Option(names = "--inband-error-rate", paramLabel = "F",
      description = "fraction ending with an in-band error event (default 0)")
  void inBandErrorRate(String value) {
    builder = builder.inBandErrorRate(number("--inband-error-rate", value));
  }

  @Option(names = "--stall-rate", paramLabel = "F",
      description = "fraction pausing mid-stream (default 0)")
  void stallRate(String value) {
    builder = builder.stallRate(number("--stall-rate", value));
  }

  @Option(names = "--stall-ms", paramLabel = "MS", description = "length of a pause (default 1000)")
  void stallDuration(String value) {
    builder = builder.stallDuration(duration("--stall-ms", value, 1_000_000));
  }

  @Option(names = "--startup-delay-ms", paramLabel = "MS", description = "wait before opening "
      + "the port, as a server loading its model (default 0; for bench sweep startup)")
  void startupDelay(String value) {
    builder = builder.startupDelay(duration("--startup-delay-ms", value, 1_000_000));
  }

  @Option(names = "--io-threads", paramLabel = "N", description = "event-loop threads (default 1)")
  void ioThreads(String value) {
    builder = builder.ioThreads(integer("--io-threads", value));
  }

  @Option(names = "--transport", paramLabel = "auto|nio|epoll",
      description = "network transport (default auto)")
  void transport(String value) {
    try {
      builder = builder.transport(
          SimulatorConfig.Transport.valueOf(value.trim().toUpperCase(Locale.ROOT)));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--transport must be one of auto, nio, epoll, got '"
          + value + "'");
    }
  }

  @Option(names = "--reasoning-tokens", paramLabel = "N", description = "first N output tokens "
      + "of a streamed chat answer are reasoning, not content (default 0)")
  void reasoningTokens(String value) {
    builder = builder.reasoningTokens(integer("--reasoning-tokens", value));
  }

  @Option(names = "--reasoning-field", paramLabel = "NAME",
      description = "reasoning_content (default) or reasoning")
  void reasoningField(String value) {
    builder = builder.reasoningField(value);
  }

  @Option(names = "--connection", paramLabel = "POLICY", description = "after a response: "
      + "keep-alive (default, as vLLM), close-after-response (as llama.cpp: chunked, Keep-Alive "
      + "header, closed after the last chunk without saying so) or close (Connection: close, "
      + "then closed)")
  void connection(String value) {
    builder = builder.connectionPolicy(switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "keep-alive" -> SimulatorConfig.ConnectionPolicy.KEEP_ALIVE;
      case "close-after-response" -> SimulatorConfig.ConnectionPolicy.CLOSE_AFTER_RESPONSE;
      case "close" -> SimulatorConfig.ConnectionPolicy.CONNECTION_CLOSE;
      default -> throw new IllegalArgumentException("--connection must be one of keep-alive, "
          + "close-after-response, close, got '" + value + "'");
    });
  }

  @Option(names = "--keep-alive-max", paramLabel = "N", description = "with keep-alive: say "
      + "Keep-Alive: timeout=5, max=N and close a connection after its N-th response (default "
      + "0: no limit, no header)")
  void keepAliveMax(String value) {
    builder = builder.keepAliveMax(integer("--keep-alive-max", value));
  }

  @Option(names = "--dialect", paramLabel = "vllm|llamacpp", description = "the server "
      + "imitated: vllm (default) or llamacpp (usage in the finish chunk, merged tokens, null or "
      + "missing role chunk, max_completion_tokens ignored, any model, invalid JSON answered "
      + "500, long prompts cut); give it first: flags after it change its switches")
  void dialect(String value) {
    builder = builder.dialect(switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "vllm" -> SimulatorConfig.Dialect.VLLM;
      case "llamacpp", "llama.cpp" -> SimulatorConfig.Dialect.LLAMACPP;
      default -> throw new IllegalArgumentException("--dialect must be one of vllm, llamacpp, "
          + "got '" + value + "'");
    });
  }

  @Option(names = "--context-tokens", paramLabel = "N", description = "slot context: where a "
      + "stream whose limit is ignored stops, what a long prompt is cut to (default 1024)")
  void contextTokens(String value) {
    builder = builder.contextTokens(integer("--context-tokens", value));
  }

  @Option(names = "--merged-token-rate", paramLabel = "F", description = "fraction of tokens "
      + "merged into the next event (default 0; llamacpp 0.01)")
  void mergedTokenRate(String value) {
    builder = builder.mergedTokenRate(number("--merged-token-rate", value));
  }

  @Option(names = "--missing-role-rate", paramLabel = "F", description = "fraction of chat "
      + "streams without a role chunk (default 0; llamacpp 0.05)")
  void missingRoleRate(String value) {
    builder = builder.missingRoleRate(number("--missing-role-rate", value));
  }

  @Option(names = "--chunk-log", description = "keep each streamed request's receive and chunk "
      + "write times, served (and cleared) by GET /debug/chunk-log")
  void chunkLog(boolean value) {
    builder = builder.chunkLog(value);
  }

  @Option(names = "--session-cache", description = "a prefix cache per conversation: a turn "
      + "with X-Session-ID whose history is that session's previous turn and its answer pays "
      + "the prefill (--prefill-us-per-token) of its new tokens only, as vLLM's prefix cache "
      + "makes it (default off)")
  void sessionCache(boolean value) {
    builder = builder.sessionCache(value);
  }

  @Option(names = "--tokenizer", paramLabel = "gpt2|PATH|MODEL-ID", description = "count "
      + "prompt tokens, usage.prompt_tokens and /tokenize ids with this tokenizer: gpt2 (the "
      + "shipped one), a tokenizer.json or its folder, or a Hugging Face model id; give the "
      + "client's, so that its prompt counts and the server's agree (default: "
      + "whitespace-separated words, which cost nothing)")
  void tokenizer(String value) {
    builder = builder.tokenizer(value);
  }

  private static int integer(String flag, String value) {
    try {
      return Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(flag + " must be an integer, got '" + value + "'");
    }
  }

  private static double number(String flag, String value) {
    double d;
    try {
      d = Double.parseDouble(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(flag + " must be a number, got '" + value + "'");
    }
    if (!Double.isFinite(d)) {
      throw new IllegalArgumentException(flag + " must be a finite number, got '" + value + "'");
    }
    return d;
  }

  /** A decimal amount of some unit ({@code nanosPerUnit} ns each) as a duration. */
  private static Duration duration(String flag, String value, long nanosPerUnit) {
    double units = number(flag, value);
    if (units < 0) {
      throw new IllegalArgumentException(flag + " must be >= 0, got '" + value + "'");
    }
    double nanos = units * nanosPerUnit;
    if (nanos > MAX_DELAY.toNanos()) {
      throw new IllegalArgumentException(flag + " must be at most one hour, got '" + value + "'");
    }
    return Duration.ofNanos(Math.round(nanos));
  }
}
