package dev.gatlingllm.sim;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The setters of {@link SimulatorConfig.Builder}, apart from the record so that the record
 * file holds the settings and their meaning, and this one how a builder changes one of them.
 * Users see these methods as the builder's own.
 *
 * <p>A setter names its component by a typed key ({@link Component}), so the compiler checks
 * the value's type; the key finds its record component once, when the class loads, by name
 * and type, so a key that no longer matches the record fails every use of the simulator
 * rather than one setter. The copy goes through the record's components by reflection, so
 * that the list of components is written once, in the record header, and not again as a
 * builder's fields.
 */
abstract class ConfigSetters {

  private static final RecordComponent[] COMPONENTS = SimulatorConfig.class.getRecordComponents();
  private static final Constructor<SimulatorConfig> CANONICAL = canonical();

  /** A record component of {@link SimulatorConfig} holding values of type {@code T}. */
  record Component<T>(int index) {}

  /**
   * The key of the component {@code name}.
   *
   * @throws AssertionError when the record has no such component, or one of another type
   */
  private static <T> Component<T> component(String name, Class<?> type) {
    for (int i = 0; i < COMPONENTS.length; i++) {
      if (COMPONENTS[i].getName().equals(name)) {
        if (COMPONENTS[i].getType() != type) {
          throw new AssertionError("SimulatorConfig." + name + " is a "
              + COMPONENTS[i].getType() + ", not a " + type);
        }
        return new Component<>(i);
      }
    }
    throw new AssertionError("SimulatorConfig has no component " + name);
  }

  static final Component<String> HOST = component("host", String.class);
  static final Component<Integer> PORT = component("port", int.class);
  static final Component<String> MODEL = component("model", String.class);
  static final Component<List<String>> OTHER_MODELS = component("otherModels", List.class);
  static final Component<Duration> TTFT = component("ttft", Duration.class);
  static final Component<Duration> PREFILL_PER_TOKEN = component("prefillPerToken", Duration.class);
  static final Component<Duration> ITL = component("itl", Duration.class);
  static final Component<Double> JITTER = component("jitter", double.class);
  static final Component<Integer> TOKENS_PER_CHUNK = component("tokensPerChunk", int.class);
  static final Component<Integer> MAX_RUNNING = component("maxRunning", int.class);
  static final Component<Integer> DEFAULT_MAX_TOKENS = component("defaultMaxTokens", int.class);
  static final Component<Long> SEED = component("seed", long.class);
  static final Component<Double> ERROR_RATE = component("errorRate", double.class);
  static final Component<Double> DISCONNECT_RATE = component("disconnectRate", double.class);
  static final Component<Double> IN_BAND_ERROR_RATE = component("inBandErrorRate", double.class);
  static final Component<Double> STALL_RATE = component("stallRate", double.class);
  static final Component<Duration> STALL_DURATION = component("stallDuration", Duration.class);
  static final Component<Duration> STARTUP_DELAY = component("startupDelay", Duration.class);
  static final Component<Integer> IO_THREADS = component("ioThreads", int.class);
  static final Component<SimulatorConfig.Transport> TRANSPORT =
      component("transport", SimulatorConfig.Transport.class);
  static final Component<Boolean> CHUNK_LOG = component("chunkLog", boolean.class);
  static final Component<Integer> REASONING_TOKENS = component("reasoningTokens", int.class);
  static final Component<String> REASONING_FIELD = component("reasoningField", String.class);
  static final Component<Boolean> RECORD_REQUESTS = component("recordRequests", boolean.class);
  static final Component<SimulatorConfig.ConnectionPolicy> CONNECTION_POLICY =
      component("connectionPolicy", SimulatorConfig.ConnectionPolicy.class);
  static final Component<Integer> KEEP_ALIVE_MAX = component("keepAliveMax", int.class);
  static final Component<Boolean> USAGE_IN_FINISH_CHUNK =
      component("usageInFinishChunk", boolean.class);
  static final Component<Double> MERGED_TOKEN_RATE = component("mergedTokenRate", double.class);
  static final Component<Boolean> NULL_ROLE_CONTENT = component("nullRoleContent", boolean.class);
  static final Component<Double> MISSING_ROLE_RATE = component("missingRoleRate", double.class);
  static final Component<Boolean> IGNORE_MAX_COMPLETION_TOKENS =
      component("ignoreMaxCompletionTokens", boolean.class);
  static final Component<Integer> CONTEXT_TOKENS = component("contextTokens", int.class);
  static final Component<Boolean> CUT_LONG_PROMPTS = component("cutLongPrompts", boolean.class);
  static final Component<Boolean> ANY_MODEL = component("anyModel", boolean.class);
  static final Component<Boolean> SESSION_CACHE = component("sessionCache", boolean.class);
  static final Component<Boolean> INVALID_JSON_AS_500 =
      component("invalidJsonAs500", boolean.class);
  static final Component<String> TOKENIZER = component("tokenizer", String.class);
  static final Component<Integer> GPUS = component("gpus", int.class);
  static final Component<Double> GPU_IDLE_WATTS = component("gpuIdleWatts", double.class);
  static final Component<Double> GPU_WATTS_PER_REQUEST =
      component("gpuWattsPerRequest", double.class);
  static final Component<Double> GPU_MAX_WATTS = component("gpuMaxWatts", double.class);
  static final Component<Boolean> PROMPT_TOKENS_DETAILS =
      component("promptTokensDetails", boolean.class);
  static final Component<Integer> SPEC_DECODE_TOKENS = component("specDecodeTokens", int.class);
  static final Component<Integer> SPEC_DECODE_ACCEPTED = component("specDecodeAccepted", int.class);
  static final Component<Boolean> TOOL_CALL_ANSWERS = component("toolCallAnswers", boolean.class);
  static final Component<Double> MALFORMED_TOOL_CALL_RATE =
      component("malformedToolCallRate", double.class);
  static final Component<Boolean> AUTO_TOOL_CHOICE = component("autoToolChoice", boolean.class);
  static final Component<Double> INVALID_STRUCTURED_RATE =
      component("invalidStructuredRate", double.class);

