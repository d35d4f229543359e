package dev.gatlingllm.client;

/** What {@link ChunkParser} found in one JSON body; reused from chunk to chunk. */
final class ChunkFields {
  boolean hasChoices;
  /** Text of the first choice; null when the chunk carried none. */
  String text;
  String finishReason;
  int completionTokens;
  int promptTokens;
  String error;

  void reset() {
    hasChoices = false;
    text = null;
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
