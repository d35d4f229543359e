package dev.gatlingllm.action;

import dev.gatlingllm.internal.action.ChatApi;
import dev.gatlingllm.internal.action.CompletionsApi;
import dev.gatlingllm.internal.action.GenerationApi;
import dev.gatlingllm.internal.action.GenerationTemplate;
import dev.gatlingllm.internal.action.RequestSpec;
import dev.gatlingllm.internal.action.ResponsesApi;
import dev.gatlingllm.internal.action.SessionValue;
import io.gatling.javaapi.core.Session;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * One streamed completions or chat request. Immutable: every call returns a new builder.
 * Session-dependent values take a constant, a Gatling EL string ({@code "#{prompt}"}) or a
 * function of the session. Checked when the simulation is built.
 *
 * <pre>{@code
 * exec(LlmDsl.completions("generate")
 *     .prompt("#{prompt}")
 *     .promptTokens("#{prompt_len}")
 *     .maxTokens("#{output_len}")
 *     .ignoreEos(true))
 * }</pre>
 */
public final class LlmRequestBuilder extends RequestBuilderBase<LlmRequestBuilder> {

  /** Body fields the builder writes itself; extraBody may still override them deliberately. */
  private static final Set<String> MANAGED_FIELDS = Set.of("stream", "stream_options");

  /** The temperature sent when none is set: greedy decoding, as the reference tool did. */
  private static final double GREEDY = 0.0;

  private final GenerationApi api;
  private SessionValue<String> prompt;
  private SessionValue<List<Map<String, Object>>> messages;
  private String systemPrompt;
  private SessionValue<Integer> maxTokens;
  private Boolean ignoreEos;
  private Double temperature;
  private boolean serverTemperature;
  private Double topP;
  private Integer topK;
  private Double minP;
  private Double frequencyPenalty;
  private Double presencePenalty;
  private Double repetitionPenalty;
  private Map<String, Object> extraBody = Map.of();
  private boolean stream = true;
  private String saveTextAs;
  private SessionValue<String> model;
  private Integer logprobs;
  private SessionValue<Object> multiModal;
  private SessionValue<Object> promptTokenIds;
  private SessionValue<Object> tools;
  private Object toolChoice;
  private Map<String, Object> responseFormat;

  /**
   * A request of the given generation API, for the backends' own use (under
   * {@code dev.gatlingllm.internal}, through {@code BuilderAccess}); a simulation starts from
   * {@code LlmDsl}'s methods.
   */
  LlmRequestBuilder(GenerationApi api, String name) {
    super(name, api.defaultPath());
    this.api = api;
  }

  /** A completions request ({@code /v1/completions}). */
  public static LlmRequestBuilder completions(String name) {
    return new LlmRequestBuilder(CompletionsApi.INSTANCE, name);
  }

  /** A chat request ({@code /v1/chat/completions}). */
  public static LlmRequestBuilder chat(String name) {
    return new LlmRequestBuilder(ChatApi.INSTANCE, name);
  }

  /**
   * A Responses API request ({@code /v1/responses}, vLLM's Rust client's
   * {@code openai-responses}): the prompt as {@code input}, the system prompt as
   * {@code instructions}, the budget as {@code max_output_tokens}.
   */
  public static LlmRequestBuilder responses(String name) {
    return new LlmRequestBuilder(ResponsesApi.INSTANCE, name);
  }

  /**
   * A request of a generation backend of the {@link Backends} table, e.g.
   * {@code forBackend("openai-responses", name)}, the same as {@link #responses(String)}.
   *
   * @throws IllegalArgumentException when the name is no served backend, or one whose
   *     requests are not generation requests (audio, embeddings, rerank have their builders)
   */
  public static LlmRequestBuilder forBackend(String backend, String name) {
    if (Backends.resolve(backend).api() instanceof GenerationApi generation) {
      return new LlmRequestBuilder(generation, name);
    }
    throw new IllegalArgumentException("--backend " + backend.trim() + " sends no completions, "
        + "chat or Responses request");
  }

