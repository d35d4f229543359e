package dev.gatlingllm.internal.client;

/**
 * What a {@link ChunkReader} found in one JSON body; reused from chunk to chunk, so reading a
 * chunk allocates nothing here. The exchange reads the fields directly; a reader of another
 * package (an API's own members) sets them through the public methods.
 */
public final class ChunkFields {
  boolean hasChoices;
  /** Answer text of the first choice; null when the chunk carried none. */
  String text;
  /** The first choice carried non-empty reasoning text ({@code reasoning_content}/{@code reasoning}). */
  boolean reasoning;
  String finishReason;
  int completionTokens;
  int promptTokens;
  /** {@code usage.prompt_tokens_details.cached_tokens}; -1 when the chunk had none. */
  int cachedTokens;
  String error;
  /** {@code usage.completion_tokens_details.reasoning_tokens}; -1 when the chunk had none. */
  int reasoningTokens;
  /** The first choice carried at least one tool-call fragment. */
  boolean toolCall;
  /**
   * The answer's tool calls so far: unlike the fields above it is not reset from chunk to
   * chunk, since a call's arguments come in pieces over many chunks. Null until the first.
   */
  ToolCalls toolCalls;

  public void reset() {
    hasChoices = false;
    text = null;
    reasoning = false;
    finishReason = null;
    completionTokens = -1;
    promptTokens = -1;
    cachedTokens = -1;
    error = null;
    reasoningTokens = -1;
    toolCall = false;
  }

  /** One fragment of the tool call at {@code index} (see {@link ToolCalls#fragment}). */
  public void toolCallFragment(int index, String name, String arguments) {
    if (toolCalls == null) {
      toolCalls = new ToolCalls();
    }
    toolCalls.fragment(index, name, arguments);
    toolCall = true;
  }

  /** The server's count of reasoning tokens. */
  public void reasoningTokens(int value) {
    reasoningTokens = value;
  }

  /** Whether the body was a content chunk: it counts for TTFT and ITL. */
  public void hasChoices(boolean value) {
    hasChoices = value;
  }

  /** The answer text it carried, replacing what was read; null for none. */
  public void text(String value) {
    text = value;
  }

  /** Whether it carried reasoning text (counted, not answer text). */
  public void reasoning(boolean value) {
    reasoning = value;
  }

  public void promptTokens(int value) {
    promptTokens = value;
  }

  public void completionTokens(int value) {
    completionTokens = value;
  }

  /** The in-band error it carried; null for none. */
  public String error() {
    return error;
  }

  /** Fails the request with this in-band error. */
  public void error(String message) {
    error = message;
  }

  public void appendText(String piece) {
    if (piece != null) {
      text = text == null ? piece : text + piece;
    }
  }
}
