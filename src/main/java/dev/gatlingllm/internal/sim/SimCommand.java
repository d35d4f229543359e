package dev.gatlingllm.internal.sim;

import dev.gatlingllm.internal.sim.FlagValues.ConnectionWord;
import dev.gatlingllm.internal.sim.FlagValues.Decimal;
import dev.gatlingllm.internal.sim.FlagValues.DialectWord;
import dev.gatlingllm.internal.sim.FlagValues.Micros;
import dev.gatlingllm.internal.sim.FlagValues.Millis;
import dev.gatlingllm.internal.sim.FlagValues.ReasoningFieldWord;
import dev.gatlingllm.internal.sim.FlagValues.TransportWord;
import dev.gatlingllm.internal.sim.FlagValues.Whole;
import dev.gatlingllm.internal.sim.FlagValues.WholeLong;
import dev.gatlingllm.internal.tool.HelpOption;
import dev.gatlingllm.internal.tool.Tool;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The simulator's command line ({@code gatling-llm sim}, {@code sim.Main}): picocli converts
 * each flag's value to its type ({@link FlagValues}), and the flag's setter sets the
 * {@link SimulatorConfig.Builder} when picocli meets it, in the order given, so that flags
 * after {@code --dialect} change its switches. Started, it serves until the process is killed
 * (or {@code stop} is counted down). Exit codes: 0 after {@code --help}, 1 when the port
 * cannot be bound, 2 for a bad flag (a {@code --tokenizer} that cannot be loaded included).
 */
@Command(name = "sim", sortOptions = false, usageHelpWidth = 100,
    description = {"An OpenAI-compatible server that imitates vLLM's timing and output, for "
        + "testing load generators. Runs until killed."})