  /** Prompt text, or EL such as {@code "#{prompt}"}; for chat it is the user message. */
  public LlmRequestBuilder prompt(String textOrEl) {
    SessionValue<String> v = SessionValue.el("prompt", textOrEl, String.class);
    return copy(b -> b.prompt = v);
  }

  public LlmRequestBuilder prompt(Function<Session, String> f) {
    SessionValue<String> v = SessionValue.function("prompt", f);
    return copy(b -> b.prompt = v);
  }

  /**
   * Chat: a system message sent before the user prompt; Responses: the {@code instructions}.
   */
  public LlmRequestBuilder systemPrompt(String text) {
    if (!api.takesMessages()) {
      throw new IllegalArgumentException("systemPrompt(...) is only for chat and Responses "
          + "requests");
    }
    Objects.requireNonNull(text, "systemPrompt");
    return copy(b -> b.systemPrompt = text);
  }

  /**
   * Chat: the whole message list ({@code [{role, content}, ...]}), e.g. a conversation kept
   * in the session; it replaces prompt and systemPrompt. Responses: the same list sent as
   * {@code input}, replacing the prompt.
   */
  public LlmRequestBuilder messages(Function<Session, List<Map<String, Object>>> f) {
    if (!api.takesMessages()) {
      throw new IllegalArgumentException("messages(...) is only for chat and Responses requests");
    }
    SessionValue<List<Map<String, Object>>> v = SessionValue.function("messages", f);
    return copy(b -> b.messages = v);
  }

  /**
   * Output token budget ({@code max_tokens}; chat: {@code max_completion_tokens}; Responses:
   * {@code max_output_tokens}).
   */
  public LlmRequestBuilder maxTokens(int tokens) {
    requireAtLeast("maxTokens", tokens, 1);
    return copy(b -> b.maxTokens = SessionValue.constant(tokens));
  }

  public LlmRequestBuilder maxTokens(String el) {
    SessionValue<Integer> v = SessionValue.el("maxTokens", el, Integer.class);
    return copy(b -> b.maxTokens = v);
  }

  public LlmRequestBuilder maxTokens(Function<Session, Integer> f) {
    SessionValue<Integer> v = SessionValue.function("maxTokens", f);
    return copy(b -> b.maxTokens = v);
  }

  /**
   * Prompt length in tokens, as the dataset counted it: it feeds total_input_tokens. When not
   * given, the server's {@code usage.prompt_tokens} is used.
   */
  public LlmRequestBuilder promptTokens(int tokens) {
    requireAtLeast("promptTokens", tokens, 0);
    return copy(b -> b.promptTokens = SessionValue.constant(tokens));
  }

  public LlmRequestBuilder promptTokens(Function<Session, Integer> f) {
    SessionValue<Integer> v = SessionValue.function("promptTokens", f);
    return copy(b -> b.promptTokens = v);
  }

  /**
   * Takes prompt, prompt length and output length from the dataset feeders' attributes
   * {@code prompt}, {@code prompt_len} and {@code output_len}.
   */
  public LlmRequestBuilder fromDataset() {
    return prompt("#{prompt}").promptTokens("#{prompt_len}").maxTokens("#{output_len}");
  }

  /** Keeps generating until the token budget is used up (vLLM's {@code ignore_eos}). */
  public LlmRequestBuilder ignoreEos(boolean ignore) {
    return copy(b -> b.ignoreEos = ignore);
  }

  /** Sampling temperature; 0.0 (greedy) when not set, as the reference tool does. */
  public LlmRequestBuilder temperature(double t) {
    requireRange("temperature", t, 0, Double.MAX_VALUE);
    return copy(b -> {
      b.temperature = t;
      b.serverTemperature = false;
    });
  }

