package dev.gatlingllm.internal.client;

/** What {@link ChunkParser} found in one JSON body; reused from chunk to chunk. */
final class ChunkFields {
  boolean hasChoices;
  /** Answer text of the first choice; null when the chunk carried none. */
  String text;
  /** The first choice carried non-empty reasoning text ({@code reasoning_content}/{@code reasoning}). */
  boolean reasoning;
  String finishReason;
  int completionTokens;
  int promptTokens;
  String error;

  void reset() {
    hasChoices = false;
    text = null;
    reasoning = false;
    finishReason = null;
    completionTokens = -1;
    promptTokens = -1;
    error = null;
  }

  void appendText(String piece) {
    if (piece != null) {
      text = text == null ? piece : text + piece;
    }
  }
}