  private static Constructor<SimulatorConfig> canonical() {
    try {
      return SimulatorConfig.class.getDeclaredConstructor(Arrays.stream(COMPONENTS)
          .map(RecordComponent::getType).toArray(Class<?>[]::new));
    } catch (NoSuchMethodException e) {
      throw new AssertionError("a record has its canonical constructor", e);
    }
  }

  /** The configuration this builder holds. */
  abstract SimulatorConfig config();

  /** A builder holding {@code config}. */
  abstract SimulatorConfig.Builder holding(SimulatorConfig config);

  /** A builder holding this one's configuration with {@code component} set to {@code value}. */
  <T> SimulatorConfig.Builder with(Component<T> component, T value) {
    Object[] values = new Object[COMPONENTS.length];
    try {
      for (int i = 0; i < COMPONENTS.length; i++) {
        values[i] = i == component.index() ? value : COMPONENTS[i].getAccessor().invoke(config());
      }
      return holding(CANONICAL.newInstance(values));
    } catch (IllegalAccessException | InstantiationException | InvocationTargetException e) {
      throw new AssertionError("cannot copy SimulatorConfig", e);
    }
  }

  /** See {@link SimulatorConfig#host()}. */
  public SimulatorConfig.Builder host(String value) {
    return with(HOST, value);
  }

  /** See {@link SimulatorConfig#port()}. */
  public SimulatorConfig.Builder port(int value) {
    return with(PORT, value);
  }

  /** See {@link SimulatorConfig#model()}. */
  public SimulatorConfig.Builder model(String value) {
    return with(MODEL, value);
  }

  /** See {@link SimulatorConfig#models()}: the first is {@link SimulatorConfig#model()}. */
  public SimulatorConfig.Builder models(List<String> names) {
    if (names == null || names.isEmpty()) {
      throw new IllegalArgumentException("models must name at least one model, got "
          + names);
    }
    // an ArrayList: a null name reaches build(), which names it
    return with(MODEL, names.get(0))
        .with(OTHER_MODELS, new ArrayList<>(names.subList(1, names.size())));
  }

  /** See {@link SimulatorConfig#ttft()}. */
  public SimulatorConfig.Builder ttft(Duration value) {
    return with(TTFT, value);
  }

  /** See {@link SimulatorConfig#prefillPerToken()}. */
  public SimulatorConfig.Builder prefillPerToken(Duration value) {
    return with(PREFILL_PER_TOKEN, value);
  }

  /** See {@link SimulatorConfig#itl()}. */
  public SimulatorConfig.Builder itl(Duration value) {
    return with(ITL, value);
  }

  /** See {@link SimulatorConfig#jitter()}. */
  public SimulatorConfig.Builder jitter(double value) {
    return with(JITTER, value);
  }

  /** See {@link SimulatorConfig#tokensPerChunk()}. */
  public SimulatorConfig.Builder tokensPerChunk(int value) {
    return with(TOKENS_PER_CHUNK, value);
  }