  /**
   * Sends no temperature unless {@link #temperature} is set: the server's default, as
   * {@code vllm bench serve} does since vLLM 0.29 (older versions sent 0.0, this builder's
   * default).
   */
  public LlmRequestBuilder serverTemperature() {
    return copy(b -> {
      b.temperature = null;
      b.serverTemperature = true;
    });
  }

  public LlmRequestBuilder topP(double p) {
    if (!(p > 0 && p <= 1)) {
      throw new IllegalArgumentException("topP must be in (0, 1], got " + p);
    }
    return copy(b -> b.topP = p);
  }

  /** Top-k sampling; -1 (or 0) disables it as in vLLM. */
  public LlmRequestBuilder topK(int k) {
    requireAtLeast("topK", k, -1);
    return copy(b -> b.topK = k);
  }

  public LlmRequestBuilder minP(double p) {
    requireRange("minP", p, 0, 1);
    return copy(b -> b.minP = p);
  }

  public LlmRequestBuilder frequencyPenalty(double penalty) {
    requireRange("frequencyPenalty", penalty, -2, 2);
    return copy(b -> b.frequencyPenalty = penalty);
  }

  public LlmRequestBuilder presencePenalty(double penalty) {
    requireRange("presencePenalty", penalty, -2, 2);
    return copy(b -> b.presencePenalty = penalty);
  }

  public LlmRequestBuilder repetitionPenalty(double penalty) {
    if (!(penalty > 0)) {
      throw new IllegalArgumentException("repetitionPenalty must be > 0, got " + penalty);
    }
    return copy(b -> b.repetitionPenalty = penalty);
  }

  /** Adds a body field as is (any JSON-serialisable value); it wins over a standard field. */
  public LlmRequestBuilder extraBody(String field, Object value) {
    if (field == null || field.isBlank()) {
      throw new IllegalArgumentException("extraBody field name must not be empty");
    }
    if (MANAGED_FIELDS.contains(field)) {
      throw new IllegalArgumentException(
          "extraBody cannot set '" + field + "': use stream(boolean) instead");
    }
    Map<String, Object> fields = with(extraBody, field, value);
    return copy(b -> b.extraBody = fields);
  }

  public LlmRequestBuilder extraBody(Map<String, Object> fields) {
    LlmRequestBuilder b = this;
    for (Map.Entry<String, Object> e : fields.entrySet()) {
      b = b.extraBody(e.getKey(), e.getValue());
    }
    return b;
  }

  /** Streaming (SSE) is on by default; off sends one JSON response (no TTFT/ITL split). */
  public LlmRequestBuilder stream(boolean on) {
    return copy(b -> b.stream = on);
  }

  /** Saves the generated text in the session under this attribute, for multi-turn journeys. */
  public LlmRequestBuilder saveTextAs(String attribute) {
    if (attribute == null || attribute.isBlank()) {
      throw new IllegalArgumentException("saveTextAs attribute must not be empty");
    }
    return copy(b -> b.saveTextAs = attribute);
  }

  /**
   * The {@code model} field of this request instead of the protocol's model (or served name),
   * e.g. {@code "#{lora}"} to spread requests over LoRA adapters as vLLM's
   * {@code --lora-modules} does. The result file still names the protocol's model.
   */
  public LlmRequestBuilder model(String textOrEl) {
    SessionValue<String> v = SessionValue.el("model", textOrEl, String.class);
    return copy(b -> b.model = v);
  }

  public LlmRequestBuilder model(Function<Session, String> f) {
    SessionValue<String> v = SessionValue.function("model", f);
    return copy(b -> b.model = v);
  }

  /** Completions only: log-probabilities of this many top tokens per token ({@code logprobs}). */
  public LlmRequestBuilder logprobs(int topTokens) {
    if (!api.takesTokenPrompt()) {
      throw new IllegalArgumentException("logprobs(...) is only for completions requests");
    }
    requireAtLeast("logprobs", topTokens, 0);
    return copy(b -> b.logprobs = topTokens);
  }

