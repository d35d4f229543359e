package dev.gatlingllm.internal.sim;

/**
 * The texts of an API whose stream is typed events rather than OpenAI chunks (the Responses
 * API's {@link ResponsesText}, the Messages API's {@link MessagesText}): what a
 * {@link Generation} writes at each step of such a stream, or as its one JSON answer. One
 * instance per request, as the texts may number their events or follow their blocks.
 */
interface TypedEvents {

  /** The events before the first delta. */
  String opening();

  /** One answer text delta (token texts are plain words that need no escaping). */
  String delta(String text);

  /** One reasoning delta. */
  String reasoningDelta(String text);

  /** The events after the last delta, with the usage; the stream ends after them. */
  String closing(String text, int inputTokens, int outputTokens);

  /** The in-band failure the server streams once the stream started. */
  String errorEvent();

  /**
   * The whole non-streamed answer.
   *
   * @param reasoning the reasoning text before the answer; empty when there is none
   */
  String whole(String reasoning, String text, int inputTokens, int outputTokens);
}
