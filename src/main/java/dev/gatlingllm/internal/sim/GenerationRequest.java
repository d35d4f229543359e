package dev.gatlingllm.internal.sim;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatlingllm.sim.SimulatorConfig;
import io.netty.buffer.ByteBuf;
import java.util.Set;

/**
 * The parts of a {@code /v1/completions}, {@code /v1/chat/completions}, {@code /v1/responses}
 * or {@code /v1/messages} body the simulator acts on. Sampling parameters
 * ({@code temperature}, {@code ignore_eos}, ...) and any other field a client's extra body
 * may carry are accepted and ignored, as vLLM accepts unknown fields: the output is always
 * {@code maxTokens} tokens long. {@code min_tokens} is checked as vLLM checks it, and
 * honoured: without a token budget the output is at least that long.
 *
 * @param chat         true for the chat endpoint (and the Responses API, chat-shaped too)
 * @param responses    true for the Responses API: typed events, usage always at the end
 * @param stream       {@code stream: true}
 * @param includeUsage {@code stream_options.include_usage: true}
 * @param promptTokens prompt length by the simulator's tokenizer ({@link SimTokenizer})
 * @param maxTokens    output length
 * @param promptText   the prompt as sent (chat: the messages' JSON), for the prefix cache;
 *                     empty when there is none (audio)
 * @param model        the model name the answer carries: the served one, or the request's
 *                     when {@link SimulatorConfig#anyModel()} accepts it; null for the served one
 * @param messages     true for the Anthropic Messages API ({@code /v1/messages}): typed events,
 *                     thinking blocks, usage always at the end
 */
