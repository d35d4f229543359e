package dev.gatlingllm.internal.sim;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.util.List;

/**
 * The JSON and SSE texts the simulator sends, shaped like vLLM's OpenAI server output.
 * Built by hand from per-request prefixes because the streaming path writes one per token;
 * token texts are plain words that need no JSON escaping.
 */
final class ResponseText {

  static final String DONE = "data: [DONE]\n\n";

  /** {@code {"id":..,"object":..,"created":..,"model":..,} shared by every object of a response. */
  private final String head;
  private final boolean chat;
  /**
   * {@code usage.prompt_tokens_details.cached_tokens}, written as vLLM writes it with
   * {@code --enable-prompt-tokens-details}; -1 leaves the details out.
   */
  private long cachedTokens = -1;

  ResponseText(boolean chat, long number, long createdEpochSeconds, String model, boolean chunk) {
    this.chat = chat;
    String object = chat ? (chunk ? "chat.completion.chunk" : "chat.completion") : "text_completion";
    this.head = "{\"id\":\"" + (chat ? "chatcmpl-" : "cmpl-") + number + "\",\"object\":\"" + object
        + "\",\"created\":" + createdEpochSeconds + ",\"model\":" + quote(model) + ",";
  }

  /** One SSE content event carrying {@code text}; the last one has finish_reason "length". */
  String contentEvent(String text, boolean last) {
    String finish = last ? "\"length\"" : "null";
    if (chat) {
      // vLLM's chat chunks omit unset fields; stop_reason is set only with the finish reason.
      return "data: " + head + "\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + text
          + "\"},\"logprobs\":null,\"finish_reason\":" + finish
          + (last ? ",\"stop_reason\":null" : "") + "}]}\n\n";
    }
    return "data: " + head + "\"choices\":[{\"index\":0,\"text\":\"" + text
        + "\",\"logprobs\":null,\"finish_reason\":" + finish + ",\"stop_reason\":null}]"
        + ",\"usage\":null}\n\n";
  }

  /**
   * One SSE chat event carrying a fragment of the tool call at index 0: the first names the
   * call ({@code id}, {@code type}, {@code function.name}), the others carry only the next
   * piece of its arguments, as vLLM streams a call; the last says {@code tool_calls} ended it.
   */
  String toolCallEvent(long number, String name, String argumentsPiece, boolean first,
      boolean last) {
    String call = first
        ? "{\"index\":0,\"id\":\"chatcmpl-tool-" + number + "\",\"type\":\"function\","
            + "\"function\":{\"name\":" + quote(name) + ",\"arguments\":" + quote(argumentsPiece)
            + "}}"
        : "{\"index\":0,\"function\":{\"arguments\":" + quote(argumentsPiece) + "}}";
    return "data: " + head + "\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[" + call
        + "]},\"logprobs\":null,\"finish_reason\":" + (last ? "\"tool_calls\"" : "null")
        + (last ? ",\"stop_reason\":null" : "") + "}]}\n\n";
  }

  /** A chat content event whose text may need JSON escaping (a structured answer's piece). */
  String escapedContentEvent(String text, boolean last) {
    String quoted = quote(text);
    return contentEvent(quoted.substring(1, quoted.length() - 1), last);
  }

  /** The whole non-streamed chat answer that calls one tool. */
  String toolCallCompletion(long number, String name, String arguments, int promptTokens,
      int completionTokens) {
    return head + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
        + "\"content\":null,\"tool_calls\":[{\"id\":\"chatcmpl-tool-" + number + "\","
        + "\"type\":\"function\",\"function\":{\"name\":" + quote(name) + ",\"arguments\":"
        + quote(arguments) + "}}]},\"logprobs\":null,\"finish_reason\":\"tool_calls\","
        + "\"stop_reason\":null}]," + usage(promptTokens, completionTokens) + "}";
  }

  /** One SSE chat event carrying reasoning text in {@code field} instead of content. */
  String reasoningEvent(String text, String field, boolean last) {
    String finish = last ? "\"length\"" : "null";
    return "data: " + head + "\"choices\":[{\"index\":0,\"delta\":{\"" + field + "\":\"" + text
        + "\"},\"logprobs\":null,\"finish_reason\":" + finish
        + (last ? ",\"stop_reason\":null" : "") + "}]}\n\n";
  }

  /** vLLM's embeddings answer: one small vector, and the usage its benchmark reads. */
  static String embeddings(long number, String model, int promptTokens) {
    return "{\"id\":\"embd-" + number + "\",\"object\":\"list\",\"created\":"
        + System.currentTimeMillis() / 1000 + ",\"model\":" + quote(model)
        + ",\"data\":[{\"index\":0,\"object\":\"embedding\",\"embedding\":"
        + "[0.125,-0.25,0.5,0.0625]}],\"usage\":{\"prompt_tokens\":" + promptTokens
        + ",\"total_tokens\":" + promptTokens + ",\"completion_tokens\":0,"
        + "\"prompt_tokens_details\":null}}";
  }

  /** vLLM's rerank answer: a score per document, best first. */
  static String rerank(long number, String model, int documents, int promptTokens) {
    StringBuilder results = new StringBuilder();
    for (int i = 0; i < documents; i++) {
      results.append(i == 0 ? "" : ",").append("{\"index\":").append(i)
          .append(",\"relevance_score\":").append(1.0 / (i + 2)).append('}');
    }
    return "{\"id\":\"rerank-" + number + "\",\"model\":" + quote(model) + ",\"usage\":"
        + "{\"prompt_tokens\":" + promptTokens + ",\"total_tokens\":" + promptTokens + "},"
        + "\"results\":[" + results + "]}";
  }

