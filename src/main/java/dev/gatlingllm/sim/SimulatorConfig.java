package dev.gatlingllm.sim;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Immutable settings of a {@link Simulator}. Build one with {@link #builder()} (every
 * builder call returns a new builder) or start from {@link #defaults()} and use
 * {@link #toBuilder()}; values are checked by {@link Builder#build()}. The command line that
 * sets it is {@link SimCommand}.
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
 * or {@code defaultMaxTokens} when it gives none.
 */
public final class SimulatorConfig {

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

  private static final Duration MAX_DELAY = Duration.ofHours(1);
  private static final Duration MAX_PREFILL = Duration.ofSeconds(1);
  private static final int MAX_OUTPUT_TOKENS = 1_000_000;

  private final String host;
  private final int port;
  private final String model;
  private final List<String> otherModels;
  private final Duration ttft;
  private final Duration prefillPerToken;
  private final Duration itl;
  private final double jitter;
  private final int tokensPerChunk;
  private final int maxRunning;
  private final int defaultMaxTokens;
  private final long seed;
  private final double errorRate;
  private final double disconnectRate;
  private final double inBandErrorRate;
  private final double stallRate;
  private final Duration stallDuration;
  private final Duration startupDelay;
  private final int ioThreads;
  private final Transport transport;
  private final boolean chunkLog;
  private final int reasoningTokens;
  private final String reasoningField;
  private final boolean recordRequests;
  private final ConnectionPolicy connectionPolicy;
  private final int keepAliveMax;
  private final boolean usageInFinishChunk;
  private final double mergedTokenRate;
  private final boolean nullRoleContent;
  private final double missingRoleRate;
  private final boolean ignoreMaxCompletionTokens;
  private final int contextTokens;
  private final boolean cutLongPrompts;
  private final boolean anyModel;
  private final boolean sessionCache;
  private final boolean invalidJsonAs500;
  private final String tokenizer;

  private SimulatorConfig(Builder b) {
    host = b.host;
    port = b.port;
    model = b.model;
    // a name given twice is served once
    LinkedHashSet<String> others = new LinkedHashSet<>(b.otherModels);
    others.remove(b.model);
    otherModels = List.copyOf(others);
    ttft = b.ttft;
    prefillPerToken = b.prefillPerToken;
    itl = b.itl;
    jitter = b.jitter;
    tokensPerChunk = b.tokensPerChunk;
    maxRunning = b.maxRunning;
    defaultMaxTokens = b.defaultMaxTokens;
    seed = b.seed;
    chunkLog = b.chunkLog;
    errorRate = b.errorRate;
    disconnectRate = b.disconnectRate;
    inBandErrorRate = b.inBandErrorRate;
    stallRate = b.stallRate;
    stallDuration = b.stallDuration;
    startupDelay = b.startupDelay;
    ioThreads = b.ioThreads;
    transport = b.transport;
    reasoningTokens = b.reasoningTokens;
    reasoningField = b.reasoningField;
    recordRequests = b.recordRequests;
    connectionPolicy = b.connectionPolicy;
    keepAliveMax = b.keepAliveMax;
    usageInFinishChunk = b.usageInFinishChunk;
    mergedTokenRate = b.mergedTokenRate;
    nullRoleContent = b.nullRoleContent;
    missingRoleRate = b.missingRoleRate;
    ignoreMaxCompletionTokens = b.ignoreMaxCompletionTokens;
    contextTokens = b.contextTokens;
    cutLongPrompts = b.cutLongPrompts;
    anyModel = b.anyModel;
    sessionCache = b.sessionCache;
    invalidJsonAs500 = b.invalidJsonAs500;
    tokenizer = b.tokenizer;
  }

  /** A builder holding the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** The default settings: 127.0.0.1, ephemeral port, "sim-model", TTFT 50 ms, ITL 10 ms. */
  public static SimulatorConfig defaults() {
    return builder().build();
  }

  /** A builder starting from this configuration's values. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /**
   * The faults planned for the request with 0-based arrival number {@code requestNumber}.
   * Each kind is decided on its own: a kind with rate r hits request i iff
   * {@code floor((i+1)*r) > floor(i*r)} (computed exactly on the rate's shortest decimal
   * form), so the first N requests hold exactly
   * {@code floor(N*r)} hits of that kind (50 requests at 0.2 give 10, at i = 4, 9, ...).
   *
   * <p>Kinds with the same rate hit the same requests, and the returned set can hold
   * several kinds. They combine this way: {@link Fault#HTTP_ERROR} wins over everything
   * (the request is answered 500 at once and the others are not applied); otherwise the
   * {@link Fault#STALL} pause comes first, then the {@link Fault#IN_BAND_ERROR} event,
   * then the {@link Fault#DISCONNECT} close (so in-band plus disconnect sends the error
   * event and closes without {@code [DONE]}).
   */
  public Set<Fault> faultsFor(long requestNumber) {
    if (requestNumber < 0) {
      throw new IllegalArgumentException("requestNumber must be >= 0, got " + requestNumber);
    }
    EnumSet<Fault> faults = EnumSet.noneOf(Fault.class);
    if (hits(errorRate, requestNumber)) {
      faults.add(Fault.HTTP_ERROR);
    }
    if (hits(disconnectRate, requestNumber)) {
      faults.add(Fault.DISCONNECT);
    }
    if (hits(inBandErrorRate, requestNumber)) {
      faults.add(Fault.IN_BAND_ERROR);
    }
    if (hits(stallRate, requestNumber)) {
      faults.add(Fault.STALL);
    }
    return faults;
  }

  /** Exact decimal arithmetic: in doubles, 100 * 0.29 floors to 28, not 29. */
  private static boolean hits(double rate, long i) {
    if (rate <= 0) {
      return false;
    }
    BigDecimal r = BigDecimal.valueOf(rate);
    BigDecimal before = r.multiply(BigDecimal.valueOf(i)).setScale(0, RoundingMode.FLOOR);
    BigDecimal after = r.multiply(BigDecimal.valueOf(i + 1)).setScale(0, RoundingMode.FLOOR);
    return after.compareTo(before) > 0;
  }

  /** Interface to bind; default 127.0.0.1. */
  public String host() {
    return host;
  }

  /** Port to bind; 0 (default) picks a free one, see {@link Simulator#port()}. */
  public int port() {
    return port;
  }

  /**
   * The served model name, the one answers carry unless a request names another of
   * {@link #models()}; requests naming a model not served get 404. Default "sim-model".
   */
  public String model() {
    return model;
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

  /** Fixed part of the time to first token, counted from admission. Default 50 ms. */
  public Duration ttft() {
    return ttft;
  }

  /** Extra time to first token per prompt token. Default 0. */
  public Duration prefillPerToken() {
    return prefillPerToken;
  }

  /** Time between consecutive output tokens. Default 10 ms. */
  public Duration itl() {
    return itl;
  }

  /** Relative jitter 0..1 applied uniformly around every delay. Default 0. */
  public double jitter() {
    return jitter;
  }

  /** Tokens per streamed content chunk. Default 1. */
  public int tokensPerChunk() {
    return tokensPerChunk;
  }

  /** Most requests generating at once; the rest wait in a FIFO queue. Default 256. */
  public int maxRunning() {
    return maxRunning;
  }

  /** Output length of a request that gives no max tokens. Default 16 (OpenAI's default). */
  public int defaultMaxTokens() {
    return defaultMaxTokens;
  }

  /** Seed of the jitter random streams. Default 0. */
  public long seed() {
    return seed;
  }

  /**
   * Whether the server keeps the receive time of every streamed request and the write time of
   * each of its chunks, for {@code GET /debug/chunk-log}. Default off.
   */
  public boolean chunkLog() {
    return chunkLog;
  }

  /** Fraction of requests answered with HTTP 500. Default 0. */
  public double errorRate() {
    return errorRate;
  }

  /** Fraction of requests whose connection is closed mid-stream. Default 0. */
  public double disconnectRate() {
    return disconnectRate;
  }

  /** Fraction of streams that end with an in-band error event. Default 0. */
  public double inBandErrorRate() {
    return inBandErrorRate;
  }

  /** Fraction of requests that pause mid-way for {@link #stallDuration()}. Default 0. */
  public double stallRate() {
    return stallRate;
  }

  /** Length of an injected stall. Default 1 s. */
  public Duration stallDuration() {
    return stallDuration;
  }

  /**
   * How long {@link Simulator#start} waits before it opens its port, as a server loading its
   * model does before it answers {@code /health}: what a start-up sweep measures. Default 0.
   */
  public Duration startupDelay() {
    return startupDelay;
  }

  /**
   * Event-loop threads serving connections and timers. Default 1, which keeps its timing
   * to within a millisecond or so up to a few hundred streams while leaving the other cores
   * to the load generator. Use 2 or more when hundreds of connections open at the same
   * moment: one thread accepting a burst of 1000 while it streams delays their first tokens
   * by 100 ms or more.
   */
  public int ioThreads() {
    return ioThreads;
  }

  /** Netty transport. Default {@link Transport#AUTO}. */
  public Transport transport() {
    return transport;
  }

  /**
   * Reasoning mode: the first this many output tokens of a streamed chat answer are
   * thinking, sent in {@link #reasoningField()} instead of {@code content} (a chunk is
   * reasoning when its first token is). They count in {@code max_tokens} and in
   * {@code usage.completion_tokens}, as a reasoning model's do. Default 0: no reasoning.
   */
  public int reasoningTokens() {
    return reasoningTokens;
  }

  /** The delta field of reasoning text: {@code reasoning_content} (default) or {@code reasoning}. */
  public String reasoningField() {
    return reasoningField;
  }

  /**
   * Whether the server keeps every request it receives (method, path, headers, body) for
   * {@link Simulator#recordedRequests()}, so tests can compare them field by field. Default
   * off: a long run would keep every body.
   */
  public boolean recordRequests() {
    return recordRequests;
  }

  /**
   * What the server does with a connection after a response. Default
   * {@link ConnectionPolicy#KEEP_ALIVE}.
   */
  public ConnectionPolicy connectionPolicy() {
    return connectionPolicy;
  }

  /**
   * Responses a connection serves, 0 (default) for no limit. With N > 0 every response says
   * {@code Keep-Alive: timeout=5, max=N} and the server closes the connection right after
   * its N-th response, without {@code Connection: close}: as a server with a request limit
   * per connection does, when the client is trusted to count. Only with
   * {@link ConnectionPolicy#KEEP_ALIVE}.
   */
  public int keepAliveMax() {
    return keepAliveMax;
  }

  /**
   * llama.cpp's end of stream: no content event carries the finish reason; a last chunk does,
   * with one choice of empty text, the usage and a {@code timings} object in the same chunk,
   * and no {@code choices: []} usage chunk follows. The usage is sent whether or not
   * {@code include_usage} asked for it. Default off (vLLM's separate usage chunk).
   */
  public boolean usageInFinishChunk() {
    return usageInFinishChunk;
  }

  /**
   * Fraction of output tokens held back and sent merged with the next one, as a server does
   * with a token that ends inside a UTF-8 character: that event carries two tokens, so a
   * client sees fewer events (and inter-token latencies) than tokens. Decided per request by
   * the token's index with the fault rule (rate 0.01: tokens 99, 199, ...); the last token is
   * never held back. Default 0.
   */
  public double mergedTokenRate() {
    return mergedTokenRate;
  }

  /** Whether the chat role chunk says {@code "content": null} instead of {@code ""}. Default off. */
  public boolean nullRoleContent() {
    return nullRoleContent;
  }

  /**
   * Fraction of streamed chat requests without a role chunk (decided by arrival number with
   * the fault rule: 0.05 leaves it out of requests 19, 39, ...). Default 0.
   */
  public double missingRoleRate() {
    return missingRoleRate;
  }

  /**
   * Whether {@code max_completion_tokens} is ignored (what chat clients send): such a stream
   * runs to the context limit, {@link #contextTokens()} minus the prompt (at least one
   * token). {@code max_tokens} is still honoured. Default off.
   */
  public boolean ignoreMaxCompletionTokens() {
    return ignoreMaxCompletionTokens;
  }

  /**
   * The context of a slot, in tokens: where a stream whose limit is ignored stops, and the
   * length a long prompt is cut to with {@link #cutLongPrompts()}. Default 1024.
   */
  public int contextTokens() {
    return contextTokens;
  }

  /**
   * Whether a prompt longer than {@link #contextTokens()} is cut to that length silently:
   * {@code usage.prompt_tokens} and the prefill time count the cut prompt. Default off.
   */
  public boolean cutLongPrompts() {
    return cutLongPrompts;
  }

  /** Whether any {@code model} name is accepted (and echoed) instead of answered 404. Default off. */
  public boolean anyModel() {
    return anyModel;
  }

  /**
   * Whether a conversation's turn ({@code X-Session-ID}) whose history this session's last
   * turn sent, with its answer, pays the prefill cost of its new tokens only, as vLLM's prefix
   * cache makes it. Default off.
   */
  public boolean sessionCache() {
    return sessionCache;
  }

  /** Whether a body that is not JSON is answered HTTP 500 instead of 400. Default off. */
  public boolean invalidJsonAs500() {
    return invalidJsonAs500;
  }

  /**
   * What the simulator counts prompt tokens with, answers {@code /tokenize} and
   * {@code /detokenize} with: null (the default) for whitespace-separated words (see
   * {@link SimTokens}), else {@code gpt2} (the shipped GPT-2), a {@code tokenizer.json} or its
   * folder, or a Hugging Face model id, loaded when the simulator starts. Give the client's
   * tokenizer so that {@code usage.prompt_tokens} is the count the client makes. A real
   * tokenizer counts off the event loops, on one thread of its own (a 1,024-token prompt takes
   * milliseconds with GPT-2), so the streams in flight keep their timing.
   */
  public String tokenizer() {
    return tokenizer;
  }

  /** Whether the output token with 0-based index {@code token} is merged into the next event. */
  boolean mergesToken(int token) {
    return hits(mergedTokenRate, token);
  }

  /** Whether the streamed chat request with arrival number {@code number} has no role chunk. */
  boolean omitsRole(long number) {
    return hits(missingRoleRate, number);
  }

  @Override
  public String toString() {
    return "SimulatorConfig{host=" + host + ", port=" + port + ", model=" + model + (otherModels.isEmpty() ? "" : ", otherModels=" + otherModels)
        + ", ttft=" + ttft + ", prefillPerToken=" + prefillPerToken + ", itl=" + itl
        + ", jitter=" + jitter + ", tokensPerChunk=" + tokensPerChunk
        + ", maxRunning=" + maxRunning + ", defaultMaxTokens=" + defaultMaxTokens
        + ", seed=" + seed + ", errorRate=" + errorRate + ", disconnectRate=" + disconnectRate
        + ", inBandErrorRate=" + inBandErrorRate + ", stallRate=" + stallRate
        + ", stallDuration=" + stallDuration + ", startupDelay=" + startupDelay
        + ", ioThreads=" + ioThreads
        + ", transport=" + transport + ", reasoningTokens=" + reasoningTokens
        + ", reasoningField=" + reasoningField + ", recordRequests=" + recordRequests
        + ", connectionPolicy=" + connectionPolicy + ", keepAliveMax=" + keepAliveMax
        + ", usageInFinishChunk=" + usageInFinishChunk + ", mergedTokenRate=" + mergedTokenRate
        + ", nullRoleContent=" + nullRoleContent + ", missingRoleRate=" + missingRoleRate
        + ", ignoreMaxCompletionTokens=" + ignoreMaxCompletionTokens
        + ", contextTokens=" + contextTokens + ", cutLongPrompts=" + cutLongPrompts
        + ", anyModel=" + anyModel + ", invalidJsonAs500=" + invalidJsonAs500
        + (tokenizer == null ? "" : ", tokenizer=" + tokenizer) + "}";
  }

  /**
   * Immutable builder: every setter returns a new builder and leaves this one unchanged,
   * so a partly configured builder can be shared. Nothing is checked before
   * {@link #build()}.
   */
  public static final class Builder {
    private String host = "127.0.0.1";
    private int port;
    private String model = "sim-model";
    private List<String> otherModels = List.of();
    private Duration ttft = Duration.ofMillis(50);
    private Duration prefillPerToken = Duration.ZERO;
    private Duration itl = Duration.ofMillis(10);
    private double jitter;
    private int tokensPerChunk = 1;
    private int maxRunning = 256;
    private int defaultMaxTokens = 16;
    private long seed;
    private double errorRate;
    private double disconnectRate;
    private double inBandErrorRate;
    private double stallRate;
    private Duration stallDuration = Duration.ofSeconds(1);
    private Duration startupDelay = Duration.ZERO;
    private int ioThreads = 1;
    private Transport transport = Transport.AUTO;
    private boolean chunkLog;
    private int reasoningTokens;
    private String reasoningField = "reasoning_content";
    private boolean recordRequests;
    private ConnectionPolicy connectionPolicy = ConnectionPolicy.KEEP_ALIVE;
    private int keepAliveMax;
    private boolean usageInFinishChunk;
    private double mergedTokenRate;
    private boolean nullRoleContent;
    private double missingRoleRate;
    private boolean ignoreMaxCompletionTokens;
    private int contextTokens = 1024;
    private boolean cutLongPrompts;
    private boolean anyModel;
    private boolean sessionCache;
    private boolean invalidJsonAs500;
    private String tokenizer;

    private Builder() {}

    private Builder(SimulatorConfig c) {
      host = c.host;
      port = c.port;
      model = c.model;
      otherModels = c.otherModels;
      ttft = c.ttft;
      prefillPerToken = c.prefillPerToken;
      itl = c.itl;
      jitter = c.jitter;
      tokensPerChunk = c.tokensPerChunk;
      maxRunning = c.maxRunning;
      defaultMaxTokens = c.defaultMaxTokens;
      seed = c.seed;
      chunkLog = c.chunkLog;
      errorRate = c.errorRate;
      disconnectRate = c.disconnectRate;
      inBandErrorRate = c.inBandErrorRate;
      stallRate = c.stallRate;
      stallDuration = c.stallDuration;
      startupDelay = c.startupDelay;
      ioThreads = c.ioThreads;
      transport = c.transport;
      reasoningTokens = c.reasoningTokens;
      reasoningField = c.reasoningField;
      recordRequests = c.recordRequests;
      connectionPolicy = c.connectionPolicy;
      keepAliveMax = c.keepAliveMax;
      usageInFinishChunk = c.usageInFinishChunk;
      mergedTokenRate = c.mergedTokenRate;
      nullRoleContent = c.nullRoleContent;
      missingRoleRate = c.missingRoleRate;
      ignoreMaxCompletionTokens = c.ignoreMaxCompletionTokens;
      contextTokens = c.contextTokens;
      cutLongPrompts = c.cutLongPrompts;
      anyModel = c.anyModel;
      sessionCache = c.sessionCache;
      invalidJsonAs500 = c.invalidJsonAs500;
      tokenizer = c.tokenizer;
    }

    private Builder copy() {
      Builder b = new Builder();
      b.host = host;
      b.port = port;
      b.model = model;
      b.otherModels = otherModels;
      b.ttft = ttft;
      b.prefillPerToken = prefillPerToken;
      b.itl = itl;
      b.jitter = jitter;
      b.tokensPerChunk = tokensPerChunk;
      b.maxRunning = maxRunning;
      b.defaultMaxTokens = defaultMaxTokens;
      b.seed = seed;
      b.chunkLog = chunkLog;
      b.errorRate = errorRate;
      b.disconnectRate = disconnectRate;
      b.inBandErrorRate = inBandErrorRate;
      b.stallRate = stallRate;
      b.stallDuration = stallDuration;
      b.startupDelay = startupDelay;
      b.ioThreads = ioThreads;
      b.transport = transport;
      b.reasoningTokens = reasoningTokens;
      b.reasoningField = reasoningField;
      b.recordRequests = recordRequests;
      b.connectionPolicy = connectionPolicy;
      b.keepAliveMax = keepAliveMax;
      b.usageInFinishChunk = usageInFinishChunk;
      b.mergedTokenRate = mergedTokenRate;
      b.nullRoleContent = nullRoleContent;
      b.missingRoleRate = missingRoleRate;
      b.ignoreMaxCompletionTokens = ignoreMaxCompletionTokens;
      b.contextTokens = contextTokens;
      b.cutLongPrompts = cutLongPrompts;
      b.anyModel = anyModel;
      b.sessionCache = sessionCache;
      b.invalidJsonAs500 = invalidJsonAs500;
      b.tokenizer = tokenizer;
      return b;
    }

    /** See {@link SimulatorConfig#connectionPolicy()}. */
    public Builder connectionPolicy(ConnectionPolicy value) {
      Builder b = copy();
      b.connectionPolicy = value;
      return b;
    }

    /**
     * Sets every dialect switch to {@code dialect}'s habits (see {@link Dialect}); the
     * context size is left as it is.
     */
    public Builder dialect(Dialect dialect) {
      boolean llama = dialect == Dialect.LLAMACPP;
      Builder b = copy();
      b.usageInFinishChunk = llama;
      b.mergedTokenRate = llama ? 0.01 : 0;
      b.nullRoleContent = llama;
      b.missingRoleRate = llama ? 0.05 : 0;
      b.ignoreMaxCompletionTokens = llama;
      b.cutLongPrompts = llama;
      b.anyModel = llama;
      b.invalidJsonAs500 = llama;
      return b;
    }

    /** See {@link SimulatorConfig#usageInFinishChunk()}. */
    public Builder usageInFinishChunk(boolean value) {
      Builder b = copy();
      b.usageInFinishChunk = value;
      return b;
    }

    /** See {@link SimulatorConfig#mergedTokenRate()}. */
    public Builder mergedTokenRate(double value) {
      Builder b = copy();
      b.mergedTokenRate = value;
      return b;
    }

    /** See {@link SimulatorConfig#nullRoleContent()}. */
    public Builder nullRoleContent(boolean value) {
      Builder b = copy();
      b.nullRoleContent = value;
      return b;
    }

    /** See {@link SimulatorConfig#missingRoleRate()}. */
    public Builder missingRoleRate(double value) {
      Builder b = copy();
      b.missingRoleRate = value;
      return b;
    }

    /** See {@link SimulatorConfig#ignoreMaxCompletionTokens()}. */
    public Builder ignoreMaxCompletionTokens(boolean value) {
      Builder b = copy();
      b.ignoreMaxCompletionTokens = value;
      return b;
    }

    /** See {@link SimulatorConfig#contextTokens()}. */
    public Builder contextTokens(int value) {
      Builder b = copy();
      b.contextTokens = value;
      return b;
    }

    /** See {@link SimulatorConfig#cutLongPrompts()}. */
    public Builder cutLongPrompts(boolean value) {
      Builder b = copy();
      b.cutLongPrompts = value;
      return b;
    }

    /** See {@link SimulatorConfig#sessionCache()}. */
    public Builder sessionCache(boolean value) {
      Builder b = copy();
      b.sessionCache = value;
      return b;
    }

    /** See {@link SimulatorConfig#anyModel()}. */
    public Builder anyModel(boolean value) {
      Builder b = copy();
      b.anyModel = value;
      return b;
    }

    /** See {@link SimulatorConfig#invalidJsonAs500()}. */
    public Builder invalidJsonAs500(boolean value) {
      Builder b = copy();
      b.invalidJsonAs500 = value;
      return b;
    }

    /** See {@link SimulatorConfig#tokenizer()}; null for whitespace-separated words. */
    public Builder tokenizer(String pathOrModelId) {
      Builder b = copy();
      b.tokenizer = pathOrModelId;
      return b;
    }

    /** See {@link SimulatorConfig#keepAliveMax()}. */
    public Builder keepAliveMax(int value) {
      Builder b = copy();
      b.keepAliveMax = value;
      return b;
    }

    /** See {@link SimulatorConfig#reasoningTokens()}. */
    public Builder reasoningTokens(int value) {
      Builder b = copy();
      b.reasoningTokens = value;
      return b;
    }

    /** See {@link SimulatorConfig#reasoningField()}. */
    public Builder reasoningField(String value) {
      Builder b = copy();
      b.reasoningField = value;
      return b;
    }

    /** See {@link SimulatorConfig#recordRequests()}. */
    public Builder recordRequests(boolean value) {
      Builder b = copy();
      b.recordRequests = value;
      return b;
    }

    /** See {@link SimulatorConfig#host()}. */
    public Builder host(String value) {
      Builder b = copy();
      b.host = value;
      return b;
    }

    /** See {@link SimulatorConfig#port()}. */
    public Builder port(int value) {
      Builder b = copy();
      b.port = value;
      return b;
    }

    /** See {@link SimulatorConfig#model()}. */
    public Builder model(String value) {
      Builder b = copy();
      b.model = value;
      return b;
    }

    /** See {@link SimulatorConfig#models()}: the first is {@link SimulatorConfig#model()}. */
    public Builder models(List<String> names) {
      if (names == null || names.isEmpty()) {
        throw new IllegalArgumentException("models must name at least one model, got "
            + names);
      }
      Builder b = copy();
      b.model = names.get(0);
      b.otherModels = new ArrayList<>(names.subList(1, names.size()));
      return b;
    }

    /** See {@link SimulatorConfig#ttft()}. */
    public Builder ttft(Duration value) {
      Builder b = copy();
      b.ttft = value;
      return b;
    }

    /** See {@link SimulatorConfig#prefillPerToken()}. */
    public Builder prefillPerToken(Duration value) {
      Builder b = copy();
      b.prefillPerToken = value;
      return b;
    }

    /** See {@link SimulatorConfig#itl()}. */
    public Builder itl(Duration value) {
      Builder b = copy();
      b.itl = value;
      return b;
    }

    /** See {@link SimulatorConfig#jitter()}. */
    public Builder jitter(double value) {
      Builder b = copy();
      b.jitter = value;
      return b;
    }

    /** See {@link SimulatorConfig#tokensPerChunk()}. */
    public Builder tokensPerChunk(int value) {
      Builder b = copy();
      b.tokensPerChunk = value;
      return b;
    }

    /** See {@link SimulatorConfig#maxRunning()}. */
    public Builder maxRunning(int value) {
      Builder b = copy();
      b.maxRunning = value;
      return b;
    }

    /** See {@link SimulatorConfig#defaultMaxTokens()}. */
    public Builder defaultMaxTokens(int value) {
      Builder b = copy();
      b.defaultMaxTokens = value;
      return b;
    }

    /** See {@link SimulatorConfig#seed()}. */
    public Builder seed(long value) {
      Builder b = copy();
      b.seed = value;
      return b;
    }

    /** See {@link SimulatorConfig#chunkLog()}. */
    public Builder chunkLog(boolean value) {
      Builder b = copy();
      b.chunkLog = value;
      return b;
    }

    /** See {@link SimulatorConfig#errorRate()}. */
    public Builder errorRate(double value) {
      Builder b = copy();
      b.errorRate = value;
      return b;
    }

    /** See {@link SimulatorConfig#disconnectRate()}. */
    public Builder disconnectRate(double value) {
      Builder b = copy();
      b.disconnectRate = value;
      return b;
    }

    /** See {@link SimulatorConfig#inBandErrorRate()}. */
    public Builder inBandErrorRate(double value) {
      Builder b = copy();
      b.inBandErrorRate = value;
      return b;
    }

    /** See {@link SimulatorConfig#stallRate()}. */
    public Builder stallRate(double value) {
      Builder b = copy();
      b.stallRate = value;
      return b;
    }

    /** See {@link SimulatorConfig#stallDuration()}. */
    public Builder stallDuration(Duration value) {
      Builder b = copy();
      b.stallDuration = value;
      return b;
    }

    /** See {@link SimulatorConfig#startupDelay()}. */
    public Builder startupDelay(Duration value) {
      Builder b = copy();
      b.startupDelay = value;
      return b;
    }

    /** See {@link SimulatorConfig#ioThreads()}. */
    public Builder ioThreads(int value) {
      Builder b = copy();
      b.ioThreads = value;
      return b;
    }

    /** See {@link SimulatorConfig#transport()}. */
    public Builder transport(Transport value) {
      Builder b = copy();
      b.transport = value;
      return b;
    }

    /**
     * Checks every value and returns the configuration.
     *
     * @throws IllegalArgumentException naming the first bad value and what is allowed
     */
    public SimulatorConfig build() {
      require(host != null && !host.isBlank(), "host must be a non-blank host name or address, got '" + host + "'");
      require(port >= 0 && port <= 65535, "port must be in 0..65535 (0 = any free port), got " + port);
      require(model != null && !model.isBlank(), "model must be a non-blank name, got '" + model + "'");
      for (String other : otherModels) {
        require(other != null && !other.isBlank(),
            "models must be non-blank names, got '" + other + "' in " + otherModels);
      }
      checkDelay("ttft", ttft, MAX_DELAY);
      checkDelay("prefillPerToken", prefillPerToken, MAX_PREFILL);
      checkDelay("itl", itl, MAX_DELAY);
      checkDelay("stallDuration", stallDuration, MAX_DELAY);
      checkDelay("startupDelay", startupDelay, MAX_DELAY);
      require(jitter >= 0 && jitter <= 1, "jitter must be a fraction in 0..1, got " + jitter);
      require(tokensPerChunk >= 1 && tokensPerChunk <= MAX_OUTPUT_TOKENS,
          "tokensPerChunk must be in 1.." + MAX_OUTPUT_TOKENS + ", got " + tokensPerChunk);
      require(maxRunning >= 1, "maxRunning must be >= 1, got " + maxRunning);
      require(defaultMaxTokens >= 1 && defaultMaxTokens <= MAX_OUTPUT_TOKENS,
          "defaultMaxTokens must be in 1.." + MAX_OUTPUT_TOKENS + ", got " + defaultMaxTokens);
      checkRate("errorRate", errorRate);
      checkRate("disconnectRate", disconnectRate);
      checkRate("inBandErrorRate", inBandErrorRate);
      checkRate("stallRate", stallRate);
      require(ioThreads >= 1 && ioThreads <= 64, "ioThreads must be in 1..64, got " + ioThreads);
      require(transport != null, "transport must be one of AUTO, NIO, EPOLL, got null");
      require(reasoningTokens >= 0 && reasoningTokens <= MAX_OUTPUT_TOKENS,
          "reasoningTokens must be in 0.." + MAX_OUTPUT_TOKENS + ", got " + reasoningTokens);
      require("reasoning_content".equals(reasoningField) || "reasoning".equals(reasoningField),
          "reasoningField must be reasoning_content or reasoning, got '" + reasoningField + "'");
      require(connectionPolicy != null,
          "connectionPolicy must be one of KEEP_ALIVE, CLOSE_AFTER_RESPONSE, CONNECTION_CLOSE,"
              + " got null");
      require(keepAliveMax >= 0 && keepAliveMax <= MAX_OUTPUT_TOKENS,
          "keepAliveMax must be in 0.." + MAX_OUTPUT_TOKENS + " (0 = no limit), got "
              + keepAliveMax);
      require(keepAliveMax == 0 || connectionPolicy == ConnectionPolicy.KEEP_ALIVE,
          "keepAliveMax limits kept-alive connections: it needs connectionPolicy KEEP_ALIVE, got "
              + connectionPolicy);
      checkRate("mergedTokenRate", mergedTokenRate);
      checkRate("missingRoleRate", missingRoleRate);
      require(contextTokens >= 1 && contextTokens <= MAX_OUTPUT_TOKENS,
          "contextTokens must be in 1.." + MAX_OUTPUT_TOKENS + ", got " + contextTokens);
      require(tokenizer == null || !tokenizer.isBlank(), "tokenizer must be gpt2, a "
          + "tokenizer.json, its folder or a Hugging Face model id (null for words), got '"
          + tokenizer + "'");
      return new SimulatorConfig(this);
    }

    private static void checkDelay(String name, Duration value, Duration max) {
      require(value != null, name + " must be a duration, got null");
      require(!value.isNegative() && value.compareTo(max) <= 0,
          name + " must be between 0 and " + max + ", got " + value);
    }

    private static void checkRate(String name, double value) {
      require(value >= 0 && value <= 1, name + " must be a fraction in 0..1, got " + value);
    }

    private static void require(boolean ok, String message) {
      if (!ok) {
        throw new IllegalArgumentException(message);
      }
    }
  }
}
