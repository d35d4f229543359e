package dev.gatlingllm.sim;

import dev.gatlingllm.internal.sim.ConfigCheck;
import dev.gatlingllm.internal.sim.SimCommand;
import dev.gatlingllm.internal.sim.SimTokens;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Immutable settings of a {@link Simulator}. Build one with {@link #builder()} (every
 * builder call returns a new builder) or start from {@link #defaults()} and use
 * {@link #toBuilder()}; values are checked by {@link Builder#build()} (and again by {@link Simulator#start}).
 * The command line that sets it is {@link SimCommand}.
 *
 * <p>Timing of one request, once it is admitted to run (it waits in a FIFO queue first
 * while {@code maxRunning} requests are generating):
 * <ul>
 *   <li>the first content chunk is written {@code ttft + prefillPerToken * promptTokens}
 *       after admission;</li>
 *   <li>{@code itl} is the time between consecutive tokens, so with {@code tokensPerChunk}
 *       = k every later chunk follows the previous one by {@code k * itl} (the last,
 *       shorter chunk too): chunk j goes out at {@code ttft' + j * k * itl};</li>
 *   <li>a non-streaming request is answered when its last token is generated, at
 *       {@code ttft' + (n - 1) * itl} for n output tokens;</li>
 *   <li>with {@code jitter} = f > 0, the first delay and every later gap are each
 *       multiplied by an independent uniform factor in {@code [1 - f, 1 + f]}, drawn from a
 *       random stream fixed by {@code seed} and the request's arrival number.</li>
 * </ul>
 * The output length is always the request's max tokens ({@code ignore_eos} semantics),
 * or {@code defaultMaxTokens} when it gives none. The defaults of every component are in one
 * place, {@link #defaults()}.
 *
 * @param host interface to bind; default 127.0.0.1
 * @param port port to bind; 0 (default) picks a free one, see {@link Simulator#port()}
 * @param model the served model name, the one answers carry unless a request names another of
 *     {@link #models()}; requests naming a model not served get 404. Default "sim-model"
 * @param otherModels the served names after {@link #model()} (vLLM's
 *     {@code --served-model-name} with several names); none by default
 * @param ttft fixed part of the time to first token, counted from admission; default 50 ms
 * @param prefillPerToken extra time to first token per prompt token; default 0
 * @param itl time between consecutive output tokens; default 10 ms
 * @param jitter relative jitter 0..1 applied uniformly around every delay; default 0
 * @param tokensPerChunk tokens per streamed content chunk; default 1
 * @param maxRunning most requests generating at once; the rest wait in a FIFO queue. Default 256
 * @param defaultMaxTokens output length of a request that gives no max tokens; default 16
 *     (OpenAI's default)
 * @param seed seed of the jitter random streams; default 0
 * @param errorRate fraction of requests answered with HTTP 500; default 0
 * @param disconnectRate fraction of requests whose connection is closed mid-stream; default 0
 * @param inBandErrorRate fraction of streams that end with an in-band error event; default 0
 * @param stallRate fraction of requests that pause mid-way for {@code stallDuration}; default 0
 * @param stallDuration length of an injected stall; default 1 s
 * @param startupDelay how long {@link Simulator#start} waits before it opens its port, as a
 *     server loading its model does before it answers {@code /health}: what a start-up sweep
 *     measures. Default 0
 * @param ioThreads event-loop threads serving connections and timers. Default 1, which keeps
 *     its timing to within a millisecond or so up to a few hundred streams while leaving the
 *     other cores to the load generator. Use 2 or more when hundreds of connections open at
 *     the same moment: one thread accepting a burst of 1000 while it streams delays their
 *     first tokens by 100 ms or more
 * @param transport Netty transport; default {@link Transport#AUTO}
 * @param chunkLog whether the server keeps the receive time of every streamed request and the
 *     write time of each of its chunks, for {@code GET /debug/chunk-log}; default off
 * @param reasoningTokens reasoning mode: the first this many output tokens of a streamed chat
 *     answer are thinking, sent in {@code reasoningField} instead of {@code content} (a chunk
 *     is reasoning when its first token is). They count in {@code max_tokens} and in
 *     {@code usage.completion_tokens}, as a reasoning model's do. Default 0: no reasoning
 * @param reasoningField the delta field of reasoning text: {@code reasoning_content} (default)
 *     or {@code reasoning}
 * @param recordRequests whether the server keeps every request it receives (method, path,
 *     headers, body) for {@link Simulator#recordedRequests()}, so tests can compare them field
 *     by field. Default off: a long run would keep every body
 * @param connectionPolicy what the server does with a connection after a response; default
 *     {@link ConnectionPolicy#KEEP_ALIVE}
 * @param keepAliveMax responses a connection serves, 0 (default) for no limit. With N > 0
 *     every response says {@code Keep-Alive: timeout=5, max=N} and the server closes the
 *     connection right after its N-th response, without {@code Connection: close}: as a server
 *     with a request limit per connection does, when the client is trusted to count. Only with
 *     {@link ConnectionPolicy#KEEP_ALIVE}
 * @param usageInFinishChunk llama.cpp's end of stream: no content event carries the finish
 *     reason; a last chunk does, with one choice of empty text, the usage and a
 *     {@code timings} object in the same chunk, and no {@code choices: []} usage chunk
 *     follows. The usage is sent whether or not {@code include_usage} asked for it. Default
 *     off (vLLM's separate usage chunk)
 * @param mergedTokenRate fraction of output tokens held back and sent merged with the next
 *     one, as a server does with a token that ends inside a UTF-8 character: that event
 *     carries two tokens, so a client sees fewer events (and inter-token latencies) than
 *     tokens. Decided per request by the token's index with the fault rule (rate 0.01: tokens
 *     99, 199, ...); the last token is never held back. Default 0
 * @param nullRoleContent whether the chat role chunk says {@code "content": null} instead of
 *     {@code ""}; default off
 * @param missingRoleRate fraction of streamed chat requests without a role chunk (decided by
 *     arrival number with the fault rule: 0.05 leaves it out of requests 19, 39, ...); default 0
 * @param ignoreMaxCompletionTokens whether {@code max_completion_tokens} is ignored (what chat
 *     clients send): such a stream runs to the context limit, {@code contextTokens} minus the
 *     prompt (at least one token). {@code max_tokens} is still honoured. Default off
 * @param contextTokens the context of a slot, in tokens: where a stream whose limit is ignored
 *     stops, and the length a long prompt is cut to with {@code cutLongPrompts}. Default 1024
 * @param cutLongPrompts whether a prompt longer than {@code contextTokens} is cut to that
 *     length silently: {@code usage.prompt_tokens} and the prefill time count the cut prompt.
 *     Default off
 * @param anyModel whether any {@code model} name is accepted (and echoed) instead of answered
 *     404; default off
 * @param sessionCache whether a conversation's turn ({@code X-Session-ID}) whose history this
 *     session's last turn sent, with its answer, pays the prefill cost of its new tokens only,
 *     as vLLM's prefix cache makes it. Default off
 * @param invalidJsonAs500 whether a body that is not JSON is answered HTTP 500 instead of 400;
 *     default off
 * @param tokenizer what the simulator counts prompt tokens with, answers {@code /tokenize} and
 *     {@code /detokenize} with: null (the default) for whitespace-separated words (see
 *     {@link SimTokens}), else {@code gpt2} (the shipped GPT-2), a {@code tokenizer.json} or
 *     its folder, or a Hugging Face model id, loaded when the simulator starts. Give the
 *     client's tokenizer so that {@code usage.prompt_tokens} is the count the client makes. A
 *     real tokenizer counts off the event loops, on one thread of its own (a 1,024-token
 *     prompt takes milliseconds with GPT-2), so the streams in flight keep their timing
 * @param gpus simulated GPUs whose energy and power are served at {@code /dcgm/metrics} as
 *     NVIDIA's DCGM exporter writes them ({@code DCGM_FI_DEV_POWER_USAGE} in watts,
 *     {@code DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION} in millijoules), for
 *     {@code --gpu-metrics-url}; 0 answers that path 404. Default 1
 * @param gpuIdleWatts each simulated GPU's draw with no request running; default 70 W
 * @param gpuWattsPerRequest what each running request adds to each GPU's draw; default 25 W
 * @param gpuMaxWatts the most a simulated GPU draws, however many requests run; default 700 W
 *     (an H100 SXM's limit)
 * @param promptTokensDetails whether {@code usage} carries
 *     {@code prompt_tokens_details.cached_tokens}: the prompt tokens the simulated prefix
 *     cache held (blocks of 64 characters seen before, as {@code vllm:prefix_cache_hits}
 *     counts them), as vLLM's {@code --enable-prompt-tokens-details} makes it. Default off
 * @param specDecodeTokens simulated speculative decoding: the tokens each draft proposes
 *     (vLLM's {@code num_speculative_tokens}); above 0, {@code /metrics} shows vLLM's
 *     {@code vllm:spec_decode_*} counters, moved by every generation. Default 0 (off)
 * @param specDecodeAccepted the draft tokens accepted of each draft, from the first: every
 *     verification step writes this plus one tokens. Between 0 and {@code specDecodeTokens};
 *     default 0
 * @param toolCallAnswers whether a chat request with {@code tools} whose {@code tool_choice}
 *     is {@code auto} (the default when tools are given) is answered with a tool call, as a
 *     model that decides to call one; {@code required} and a named function are answered with
 *     a tool call whatever this says (vLLM forces them), {@code none} never. The call names
 *     the named function or the first tool, and its arguments, a JSON object that follows the
 *     tool's {@code parameters}, stream in pieces over the answer's chunks. Default off
 * @param malformedToolCallRate fraction of tool calls whose arguments are cut before their
 *     last character, so that they are not JSON (decided by arrival number with the fault
 *     rule); default 0
 * @param autoToolChoice whether the simulated server was started with vLLM's
 *     {@code --enable-auto-tool-choice --tool-call-parser}: without them vLLM refuses a
 *     {@code tool_choice} of {@code auto}, given or implied by {@code tools}, with a 400.
 *     Default on
 * @param invalidStructuredRate fraction of answers to a JSON schema ({@code response_format}
 *     of type {@code json_schema}, or {@code structured_outputs.json}) that are cut before
 *     their last character and so do not validate (fault rule, by arrival number); the others
 *     are a JSON value that follows the schema. Default 0
 */
public record SimulatorConfig(
    String host,
    int port,
    String model,
    List<String> otherModels,
    Duration ttft,
    Duration prefillPerToken,
    Duration itl,
    double jitter,
    int tokensPerChunk,
    int maxRunning,
    int defaultMaxTokens,
    long seed,
    double errorRate,
    double disconnectRate,
    double inBandErrorRate,
    double stallRate,
    Duration stallDuration,
    Duration startupDelay,
    int ioThreads,
    Transport transport,
    boolean chunkLog,
    int reasoningTokens,
    String reasoningField,
    boolean recordRequests,
    ConnectionPolicy connectionPolicy,
    int keepAliveMax,
    boolean usageInFinishChunk,
    double mergedTokenRate,
    boolean nullRoleContent,
    double missingRoleRate,
    boolean ignoreMaxCompletionTokens,
    int contextTokens,
    boolean cutLongPrompts,
    boolean anyModel,
    boolean sessionCache,
    boolean invalidJsonAs500,
    String tokenizer,
    int gpus,
    double gpuIdleWatts,
    double gpuWattsPerRequest,
    double gpuMaxWatts,
    boolean promptTokensDetails,
    int specDecodeTokens,
    int specDecodeAccepted,
    boolean toolCallAnswers,
    double malformedToolCallRate,
    boolean autoToolChoice,
    double invalidStructuredRate) {

  /** Which Netty transport the server uses. */
  public enum Transport {
    /** Epoll when the native library loads (sub-millisecond timers), otherwise NIO. */
    AUTO,
    /** Java NIO; its timers wake up with millisecond granularity. */
    NIO,
    /** Linux epoll; fails at start when the native transport is not available. */
    EPOLL
  }

  /**
   * What the server does with a connection after a response. Real servers differ here, and
   * a client that reuses connections has to cope with each.
   */
  public enum ConnectionPolicy {
    /** vLLM's (uvicorn's): the connection stays open for the next request, no header says so. */
    KEEP_ALIVE,
    /**
     * llama.cpp's server: every generation is answered with chunked encoding and
     * {@code Keep-Alive: timeout=5, max=100}, and the connection is closed right after the
     * last chunk, without {@code Connection: close}. A client that reuses it before it sees
     * the close writes its next request into a closed connection.
     */
    CLOSE_AFTER_RESPONSE,
    /** Every response says {@code Connection: close}, and the server closes after it. */
    CONNECTION_CLOSE
  }

  /**
   * Which server's habits the simulator imitates, beyond timing. A preset of the finer
   * switches ({@link Builder#dialect}); each switch can be set on its own after it.
   */
  public enum Dialect {
    /** vLLM's OpenAI server: every dialect switch off. */
    VLLM,
    /**
     * llama.cpp's server ({@code llama-server}), as measured: usage and {@code timings} in the
     * finish chunk, a token ending inside a UTF-8 character merged into the next event (1 %),
     * the role chunk's content null and missing in 1 request in 20,
     * {@code max_completion_tokens} ignored, any model name accepted, invalid JSON answered
     * 500, prompts longer than the slot cut.
     */
    LLAMACPP
  }

  /** Every default, in the order of the components. */
  private static final SimulatorConfig DEFAULTS = new SimulatorConfig(
      "127.0.0.1",            // host
      0,                      // port
      "sim-model",            // model
      List.of(),              // otherModels
      Duration.ofMillis(50),  // ttft
      Duration.ZERO,          // prefillPerToken
      Duration.ofMillis(10),  // itl
      0,                      // jitter
      1,                      // tokensPerChunk
      256,                    // maxRunning
      16,                     // defaultMaxTokens
      0,                      // seed
      0,                      // errorRate
      0,                      // disconnectRate
      0,                      // inBandErrorRate
      0,                      // stallRate
      Duration.ofSeconds(1),  // stallDuration
      Duration.ZERO,          // startupDelay
      1,                      // ioThreads
      Transport.AUTO,         // transport
      false,                  // chunkLog
      0,                      // reasoningTokens
      "reasoning_content",    // reasoningField
      false,                  // recordRequests
      ConnectionPolicy.KEEP_ALIVE, // connectionPolicy
      0,                      // keepAliveMax
      false,                  // usageInFinishChunk
      0,                      // mergedTokenRate
      false,                  // nullRoleContent
      0,                      // missingRoleRate
      false,                  // ignoreMaxCompletionTokens
      1024,                   // contextTokens
      false,                  // cutLongPrompts
      false,                  // anyModel
      false,                  // sessionCache
      false,                  // invalidJsonAs500
      null,                   // tokenizer
      1,                      // gpus
      70,                     // gpuIdleWatts
      25,                     // gpuWattsPerRequest
      700,                    // gpuMaxWatts
      false,                  // promptTokensDetails
      0,                      // specDecodeTokens
      0,                      // specDecodeAccepted
      false,                  // toolCallAnswers
      0,                      // malformedToolCallRate
      true,                   // autoToolChoice
      0);                     // invalidStructuredRate

  /** A builder holding the defaults. */
  public static Builder builder() {
    return new Builder(DEFAULTS);
  }

  /** The default settings: 127.0.0.1, ephemeral port, "sim-model", TTFT 50 ms, ITL 10 ms. */
  public static SimulatorConfig defaults() {
    return DEFAULTS;
  }

  /** A builder starting from this configuration's values. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /**
   * Every served model name, {@link #model()} first, as {@code GET /v1/models} lists them (as
   * vLLM's {@code --served-model-name} with several names). Default: the one model.
   */
  public List<String> models() {
    List<String> all = new ArrayList<>(1 + otherModels.size());
    all.add(model);
    all.addAll(otherModels);
    return List.copyOf(all);
  }

  /** Whether a request may name {@code name}: one of {@link #models()}. */
  public boolean serves(String name) {
    return model.equals(name) || otherModels.contains(name);
  }

  /**
   * The faults planned for the request with 0-based arrival number {@code requestNumber}; the
   * rule and how kinds combine are {@link Fault#planned}'s.
   */
  public Set<Fault> faultsFor(long requestNumber) {
    return Fault.planned(this, requestNumber);
  }

  /** Whether the output token with 0-based index {@code token} is merged into the next event. */
  public boolean mergesToken(int token) {
    return Fault.hits(mergedTokenRate, token);
  }

  /** Whether the tool call of the request with arrival number {@code number} is cut short. */
  public boolean malformsToolCall(long number) {
    return Fault.hits(malformedToolCallRate, number);
  }

  /** Whether the structured answer of the request with arrival number {@code number} is cut. */
  public boolean breaksStructuredAnswer(long number) {
    return Fault.hits(invalidStructuredRate, number);
  }

  /** Whether the streamed chat request with arrival number {@code number} has no role chunk. */
  public boolean omitsRole(long number) {
    return Fault.hits(missingRoleRate, number);
  }

  /**
   * Immutable builder: it holds a {@link SimulatorConfig}, and every setter returns a new
   * builder holding a copy with one component changed, leaving this one unchanged, so a
   * partly configured builder can be shared. Nothing is checked before {@link #build()}: a
   * flag may be valid only with a later one ({@code keepAliveMax} with a connection policy).
   * The setters, one a component, are written in {@code ConfigSetters}.
   */
  public static final class Builder extends ConfigSetters {

    private final SimulatorConfig config;

    private Builder(SimulatorConfig config) {
      this.config = config;
    }

    @Override
    SimulatorConfig config() {
      return config;
    }

    @Override
    Builder holding(SimulatorConfig config) {
      return new Builder(config);
    }

    /**
     * Checks every value and returns the configuration; a model name
     * given twice is served once.
     *
     * @throws IllegalArgumentException naming the first bad value and what is allowed
     */
    public SimulatorConfig build() {
      ConfigCheck.check(config);
      LinkedHashSet<String> others = new LinkedHashSet<>(config.otherModels);
      others.remove(config.model);
      return with(OTHER_MODELS, List.copyOf(others)).config;
    }
  }
}
