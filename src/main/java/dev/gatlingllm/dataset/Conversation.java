package dev.gatlingllm.dataset;

import java.util.List;
import java.util.Objects;

/**
 * One conversation to replay: its id (sent as {@code X-Session-ID} with every turn) and the
 * user side of its turns. The assistant side is not here: each turn carries the answers the
 * server really gave to the turns before it.
 *
 * @param id    unique within the sampled set
 * @param turns at least one
 */
public record Conversation(String id, List<Turn> turns) {

  public Conversation {
    Objects.requireNonNull(id, "id");
    turns = List.copyOf(turns);
    if (turns.isEmpty()) {
      throw new IllegalArgumentException("conversation " + id + " has no turn");
    }
  }

  /**
   * The user message of one turn and what to ask of the answer.
   *
   * @param prompt    the user message
   * @param promptLen its length in tokens (the message alone, not the history before it)
   * @param outputLen the answer's length in tokens: {@code max_tokens} and {@code min_tokens}
   */
  public record Turn(String prompt, int promptLen, int outputLen) {

    public Turn {
      Objects.requireNonNull(prompt, "prompt");
      if (promptLen < 0 || outputLen < 1) {
        throw new IllegalArgumentException("a turn needs promptLen >= 0 and outputLen >= 1, got "
            + promptLen + " and " + outputLen);
      }
    }
  }
}