  /** See {@link SimulatorConfig#maxRunning()}. */
  public SimulatorConfig.Builder maxRunning(int value) {
    return with(MAX_RUNNING, value);
  }

  /** See {@link SimulatorConfig#defaultMaxTokens()}. */
  public SimulatorConfig.Builder defaultMaxTokens(int value) {
    return with(DEFAULT_MAX_TOKENS, value);
  }

  /** See {@link SimulatorConfig#seed()}. */
  public SimulatorConfig.Builder seed(long value) {
    return with(SEED, value);
  }

  /** See {@link SimulatorConfig#errorRate()}. */
  public SimulatorConfig.Builder errorRate(double value) {
    return with(ERROR_RATE, value);
  }

  /** See {@link SimulatorConfig#disconnectRate()}. */
  public SimulatorConfig.Builder disconnectRate(double value) {
    return with(DISCONNECT_RATE, value);
  }

  /** See {@link SimulatorConfig#inBandErrorRate()}. */
  public SimulatorConfig.Builder inBandErrorRate(double value) {
    return with(IN_BAND_ERROR_RATE, value);
  }

  /** See {@link SimulatorConfig#stallRate()}. */
  public SimulatorConfig.Builder stallRate(double value) {
    return with(STALL_RATE, value);
  }

  /** See {@link SimulatorConfig#stallDuration()}. */
  public SimulatorConfig.Builder stallDuration(Duration value) {
    return with(STALL_DURATION, value);
  }

  /** See {@link SimulatorConfig#startupDelay()}. */
  public SimulatorConfig.Builder startupDelay(Duration value) {
    return with(STARTUP_DELAY, value);
  }

  /** See {@link SimulatorConfig#ioThreads()}. */
  public SimulatorConfig.Builder ioThreads(int value) {
    return with(IO_THREADS, value);
  }

  /** See {@link SimulatorConfig#transport()}. */
  public SimulatorConfig.Builder transport(SimulatorConfig.Transport value) {
    return with(TRANSPORT, value);
  }

  /** See {@link SimulatorConfig#chunkLog()}. */
  public SimulatorConfig.Builder chunkLog(boolean value) {
    return with(CHUNK_LOG, value);
  }

  /** See {@link SimulatorConfig#reasoningTokens()}. */
  public SimulatorConfig.Builder reasoningTokens(int value) {
    return with(REASONING_TOKENS, value);
  }

  /** See {@link SimulatorConfig#reasoningField()}. */
  public SimulatorConfig.Builder reasoningField(String value) {
    return with(REASONING_FIELD, value);
  }

  /** See {@link SimulatorConfig#recordRequests()}. */
  public SimulatorConfig.Builder recordRequests(boolean value) {
    return with(RECORD_REQUESTS, value);
  }

  /** See {@link SimulatorConfig#connectionPolicy()}. */
  public SimulatorConfig.Builder connectionPolicy(SimulatorConfig.ConnectionPolicy value) {
    return with(CONNECTION_POLICY, value);
  }

  /** See {@link SimulatorConfig#keepAliveMax()}. */
  public SimulatorConfig.Builder keepAliveMax(int value) {
    return with(KEEP_ALIVE_MAX, value);
  }

  /**
   * Sets every dialect switch to {@code dialect}'s habits (see {@link SimulatorConfig.Dialect}); the
   * context size is left as it is.
   */
  public SimulatorConfig.Builder dialect(SimulatorConfig.Dialect dialect) {
    boolean llama = dialect == SimulatorConfig.Dialect.LLAMACPP;
    return usageInFinishChunk(llama)
        .mergedTokenRate(llama ? 0.01 : 0)
        .nullRoleContent(llama)
        .missingRoleRate(llama ? 0.05 : 0)
        .ignoreMaxCompletionTokens(llama)
        .cutLongPrompts(llama)
        .anyModel(llama)
        .invalidJsonAs500(llama);
  }

  /** See {@link SimulatorConfig#usageInFinishChunk()}. */
  public SimulatorConfig.Builder usageInFinishChunk(boolean value) {
    return with(USAGE_IN_FINISH_CHUNK, value);
  }

  /** See {@link SimulatorConfig#mergedTokenRate()}. */
  public SimulatorConfig.Builder mergedTokenRate(double value) {
    return with(MERGED_TOKEN_RATE, value);
  }