public final class SimCommand implements Callable<Integer> {

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
  public SimCommand(CountDownLatch stop) {
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

  // The server: where it listens, what it serves, how it counts.

  @Option(names = "--host", order = 1, paramLabel = "HOST",
      description = "interface to bind (default 127.0.0.1)")
  void host(String value) {
    builder = builder.host(value);
  }

  @Option(names = "--port", order = 2, paramLabel = "N", converter = Whole.class,
      description = "port, 0 = any free port (default 0)")
  void port(int value) {
    builder = builder.port(value);
  }

  @Option(names = "--model", order = 3, paramLabel = "NAME",
      description = "served model name (default sim-model)")
  void model(String value) {
    builder = builder.model(value);
  }

  @Option(names = "--served-model-name", order = 4, paramLabel = "NAME[,NAME...]",
      description = "served model names, listed by /v1/models; the first is the one answers "
          + "carry (replaces --model)")
  void servedModelNames(String value) {
    builder = builder.models(List.of(value.split(",", -1)));
  }

  @Option(names = "--tokenizer", order = 5, paramLabel = "gpt2|PATH|MODEL-ID", description =
      "count prompt tokens, usage.prompt_tokens and /tokenize ids with this tokenizer: gpt2 "
      + "(the shipped one), a tokenizer.json or its folder, or a Hugging Face model id; give "
      + "the client's, so that its prompt counts and the server's agree (default: "
      + "whitespace-separated words, which cost nothing)")
  void tokenizer(String value) {
    builder = builder.tokenizer(value);
  }

  @Option(names = "--startup-delay-ms", order = 6, paramLabel = "MS", converter = Millis.class,
      description = "wait before opening the port, as a server loading its model (default 0; "
          + "for bench sweep startup)")
  void startupDelay(Duration value) {
    builder = builder.startupDelay(value);
  }

  @Option(names = "--io-threads", order = 7, paramLabel = "N", converter = Whole.class,
      description = "event-loop threads (default 1)")
  void ioThreads(int value) {
    builder = builder.ioThreads(value);
  }

  @Option(names = "--transport", order = 8, paramLabel = "auto|nio|epoll",
      converter = TransportWord.class, description = "network transport (default auto)")
  void transport(SimulatorConfig.Transport value) {
    builder = builder.transport(value);
  }

  // Timing and length of an answer.

  @Option(names = "--ttft-ms", order = 10, paramLabel = "MS", converter = Millis.class,
      description = "time to first token after admission (default 50)")
  void ttft(Duration value) {
    builder = builder.ttft(value);
  }

  @Option(names = "--prefill-us-per-token", order = 11, paramLabel = "US",
      converter = Micros.class,
      description = "extra TTFT per prompt token, microseconds (default 0)")
  void prefillPerToken(Duration value) {
    builder = builder.prefillPerToken(value);
  }

  @Option(names = "--itl-ms", order = 12, paramLabel = "MS", converter = Millis.class,
      description = "time between consecutive output tokens (default 10)")
  void itl(Duration value) {
    builder = builder.itl(value);
  }

  @Option(names = "--jitter", order = 13, paramLabel = "F", converter = Decimal.class,
      description = "uniform relative jitter 0..1 on every delay (default 0)")
  void jitter(double value) {
    builder = builder.jitter(value);
  }

  @Option(names = "--seed", order = 14, paramLabel = "N", converter = WholeLong.class,
      description = "seed of the jitter (default 0)")
  void seed(long value) {
    builder = builder.seed(value);
  }

  @Option(names = "--tokens-per-chunk", order = 15, paramLabel = "K", converter = Whole.class,
      description = "tokens per streamed chunk (default 1)")
  void tokensPerChunk(int value) {
    builder = builder.tokensPerChunk(value);
  }

  @Option(names = "--max-running", order = 16, paramLabel = "N", converter = Whole.class,
      description = "requests generating at once, others queue (default 256)")
  void maxRunning(int value) {
    builder = builder.maxRunning(value);
  }

  @Option(names = "--max-tokens", order = 17, paramLabel = "N", converter = Whole.class,
      description = "output tokens when a request sets none (default 16)")
  void maxTokens(int value) {
    builder = builder.defaultMaxTokens(value);
  }

  @Option(names = "--reasoning-tokens", order = 18, paramLabel = "N", converter = Whole.class,
      description = "first N output tokens of a streamed chat answer are reasoning, not "
          + "content (default 0)")
  void reasoningTokens(int value) {
    builder = builder.reasoningTokens(value);
  }

  @Option(names = "--reasoning-field", order = 19, paramLabel = "NAME",
      converter = ReasoningFieldWord.class, description = "reasoning_content (default) or reasoning")
  void reasoningField(String value) {
    builder = builder.reasoningField(value);
  }

  @Option(names = "--tool-call-answers", order = 24, description = "answer a chat request with "
      + "tools and tool_choice auto (the default with tools) with a tool call, its arguments "
      + "streamed in pieces; required and a named function are always answered so (default off)")
  void toolCallAnswers(boolean value) {
    builder = builder.toolCallAnswers(value);
  }

  @Option(names = "--no-auto-tool-choice", order = 25, description = "refuse tool_choice auto "
      + "with 400, as vLLM does when started without --enable-auto-tool-choice")
  void noAutoToolChoice(boolean value) {
    builder = builder.autoToolChoice(!value);
  }

  @Option(names = "--session-cache", order = 20, description = "a prefix cache per "
      + "conversation: a turn with X-Session-ID whose history is that session's previous turn "
      + "and its answer pays the prefill (--prefill-us-per-token) of its new tokens only, as "
      + "vLLM's prefix cache makes it (default off)")
  void sessionCache(boolean value) {
    builder = builder.sessionCache(value);
  }

  @Option(names = "--enable-prompt-tokens-details", order = 21, description = "usage carries "
      + "prompt_tokens_details.cached_tokens, the prompt tokens the prefix cache held, as "
      + "vLLM's flag of that name makes it (default off)")
  void promptTokensDetails(boolean value) {
    builder = builder.promptTokensDetails(value);
  }

  @Option(names = "--spec-decode-tokens", order = 22, paramLabel = "K", converter = Whole.class,
      description = "speculative decoding: K tokens proposed a draft, and /metrics shows "
          + "vLLM's vllm:spec_decode_* counters (default 0: off)")
  void specDecodeTokens(int value) {
    builder = builder.specDecodeTokens(value);
  }

  @Option(names = "--spec-decode-accepted", order = 23, paramLabel = "A",
      converter = Whole.class, description = "speculative decoding: the first A tokens of each "
          + "draft are accepted, A + 1 tokens a step (default 0)")
  void specDecodeAccepted(int value) {
    builder = builder.specDecodeAccepted(value);
  }

  // Faults, decided by arrival number.

  @Option(names = "--error-rate", order = 30, paramLabel = "F", converter = Decimal.class,
      description = "fraction answered HTTP 500 (default 0)")
  void errorRate(double value) {
    builder = builder.errorRate(value);
  }

  @Option(names = "--disconnect-rate", order = 31, paramLabel = "F", converter = Decimal.class,
      description = "fraction closed mid-stream (default 0)")
  void disconnectRate(double value) {
    builder = builder.disconnectRate(value);
  }

  @Option(names = "--inband-error-rate", order = 32, paramLabel = "F", converter = Decimal.class,
      description = "fraction ending with an in-band error event (default 0)")
  void inBandErrorRate(double value) {
    builder = builder.inBandErrorRate(value);
  }

  @Option(names = "--stall-rate", order = 33, paramLabel = "F", converter = Decimal.class,
      description = "fraction pausing mid-stream (default 0)")
  void stallRate(double value) {
    builder = builder.stallRate(value);
  }

  @Option(names = "--stall-ms", order = 34, paramLabel = "MS", converter = Millis.class,
      description = "length of a pause (default 1000)")
  void stallDuration(Duration value) {
    builder = builder.stallDuration(value);
  }

  // Connections and the server imitated.

  @Option(names = "--connection", order = 40, paramLabel = "POLICY",
      converter = ConnectionWord.class, description = "after a response: keep-alive (default, "
      + "as vLLM), close-after-response (as llama.cpp: chunked, Keep-Alive header, closed "
      + "after the last chunk without saying so) or close (Connection: close, then closed)")
  void connection(SimulatorConfig.ConnectionPolicy value) {
    builder = builder.connectionPolicy(value);
  }

  @Option(names = "--keep-alive-max", order = 41, paramLabel = "N", converter = Whole.class,
      description = "with keep-alive: say Keep-Alive: timeout=5, max=N and close a connection "
          + "after its N-th response (default 0: no limit, no header)")
  void keepAliveMax(int value) {
    builder = builder.keepAliveMax(value);
  }

  @Option(names = "--malformed-tool-call-rate", order = 35, paramLabel = "F",
      converter = Decimal.class, description = "fraction of tool calls whose arguments are cut "
          + "before their last character: not JSON (default 0)")
  void malformedToolCallRate(double value) {
    builder = builder.malformedToolCallRate(value);
  }

  @Option(names = "--invalid-structured-rate", order = 36, paramLabel = "F",
      converter = Decimal.class, description = "fraction of answers to a JSON schema cut before "
          + "their last character: invalid (default 0)")
  void invalidStructuredRate(double value) {
    builder = builder.invalidStructuredRate(value);
  }

  @Option(names = "--dialect", order = 42, paramLabel = "vllm|llamacpp",
      converter = DialectWord.class, description = "the server imitated: vllm (default) or "
      + "llamacpp (usage in the finish chunk, merged tokens, null or missing role chunk, "
      + "max_completion_tokens ignored, any model, invalid JSON answered 500, long prompts "
      + "cut); give it first: flags after it change its switches")
  void dialect(SimulatorConfig.Dialect value) {
    builder = builder.dialect(value);
  }

  @Option(names = "--context-tokens", order = 43, paramLabel = "N", converter = Whole.class,
      description = "slot context: where a stream whose limit is ignored stops, what a long "
          + "prompt is cut to (default 1024)")
  void contextTokens(int value) {
    builder = builder.contextTokens(value);
  }

  @Option(names = "--merged-token-rate", order = 44, paramLabel = "F", converter = Decimal.class,
      description = "fraction of tokens merged into the next event (default 0; llamacpp 0.01)")
  void mergedTokenRate(double value) {
    builder = builder.mergedTokenRate(value);
  }

  @Option(names = "--missing-role-rate", order = 45, paramLabel = "F", converter = Decimal.class,
      description = "fraction of chat streams without a role chunk (default 0; llamacpp 0.05)")
  void missingRoleRate(double value) {
    builder = builder.missingRoleRate(value);
  }

  // The simulated GPUs, for --gpu-metrics-url.

  @Option(names = "--gpus", order = 46, paramLabel = "N", converter = Whole.class,
      description = "simulated GPUs whose power and energy GET /dcgm/metrics serves as NVIDIA's "
          + "DCGM exporter does (default 1; 0: none, 404)")
  void gpus(int value) {
    builder = builder.gpus(value);
  }

  @Option(names = "--gpu-idle-watts", order = 47, paramLabel = "W", converter = Decimal.class,
      description = "each GPU's draw with no request running (default 70)")
  void gpuIdleWatts(double value) {
    builder = builder.gpuIdleWatts(value);
  }

  @Option(names = "--gpu-watts-per-request", order = 48, paramLabel = "W",
      converter = Decimal.class, description = "what each running request adds to each GPU's "
          + "draw (default 25)")
  void gpuWattsPerRequest(double value) {
    builder = builder.gpuWattsPerRequest(value);
  }

  @Option(names = "--gpu-max-watts", order = 49, paramLabel = "W", converter = Decimal.class,
      description = "the most a GPU draws (default 700)")
  void gpuMaxWatts(double value) {
    builder = builder.gpuMaxWatts(value);
  }

  // For tests of the client.

  @Option(names = "--chunk-log", order = 50, description = "keep each streamed request's "
      + "receive and chunk write times, served (and cleared) by GET /debug/chunk-log")
  void chunkLog(boolean value) {
    builder = builder.chunkLog(value);
  }
}