record GenerationRequest(boolean chat, boolean responses, boolean stream, boolean includeUsage,
    int promptTokens, int maxTokens, String promptText, String model, boolean messages) {

  /** A request of the OpenAI APIs (completions, chat, Responses). */
  GenerationRequest(boolean chat, boolean responses, boolean stream, boolean includeUsage,
      int promptTokens, int maxTokens, String promptText, String model) {
    this(chat, responses, stream, includeUsage, promptTokens, maxTokens, promptText, model,
        false);
  }

  /** A request without prompt text (nothing for the prefix cache to match). */
  GenerationRequest(boolean chat, boolean stream, boolean includeUsage, int promptTokens,
      int maxTokens) {
    this(chat, false, stream, includeUsage, promptTokens, maxTokens, "", null);
  }

  static final int MAX_TOKENS_LIMIT = 1_000_000;
  /**
   * Parses and checks a request body like vLLM does, or like the dialect of {@code config}
   * (see {@link SimulatorConfig.Builder#dialect}).
   *
   * @throws ApiError 400 for a malformed request (500 for invalid JSON when the dialect says
   *     so), 404 for another model than the served one (unless any model is accepted)
   */
  static GenerationRequest parse(boolean chat, ByteBuf body, SimulatorConfig config,
      SimTokenizer tokens) throws ApiError {
    JsonNode root = root(body, config);
    String echoed = model(root, config);
    boolean stream = bool(root, "stream");
    JsonNode options = root.get("stream_options");
    boolean includeUsage = false;
    if (options != null && !options.isNull()) {
      if (!stream) {
        throw ApiError.badRequest("Stream options can only be defined when `stream=True`.");
      }
      if (!options.isObject()) {
        throw ApiError.badRequest("stream_options must be an object");
      }
      includeUsage = bool(options, "include_usage");
    }
    int prompt = chat ? chatPromptTokens(root, tokens) : completionPromptTokens(root, tokens);
    if (config.cutLongPrompts()) {
      prompt = Math.min(prompt, config.contextTokens());
    }
    String maxField = chat && present(root, "max_completion_tokens")
        ? "max_completion_tokens" : "max_tokens";
    int maxTokens = outputTokens(root, maxField, config);
    if (maxField.equals("max_completion_tokens") && config.ignoreMaxCompletionTokens()) {
      // checked like any value, then ignored: the stream runs until the context is full
      maxTokens = Math.max(1, config.contextTokens() - prompt);
    }
    JsonNode promptNode = root.get(chat ? "messages" : "prompt");
    String promptText = promptNode.isTextual() ? promptNode.textValue() : promptNode.toString();
    return new GenerationRequest(chat, false, stream, includeUsage, prompt, maxTokens,
        promptText, echoed);
  }

  /**
   * A Responses API body ({@code /v1/responses}): {@code input} (a string or a list of
   * messages), {@code instructions}, {@code max_output_tokens}. Its stream always ends with the
   * usage, in the {@code response.completed} event.
   */
  static GenerationRequest parseResponses(ByteBuf body, SimulatorConfig config,
      SimTokenizer tokens) throws ApiError {
    JsonNode root = root(body, config);
    String echoed = model(root, config);
    boolean stream = bool(root, "stream");
    JsonNode input = root.get("input");
    int prompt;
    if (input == null || input.isNull()) {
      throw ApiError.badRequest("input is required");
    } else if (input.isTextual()) {
      prompt = tokens.count(input.textValue());
    } else if (input.isArray() && !input.isEmpty()) {
      prompt = 0;
      for (JsonNode message : input) {
        if (!message.isObject()) {
          throw ApiError.badRequest("each input item must be an object, got " + show(message));
        }
        prompt += contentTokens(message.get("content"), tokens);
      }
    } else {
      throw ApiError.badRequest("input must be a string or a non-empty list of messages, got "
          + show(input));
    }
    JsonNode instructions = root.get("instructions");
    if (instructions != null && instructions.isTextual()) {
      prompt += tokens.count(instructions.textValue());
    }
    if (config.cutLongPrompts()) {
      prompt = Math.min(prompt, config.contextTokens());
    }
    int maxTokens = outputTokens(root, "max_output_tokens", config);
    String promptText = input.isTextual() ? input.textValue() : input.toString();
    return new GenerationRequest(true, true, stream, true, prompt, maxTokens, promptText, echoed);
  }

  /**
   * An Anthropic Messages API body ({@code /v1/messages}), checked as vLLM's server checks it:
   * {@code model}, {@code messages} (a list of {@code {role, content}} objects, the role
   * {@code user}, {@code assistant} or {@code system}, the content a string or a list of
   * typed blocks) and a positive {@code max_tokens} are required; {@code system} is a string
   * or a list of blocks. vLLM refuses a malformed body with its 400 (its OpenAI error body, as
   * its request validation answers every route), and a model it does not serve with a 404 in
   * the Messages API's own error shape. Its stream always ends with the usage.
   */
  static GenerationRequest parseMessages(ByteBuf body, SimulatorConfig config,
      SimTokenizer tokens) throws ApiError {
    JsonNode root = root(body, config);
    JsonNode requested = root.get("model");
    if (requested == null || requested.isNull()) {
      throw ApiError.badRequest("model: Field required");
    }
    String echoed;
    try {
      echoed = model(root, config);
    } catch (ApiError e) {
      // the unknown model is the handler's answer; a malformed one, the request validation's
      throw e.status().code() == 404 ? e.inMessagesShape() : e;
    }
    JsonNode messages = root.get("messages");
    if (messages == null || messages.isNull()) {
      throw ApiError.badRequest("messages: Field required");
    }
    if (!messages.isArray()) {
      throw ApiError.badRequest("messages: Input should be a valid list, got " + show(messages));
    }
    int prompt = 0;
    for (JsonNode message : messages) {
      String role = message.path("role").asText("");
      if (!message.isObject() || !MESSAGE_ROLES.contains(role)) {
        throw ApiError.badRequest("messages: each message is an object whose role is 'user', "
            + "'assistant' or 'system', got " + show(message));
      }
      prompt += blockTokens(message.get("content"), "messages.content", false, tokens);
    }
    prompt += blockTokens(root.get("system"), "system", true, tokens);
    if (!present(root, "max_tokens")) {
      throw ApiError.badRequest("max_tokens: Field required");
    }
    JsonNode max = root.get("max_tokens");
    if (max.isIntegralNumber() && max.canConvertToLong() && max.longValue() <= 0) {
      throw ApiError.badRequest("max_tokens: Value error, max_tokens must be positive");
    }
    int maxTokens = maxTokens(max, "max_tokens");
    if (config.cutLongPrompts()) {
      prompt = Math.min(prompt, config.contextTokens());
    }
    boolean stream = bool(root, "stream");
    return new GenerationRequest(true, false, stream, true, prompt, maxTokens,
        messages.toString(), echoed, true);
  }

  /** The roles vLLM's Messages API takes ({@code ctx} and {@code msg} it maps to user). */
  private static final Set<String> MESSAGE_ROLES =
      Set.of("user", "assistant", "system", "ctx", "msg");
  /** The content block types vLLM's Messages API takes. */
  private static final Set<String> BLOCK_TYPES = Set.of("text", "image",
      "tool_use", "tool_result", "tool_reference", "thinking", "redacted_thinking");

  /**
   * The tokens of a Messages API content (a string, or a list of typed blocks whose text
   * blocks count); {@code optional} lets it be absent.
   */
  private static int blockTokens(JsonNode content, String field, boolean optional,
      SimTokenizer tokens) throws ApiError {
    if (content == null || content.isNull()) {
      if (optional) {
        return 0;
      }
      throw ApiError.badRequest(field + ": Field required");
    }
    if (content.isTextual()) {
      return tokens.count(content.textValue());
    }
    if (!content.isArray()) {
      throw ApiError.badRequest(field + ": Input should be a string or a list of content "
          + "blocks, got " + show(content));
    }
    int total = 0;
    for (JsonNode block : content) {
      if (!block.isObject() || !BLOCK_TYPES.contains(block.path("type").asText(""))) {
        throw ApiError.badRequest(field + ": each block is an object of a known type "
            + BLOCK_TYPES.stream().sorted().toList() + ", got " + show(block));
      }
      if (block.path("type").asText().equals("text") && block.path("text").isTextual()) {
        total += tokens.count(block.get("text").textValue());
      }
    }
    return total;
  }

  private static JsonNode root(ByteBuf body, SimulatorConfig config) throws ApiError {
    try {
      return RequestJson.object(body);
    } catch (ApiError e) {
      throw config.invalidJsonAs500() ? ApiError.serverError(e.getMessage()) : e;
    }
  }

  /**
   * The model the answer carries when the request names one: null for the default model.
   *
   * @throws ApiError 404 for a model not served (unless any model is accepted)
   */
  private static String model(JsonNode root, SimulatorConfig config) throws ApiError {
    JsonNode requested = root.get("model");
    if (requested == null || requested.isNull()) {
      return null;
    }
    if (!requested.isTextual()) {
      throw ApiError.badRequest("model must be a string");
    }
    String name = requested.textValue();
    if (!config.anyModel() && !config.serves(name)) {
      throw ApiError.modelNotFound(name);
    }
    return config.anyModel() || !name.equals(config.model()) ? name : null;
  }

  /**
   * The output length: the budget in {@code field}, else the default; never below
   * {@code min_tokens}, which may not exceed a given budget (vLLM's 400 otherwise).
   */
  private static int outputTokens(JsonNode root, String field, SimulatorConfig config)
      throws ApiError {
    boolean given = present(root, field);
    int max = given ? maxTokens(root.get(field), field) : config.defaultMaxTokens();
    if (!present(root, "min_tokens")) {
      return max;
    }
    JsonNode v = root.get("min_tokens");
    if (!v.isIntegralNumber() || !v.canConvertToInt()) {
      throw ApiError.badRequest("min_tokens must be an integer, got " + show(v));
    }
    if (v.intValue() < 0) {
      throw ApiError.badRequest(
          "min_tokens must be greater than or equal to 0, got " + v.intValue() + ".");
    }
    int min = v.intValue();
    if (given && min > max) {
      throw ApiError.badRequest("min_tokens must be less than or equal to " + field + "="
          + max + ", got " + min + ".");
    }
    if (min > MAX_TOKENS_LIMIT) {
      throw ApiError.badRequest("min_tokens must be at most " + MAX_TOKENS_LIMIT
          + " in the simulator, got " + min + ".");
    }
    return Math.max(max, min);
  }

  private static boolean present(JsonNode node, String field) {
    JsonNode v = node.get(field);
    return v != null && !v.isNull();
  }

  private static boolean bool(JsonNode node, String field) throws ApiError {
    JsonNode v = node.get(field);
    if (v == null || v.isNull()) {
      return false;
    }
    if (!v.isBoolean()) {
      throw ApiError.badRequest(field + " must be a boolean, got " + show(v));
    }
    return v.booleanValue();
  }

  private static int maxTokens(JsonNode v, String field) throws ApiError {
    if (!v.isIntegralNumber() || !v.canConvertToLong()) {
      throw ApiError.badRequest(field + " must be an integer, got " + show(v));
    }
    long n = v.longValue();
    if (n < 1) {
      throw ApiError.badRequest(field + " must be at least 1, got " + n + ".");
    }
    if (n > MAX_TOKENS_LIMIT) {
      throw ApiError.badRequest(field + " must be at most " + MAX_TOKENS_LIMIT
          + " in the simulator, got " + n + ".");
    }
    return (int) n;
  }

  private static int completionPromptTokens(JsonNode root, SimTokenizer tokens)
      throws ApiError {
    JsonNode prompt = root.get("prompt");
    if (prompt == null || prompt.isNull()) {
      throw ApiError.badRequest("prompt is required");
    }
    if (prompt.isTextual()) {
      return tokens.count(prompt.textValue());
    }
    if (prompt.isArray() && prompt.size() == 1 && prompt.get(0).isTextual()) {
      return tokens.count(prompt.get(0).textValue());
    }
    if (prompt.isArray() && prompt.size() > 0 && allIntegers(prompt)) {
      return prompt.size();
    }
    if (prompt.isArray() && prompt.size() > 1 && prompt.get(0).isTextual()) {
      throw ApiError.badRequest("the simulator takes one prompt per request, got " + prompt.size());
    }
    throw ApiError.badRequest(
        "prompt must be a string, a list of one string or a non-empty list of token ids");
  }

  private static boolean allIntegers(JsonNode array) {
    for (JsonNode e : array) {
      if (!e.isIntegralNumber()) {
        return false;
      }
    }
    return true;
  }

  private static int chatPromptTokens(JsonNode root, SimTokenizer tokens) throws ApiError {
    JsonNode messages = root.get("messages");
    if (messages == null || messages.isNull()) {
      throw ApiError.badRequest("messages is required");
    }
    if (!messages.isArray() || messages.isEmpty()) {
      throw ApiError.badRequest("messages must be a non-empty list of {role, content} objects");
    }
    int total = 0;
    for (JsonNode message : messages) {
      if (!message.isObject() || !message.path("role").isTextual()) {
        throw ApiError.badRequest(
            "each message must be an object with a string role, got " + show(message));
      }
      total += contentTokens(message.get("content"), tokens);
    }
    return total;
  }

  private static int contentTokens(JsonNode content, SimTokenizer tokens) throws ApiError {
    if (content == null || content.isNull()) {
      return 0;
    }
    if (content.isTextual()) {
      return tokens.count(content.textValue());
    }
    if (content.isArray()) {
      int total = 0;
      for (JsonNode part : content) {
        String type = part.path("type").asText();
        // chat's text parts; the Responses API's input_text parts
        if ((type.equals("text") || type.equals("input_text")) && part.path("text").isTextual()) {
          total += tokens.count(part.get("text").textValue());
        }
      }
      return total;
    }
    throw ApiError.badRequest(
        "message content must be a string or a list of parts, got " + show(content));
  }

  /** A bad value for an error message, cut short: it may be a whole prompt. */
  private static String show(JsonNode value) {
    String text = value.toString();
    return text.length() <= 60 ? text : text.substring(0, 57) + "...";
  }
}