  /** See {@link SimulatorConfig#nullRoleContent()}. */
  public SimulatorConfig.Builder nullRoleContent(boolean value) {
    return with(NULL_ROLE_CONTENT, value);
  }

  /** See {@link SimulatorConfig#missingRoleRate()}. */
  public SimulatorConfig.Builder missingRoleRate(double value) {
    return with(MISSING_ROLE_RATE, value);
  }

  /** See {@link SimulatorConfig#ignoreMaxCompletionTokens()}. */
  public SimulatorConfig.Builder ignoreMaxCompletionTokens(boolean value) {
    return with(IGNORE_MAX_COMPLETION_TOKENS, value);
  }

  /** See {@link SimulatorConfig#contextTokens()}. */
  public SimulatorConfig.Builder contextTokens(int value) {
    return with(CONTEXT_TOKENS, value);
  }

  /** See {@link SimulatorConfig#cutLongPrompts()}. */
  public SimulatorConfig.Builder cutLongPrompts(boolean value) {
    return with(CUT_LONG_PROMPTS, value);
  }

  /** See {@link SimulatorConfig#anyModel()}. */
  public SimulatorConfig.Builder anyModel(boolean value) {
    return with(ANY_MODEL, value);
  }

  /** See {@link SimulatorConfig#sessionCache()}. */
  public SimulatorConfig.Builder sessionCache(boolean value) {
    return with(SESSION_CACHE, value);
  }

  /** See {@link SimulatorConfig#invalidJsonAs500()}. */
  public SimulatorConfig.Builder invalidJsonAs500(boolean value) {
    return with(INVALID_JSON_AS_500, value);
  }

  /** See {@link SimulatorConfig#tokenizer()}; null for whitespace-separated words. */
  public SimulatorConfig.Builder tokenizer(String pathOrModelId) {
    return with(TOKENIZER, pathOrModelId);
  }

  /** See {@link SimulatorConfig#gpus()}; 0 for none. */
  public SimulatorConfig.Builder gpus(int value) {
    return with(GPUS, value);
  }

  /** See {@link SimulatorConfig#gpuIdleWatts()}. */
  public SimulatorConfig.Builder gpuIdleWatts(double value) {
    return with(GPU_IDLE_WATTS, value);
  }

  /** See {@link SimulatorConfig#gpuWattsPerRequest()}. */
  public SimulatorConfig.Builder gpuWattsPerRequest(double value) {
    return with(GPU_WATTS_PER_REQUEST, value);
  }

  /** See {@link SimulatorConfig#gpuMaxWatts()}. */
  public SimulatorConfig.Builder gpuMaxWatts(double value) {
    return with(GPU_MAX_WATTS, value);
  }

  /** See {@link SimulatorConfig#promptTokensDetails()}. */
  public SimulatorConfig.Builder promptTokensDetails(boolean value) {
    return with(PROMPT_TOKENS_DETAILS, value);
  }

  /**
   * Simulated speculative decoding: {@code tokens} proposed per draft, the first
   * {@code accepted} of them accepted (see {@link SimulatorConfig#specDecodeTokens()}).
   */
  public SimulatorConfig.Builder specDecode(int tokens, int accepted) {
    return specDecodeTokens(tokens).specDecodeAccepted(accepted);
  }

  /** See {@link SimulatorConfig#specDecodeTokens()}. */
  public SimulatorConfig.Builder specDecodeTokens(int tokens) {
    return with(SPEC_DECODE_TOKENS, tokens);
  }

  /** See {@link SimulatorConfig#specDecodeAccepted()}. */
  public SimulatorConfig.Builder specDecodeAccepted(int accepted) {
    return with(SPEC_DECODE_ACCEPTED, accepted);
  }

  /** See {@link SimulatorConfig#toolCallAnswers()}. */
  public SimulatorConfig.Builder toolCallAnswers(boolean value) {
    return with(TOOL_CALL_ANSWERS, value);
  }

  /** See {@link SimulatorConfig#malformedToolCallRate()}. */
  public SimulatorConfig.Builder malformedToolCallRate(double value) {
    return with(MALFORMED_TOOL_CALL_RATE, value);
  }

  /** See {@link SimulatorConfig#autoToolChoice()}. */
  public SimulatorConfig.Builder autoToolChoice(boolean value) {
    return with(AUTO_TOOL_CHOICE, value);
  }

  /** See {@link SimulatorConfig#invalidStructuredRate()}. */
  public SimulatorConfig.Builder invalidStructuredRate(double value) {
    return with(INVALID_STRUCTURED_RATE, value);
  }
}