  /**
   * Chat only: images, video or audio sent after the prompt in the user message, as vLLM's
   * {@code openai-chat} backend does for multimodal datasets. The value is one OpenAI content
   * part ({@code {"type": "image_url", "image_url": {"url": "data:image/jpeg;base64,..."}}},
   * {@code video_url}, {@code input_audio}) or a list of them, e.g. {@code "#{mm_content}"}
   * from the {@code random-mm} and multimodal Hugging Face datasets.
   */
  public LlmRequestBuilder multiModal(String el) {
    requireChat("multiModal");
    SessionValue<Object> v = SessionValue.el("multiModal", el, Object.class);
    return copy(b -> b.multiModal = v);
  }

  public LlmRequestBuilder multiModal(Function<Session, Object> f) {
    requireChat("multiModal");
    SessionValue<Object> v = SessionValue.function("multiModal", f);
    return copy(b -> b.multiModal = v);
  }

  /**
   * Completions only: the prompt sent as token ids ({@code "prompt": [ids...]}) instead of
   * its text, as vllm-bench's {@code --prompt-token-ids} sends it; the server does not
   * tokenize it again, so the prompt is exactly these tokens. The value is a list of whole
   * numbers (or an {@code int[]}), e.g. {@code "#{prompt_token_ids}"} from a dataset sampled
   * with {@code PromptTokenIds}. The prompt text stays required (warm-up requests send text).
   */
  public LlmRequestBuilder promptTokenIds(String el) {
    requireCompletions("promptTokenIds");
    SessionValue<Object> v = SessionValue.el("promptTokenIds", el, Object.class);
    return copy(b -> b.promptTokenIds = v);
  }

  public LlmRequestBuilder promptTokenIds(Function<Session, List<Integer>> f) {
    requireCompletions("promptTokenIds");
    SessionValue<List<Integer>> v = SessionValue.function("promptTokenIds", f);
    return copy(b -> b.promptTokenIds = v::resolve);
  }

  /**
   * Chat only: the OpenAI {@code tools} this request offers the model (each
   * {@code {"type": "function", "function": {"name", "description", "parameters"}}}). A
   * streamed answer that calls one is timed to its first tool-call chunk, and each call's
   * arguments are checked to parse as JSON (docs/results.md). Without it, a dataset's tools
   * (BFCL) are sent.
   */
  public LlmRequestBuilder tools(List<Map<String, Object>> tools) {
    requireChatCompletions("tools");
    if (tools == null || tools.isEmpty()) {
      throw new IllegalArgumentException("tools must name at least one tool: vLLM refuses an "
          + "empty list");
    }
    List<Map<String, Object>> copy = List.copyOf(tools);
    return copy(b -> b.tools = session -> copy);
  }

  /** Chat only: the tools from the session, e.g. {@code "#{tools}"}. */
  public LlmRequestBuilder tools(String el) {
    requireChatCompletions("tools");
    SessionValue<Object> v = SessionValue.el("tools", el, Object.class);
    return copy(b -> b.tools = v);
  }

  /**
   * Chat only: {@code tool_choice}: {@code "auto"} (the server's default with tools; vLLM
   * needs {@code --enable-auto-tool-choice} for it), {@code "required"}, {@code "none"}, or
   * the name of one of the tools, sent as the named-function form.
   */
  public LlmRequestBuilder toolChoice(String choice) {
    requireChatCompletions("toolChoice");
    if (choice == null || choice.isBlank()) {
      throw new IllegalArgumentException("toolChoice must be auto, required, none or a "
          + "function's name");
    }
    Object value = switch (choice) {
      case "auto", "required", "none" -> choice;
      default -> Map.of("type", "function", "function", Map.of("name", choice));
    };
    return copy(b -> b.toolChoice = value);
  }