  /**
   * The chat event sent before the first content: the assistant role, with empty content
   * (vLLM) or null content (llama.cpp).
   */
  String roleEvent(boolean nullContent) {
    return "data: " + head + "\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\","
        + "\"content\":" + (nullContent ? "null" : "\"\"")
        + "},\"logprobs\":null,\"finish_reason\":null}]}\n\n";
  }

  /**
   * llama.cpp's last event: one choice of empty text with the finish reason, the usage and
   * the server's {@code timings} in the same chunk.
   */
  String finishEvent(int promptTokens, int completionTokens, double promptMs, double predictedMs) {
    String choice = chat
        ? "{\"finish_reason\":\"length\",\"index\":0,\"delta\":{}}"
        : "{\"text\":\"\",\"index\":0,\"logprobs\":null,\"finish_reason\":\"length\"}";
    return "data: " + head + "\"choices\":[" + choice + "]," + usage(promptTokens, completionTokens)
        + ",\"timings\":{\"prompt_n\":" + promptTokens + ",\"prompt_ms\":" + round3(promptMs)
        + ",\"predicted_n\":" + completionTokens + ",\"predicted_ms\":" + round3(predictedMs)
        + "}}\n\n";
  }

  private static double round3(double ms) {
    return Math.round(ms * 1000) / 1000.0;
  }

  /** The final usage event sent when {@code stream_options.include_usage} is true. */
  String usageEvent(int promptTokens, int completionTokens) {
    return usageEvent(promptTokens, completionTokens, 0);
  }

  /**
   * The final usage event; with {@code reasoningTokens > 0} it says how many of the
   * completion tokens were reasoning ({@code completion_tokens_details.reasoning_tokens}).
   */
  String usageEvent(int promptTokens, int completionTokens, int reasoningTokens) {
    String usage = usage(promptTokens, completionTokens);
    if (reasoningTokens > 0) {
      usage = usage.substring(0, usage.length() - 1)
          + ",\"completion_tokens_details\":{\"reasoning_tokens\":" + reasoningTokens + "}}";
    }
    return "data: " + head + "\"choices\":[]," + usage + "}\n\n";
  }

  /** The whole non-streaming response body. */
  String completion(String text, int promptTokens, int completionTokens) {
    String choice = chat
        ? "{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"" + text
            + "\"},\"logprobs\":null,\"finish_reason\":\"length\",\"stop_reason\":null}"
        : "{\"index\":0,\"text\":\"" + text + "\",\"logprobs\":null,\"finish_reason\":\"length\","
            + "\"stop_reason\":null,\"prompt_logprobs\":null}";
    return head + "\"choices\":[" + choice + "]," + usage(promptTokens, completionTokens) + "}";
  }

  /** The prompt tokens the prefix cache held, for the usage's details (see the field). */
  void cachedTokens(long tokens) {
    cachedTokens = tokens;
  }

  private String usage(int promptTokens, int completionTokens) {
    return "\"usage\":{\"prompt_tokens\":" + promptTokens + ",\"total_tokens\":"
        + ((long) promptTokens + completionTokens) + ",\"completion_tokens\":" + completionTokens
        + (cachedTokens < 0 ? "" : ",\"prompt_tokens_details\":{\"cached_tokens\":"
            + cachedTokens + "}") + "}";
  }

  /** vLLM's error object: {@code {"object":"error","message":..,"type":..,"param":null,"code":..}}. */
  static String error(String message, String type, int code) {
    return error(message, type, null, code);
  }

  /**
   * vLLM's error body as its current server writes it ({@code ErrorResponse}: the fields
   * nested under {@code error}, {@code code} the HTTP status); {@code param} names the request
   * field at fault, or null.
   */
  static String error(String message, String type, String param, int code) {
    return "{\"error\":{\"message\":" + quote(message) + ",\"type\":\"" + type
        + "\",\"param\":" + (param == null ? "null" : quote(param)) + ",\"code\":" + code
        + "}}";
  }

  /** The in-band error event vLLM streams when generation fails after the stream started. */
  static String inBandErrorEvent() {
    return "data: " + error("Simulated in-band error (fault injection)",
        "InternalServerError", 500) + "\n\n";
  }

  /**
   * The model list of {@code GET /v1/models}: every served name, each with the first as its
   * root, as vLLM lists the names of {@code --served-model-name}.
   */
  static String models(List<String> models, long createdEpochSeconds) {
    String root = quote(models.get(0));
    StringBuilder data = new StringBuilder();
    for (String model : models) {
      data.append(data.length() == 0 ? "" : ",").append("{\"id\":").append(quote(model))
          .append(",\"object\":\"model\",\"created\":").append(createdEpochSeconds)
          .append(",\"owned_by\":\"vllm\",\"root\":").append(root)
          .append(",\"parent\":null,\"max_model_len\":null,\"permission\":[]}");
    }
    return "{\"object\":\"list\",\"data\":[" + data + "]}";
  }

  static String quote(String s) {
    return "\"" + new String(JsonStringEncoder.getInstance().quoteAsString(s)) + "\"";
  }
}
