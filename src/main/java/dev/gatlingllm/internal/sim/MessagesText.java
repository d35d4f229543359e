package dev.gatlingllm.internal.sim;

/**
 * The Anthropic Messages API's texts ({@code /v1/messages}), shaped like vLLM's: a stream of
 * typed SSE events ({@code event: <type>} then {@code data: {"type": <type>, ...}}) that opens
 * with {@code message_start} (its usage has the input length) and a {@code ping}, as
 * Anthropic's server sends one, carries the reasoning in a {@code thinking} block (its
 * {@code thinking_delta} events, then a {@code signature_delta}) and the answer in a
 * {@code text} block ({@code text_delta} events), each block opened by
 * {@code content_block_start} and closed by {@code content_block_stop}, and ends with
 * {@code message_delta} (the stop reason and the usage) and {@code message_stop}, with no
 * {@code [DONE]}; or one message object. One instance per request: it follows the open block.
 */
final class MessagesText implements TypedEvents {

  private static final String THINKING = "thinking";
  private static final String TEXT = "text";

  private final String id;
  private final String model;
  private final int inputTokens;
  /** The open block's type; null when none is open. */
  private String block;
  /** The open block's index, or the next block's when none is open. */
  private int index;

  MessagesText(long number, String model, int inputTokens) {
    this.id = "msg_" + number;
    this.model = ResponseText.quote(model);
    this.inputTokens = inputTokens;
  }

  /** {@code message_start} with the input length, then a {@code ping}. */
  @Override
  public String opening() {
    return event("message_start", "\"message\":{\"id\":\"" + id + "\",\"type\":\"message\","
        + "\"role\":\"assistant\",\"content\":[],\"model\":" + model + ",\"stop_reason\":null,"
        + "\"stop_sequence\":null,\"usage\":{\"input_tokens\":" + inputTokens
        + ",\"output_tokens\":0}}") + event("ping", null);
  }

  @Override
  public String delta(String text) {
    return enter(TEXT) + event("content_block_delta", "\"index\":" + index
        + ",\"delta\":{\"type\":\"text_delta\",\"text\":\"" + text + "\"}");
  }

  @Override
  public String reasoningDelta(String text) {
    return enter(THINKING) + event("content_block_delta", "\"index\":" + index
        + ",\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"" + text + "\"}");
  }

  /** The open block closed, then {@code message_delta} with the usage, and the stop. */
  @Override
  public String closing(String text, int input, int outputTokens) {
    return close() + event("message_delta", "\"delta\":{\"stop_reason\":\"max_tokens\","
        + "\"stop_sequence\":null},\"usage\":{\"input_tokens\":" + input
        + ",\"output_tokens\":" + outputTokens + "}") + event("message_stop", null);
  }

  /** vLLM's in-band failure of a Messages stream: an {@code error} event. */
  @Override
  public String errorEvent() {
    return event("error", "\"error\":{\"type\":\"internal_error\",\"message\":"
        + "\"Simulated in-band error (fault injection)\"}");
  }

  @Override
  public String whole(String reasoning, String text, int input, int outputTokens) {
    StringBuilder content = new StringBuilder();
    if (!reasoning.isEmpty()) {
      content.append("{\"type\":\"thinking\",\"thinking\":\"").append(reasoning)
          .append("\",\"signature\":\"").append(signature()).append("\"}");
    }
    if (!text.isEmpty()) {
      content.append(content.isEmpty() ? "" : ",").append("{\"type\":\"text\",\"text\":\"")
          .append(text).append("\"}");
    }
    return "{\"id\":\"" + id + "\",\"type\":\"message\",\"role\":\"assistant\",\"content\":["
        + content + "],\"model\":" + model + ",\"stop_reason\":\"max_tokens\","
        + "\"stop_sequence\":null,\"usage\":{\"input_tokens\":" + input + ",\"output_tokens\":"
        + outputTokens + "}}";
  }

  /** Opens a block of {@code type} unless it is the open one, closing the open one first. */
  private String enter(String type) {
    if (type.equals(block)) {
      return "";
    }
    String closed = close();
    block = type;
    return closed + event("content_block_start", "\"index\":" + index + ",\"content_block\":"
        + (type.equals(THINKING) ? "{\"type\":\"thinking\",\"thinking\":\"\"}"
            : "{\"type\":\"text\",\"text\":\"\"}"));
  }

  /** Closes the open block: a thinking block gets its signature first. Empty when none. */
  private String close() {
    if (block == null) {
      return "";
    }
    String signature = block.equals(THINKING) ? event("content_block_delta", "\"index\":"
        + index + ",\"delta\":{\"type\":\"signature_delta\",\"signature\":\"" + signature()
        + "\"}") : "";
    String stop = event("content_block_stop", "\"index\":" + index);
    block = null;
    index++;
    return signature + stop;
  }

  /** A stand-in for the thinking block's signature, fixed per request. */
  private String signature() {
    return "sig_" + id;
  }

  private static String event(String type, String members) {
    return "event: " + type + "\ndata: {\"type\":\"" + type + "\""
        + (members == null ? "" : "," + members) + "}\n\n";
  }
}