  /**
   * Chat only: structured output. Sends {@code response_format} {@code {"type":
   * "json_schema", "json_schema": {"name": name, "schema": schema}}} and checks each answer
   * against the schema (the subset of docs/results.md): the result's
   * {@code structured_output_valid_rate}. vLLM's own form, {@code structured_outputs: {"json":
   * schema}} given with {@code extraBody}, is checked too.
   */
  public LlmRequestBuilder jsonSchema(String name, Map<String, Object> schema) {
    requireChatCompletions("jsonSchema");
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("jsonSchema needs a name (OpenAI's json_schema.name)");
    }
    dev.gatlingllm.internal.client.JsonSchema.of(schema); // a JSON object, or refused here
    Map<String, Object> format = Map.of("type", "json_schema",
        "json_schema", Map.of("name", name, "schema", schema));
    return copy(b -> b.responseFormat = format);
  }

  /**
   * The spec of a conversation's turn request ({@link ConversationBuilder}): a chat request
   * whose messages and lengths the turns give, so none may be set here.
   */
  RequestSpec conversationSpec() {
    if (!api.chatTemplate()) {
      throw new IllegalArgumentException("conversation(...) takes a chat request, got the "
          + "completions request '" + name + "'");
    }
    if (prompt != null || messages != null || maxTokens != null || promptTokens != null
        || saveTextAs != null || multiModal != null) {
      throw new IllegalArgumentException("conversation(chat(\"" + name + "\")): the turns give"
          + " the messages and the lengths; remove prompt, messages, maxTokens, promptTokens,"
          + " saveTextAs and multiModal from the chat request");
    }
    if (tools != null || toolChoice != null || responseFormat != null) {
      // a conversation's turns are built from its own template, which sends neither
      throw new IllegalArgumentException("conversation(chat(\"" + name + "\")): tools,"
          + " toolChoice and jsonSchema are not sent in a conversation's turns; remove them, or"
          + " send the request on its own");
    }
    return copy(b -> b.messages = session -> java.util.List.of()).spec();
  }

  RequestSpec spec() {
    if (prompt == null && messages == null) {
      throw new IllegalArgumentException("request '" + name + "': prompt(...) is required"
          + (api.takesMessages() ? " (or messages(...))" : ""));
    }
    return new RequestSpec(api, name, path, prompt, messages, systemPrompt, maxTokens,
        promptTokens, ignoreEos, temperature != null ? temperature
            : serverTemperature ? null : GREEDY, topP, topK, minP, frequencyPenalty,
        presencePenalty, repetitionPenalty, Map.copyOf(extraBody), stream, saveTextAs,
        requestId, model, logprobs, multiModal, promptTokenIds, tools, toolChoice,
        responseFormat);
  }

  @Override
  GenerationTemplate template() {
    return new GenerationTemplate(spec());
  }

  private void requireCompletions(String what) {
    if (!api.takesTokenPrompt()) {
      throw new IllegalArgumentException(what + "(...) is only for completions requests: "
          + "chat and Responses requests send messages, which the server tokenizes");
    }
  }

  private void requireChatCompletions(String what) {
    if (api != ChatApi.INSTANCE) {
      throw new IllegalArgumentException(what + "(...) is only for chat requests "
          + "(/v1/chat/completions)");
    }
  }

  private void requireChat(String what) {
    if (!api.chatTemplate()) {
      throw new IllegalArgumentException(what + "(...) is only for chat requests");
    }
  }

  private static void requireAtLeast(String what, int value, int min) {
    if (value < min) {
      throw new IllegalArgumentException(what + " must be >= " + min + ", got " + value);
    }
  }

  private static void requireRange(String what, double value, double min, double max) {
    if (!(value >= min && value <= max)) {
      throw new IllegalArgumentException(
          what + " must be between " + min + " and " + max + ", got " + value);
    }
  }
}
