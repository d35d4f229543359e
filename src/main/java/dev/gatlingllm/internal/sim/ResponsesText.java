package dev.gatlingllm.internal.sim;

/**
 * The Responses API's texts ({@code /v1/responses}), shaped like vLLM's: a stream of typed
 * SSE events ({@code event: <type>} then {@code data: {"type": <type>, ...}}) that opens with
 * {@code response.created}, carries the text in {@code response.output_text.delta} events
 * (reasoning in {@code response.reasoning_text.delta}) and closes with
 * {@code response.completed} and its usage, with no {@code [DONE]}; or one response object.
 * One instance per request: it numbers the events.
 */
final class ResponsesText implements TypedEvents {

  private final String id;
  private final String messageId;
  private final long createdEpochSeconds;
  private final String model;
  private int sequence;

  ResponsesText(long number, long createdEpochSeconds, String model) {
    this.id = "resp_" + number;
    this.messageId = "msg_" + number;
    this.createdEpochSeconds = createdEpochSeconds;
    this.model = ResponseText.quote(model);
  }

  /** The events before the first delta: created, in progress, the message item and part. */
  @Override
  public String opening() {
    return event("response.created", "\"response\":" + response("in_progress", "[]", "null"))
        + event("response.in_progress", "\"response\":" + response("in_progress", "[]", "null"))
        + event("response.output_item.added", "\"output_index\":0,\"item\":{\"id\":\""
            + messageId + "\",\"type\":\"message\",\"role\":\"assistant\",\"status\":"
            + "\"in_progress\",\"content\":[]}")
        + event("response.content_part.added", "\"item_id\":\"" + messageId
            + "\",\"output_index\":0,\"content_index\":0,\"part\":{\"type\":\"output_text\","
            + "\"text\":\"\",\"annotations\":[]}");
  }

  /** One text delta (token texts are plain words that need no escaping). */
  @Override
  public String delta(String text) {
    return event("response.output_text.delta", "\"item_id\":\"" + messageId
        + "\",\"output_index\":0,\"content_index\":0,\"delta\":\"" + text + "\",\"logprobs\":[]");
  }

  /** One reasoning delta. */
  @Override
  public String reasoningDelta(String text) {
    return event("response.reasoning_text.delta", "\"item_id\":\"rs_" + messageId
        + "\",\"output_index\":0,\"content_index\":0,\"delta\":\"" + text + "\"");
  }

  /** The closing events: the text done, the part and item done, then completed with usage. */
  @Override
  public String closing(String text, int inputTokens, int outputTokens) {
    return event("response.output_text.done", "\"item_id\":\"" + messageId
            + "\",\"output_index\":0,\"content_index\":0,\"text\":\"" + text + "\",\"logprobs\":[]")
        + event("response.content_part.done", "\"item_id\":\"" + messageId
            + "\",\"output_index\":0,\"content_index\":0,\"part\":" + part(text))
        + event("response.output_item.done", "\"output_index\":0,\"item\":" + message(text))
        + event("response.completed", "\"response\":" + response("completed",
            "[" + message(text) + "]", usage(inputTokens, outputTokens)));
  }

  /** The in-band failure vLLM streams once the stream started: an {@code error} event. */
  @Override
  public String errorEvent() {
    return event("error", "\"code\":\"InternalServerError\",\"message\":"
        + "\"Simulated in-band error (fault injection)\",\"param\":null");
  }

  /** The whole non-streamed response object (its reasoning is not written). */
  @Override
  public String whole(String reasoning, String text, int inputTokens, int outputTokens) {
    return response("completed", "[" + message(text) + "]", usage(inputTokens, outputTokens));
  }

  private String event(String type, String members) {
    return "event: " + type + "\ndata: {\"type\":\"" + type + "\",\"sequence_number\":"
        + sequence++ + "," + members + "}\n\n";
  }

  private String response(String status, String output, String usage) {
    return "{\"id\":\"" + id + "\",\"object\":\"response\",\"created_at\":"
        + createdEpochSeconds + ",\"model\":" + model + ",\"status\":\"" + status
        + "\",\"error\":null,\"incomplete_details\":null,\"output\":" + output
        + ",\"usage\":" + usage + "}";
  }

  private String message(String text) {
    return "{\"id\":\"" + messageId + "\",\"type\":\"message\",\"role\":\"assistant\","
        + "\"status\":\"completed\",\"content\":[" + part(text) + "]}";
  }

  private static String part(String text) {
    return "{\"type\":\"output_text\",\"text\":\"" + text + "\",\"annotations\":[]}";
  }

  private static String usage(int inputTokens, int outputTokens) {
    return "{\"input_tokens\":" + inputTokens + ",\"input_tokens_details\":{\"cached_tokens\":0},"
        + "\"output_tokens\":" + outputTokens + ",\"output_tokens_details\":"
        + "{\"reasoning_tokens\":0},\"total_tokens\":" + ((long) inputTokens + outputTokens) + "}";
  }
}
