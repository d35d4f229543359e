package dev.gatlingllm.internal.action;

import dev.gatlingllm.dataset.Conversation;
import dev.gatlingllm.internal.client.LlmRequest;
import dev.gatlingllm.internal.metrics.RequestRecord;
import io.gatling.core.session.Session;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Where one virtual user is in its conversation, kept in its session between turns: the
 * turn to send next, the history as the server answered it, the model chosen for the whole
 * conversation, and whether a turn failed (then no later turn is sent). Immutable, as the
 * session is.
 *
 * @param history       the messages sent and answered so far (system prompt first, if any)
 * @param historyTokens tokens of the history's contents (user messages as the dataset counted
 *                      them, answers as the server's usage did); -1 once an answer came
 *                      without usage
 * @param firstRequestId the request id the first turn went out with (null before it): the
 *                      later turns' ids are made from it
 * @param target        the server (index of the base URLs) that served the first turn, where
 *                      the later turns go: its prefix cache holds their history, as a
 *                      session-aware router would keep them there; {@link
 *                      LlmRequest#ANY_TARGET} before the first turn
 */
public record ConversationState(Conversation conversation, int next, List<Map<String, Object>> history,
    int historyTokens, String model, boolean failed, String firstRequestId, int target) {

  /** The session attribute it is kept under. */
  public static final String ATTRIBUTE = "gatling-llm.conversation";

  public static ConversationState begin(Conversation conversation, String systemPrompt, String model) {
    List<Map<String, Object>> history = systemPrompt == null ? List.of()
        : List.of(ChatApi.message("system", systemPrompt));
    return new ConversationState(conversation, 0, history, 0, model, false, null,
        LlmRequest.ANY_TARGET);
  }

  /** The user's state; null when it is not in a conversation. */
  public static ConversationState of(Session session) {
    Object value = session.attributes().get(ATTRIBUTE).getOrElse(() -> null);
    return value instanceof ConversationState s ? s : null;
  }

  /** A turn is left to send, and none failed. */
  public boolean hasNextTurn() {
    return !failed && next < conversation.turns().size();
  }

  /** The turn to send now. */
  Conversation.Turn turn() {
    return conversation.turns().get(next);
  }

  /**
   * The id of the turn to send now when the request names none: null for the first turn (the
   * protocol's prefix and the arrival slot, or its counter), then the first turn's id and the
   * turn index ({@code bench-7-turn2}). One id per request, on every injector of a
   * scaled-out run too, where the protocol's counter and the slot indexes would meet.
   */
  String turnRequestId() {
    return next == 0 || firstRequestId == null ? null : firstRequestId + "-turn" + turnIndex();
  }

  /** 1-based index of the turn to send now. */
  int turnIndex() {
    return next + 1;
  }

  /** The messages of the turn to send: the history, then its user message. */
  List<Map<String, Object>> messages() {
    List<Map<String, Object>> messages = new ArrayList<>(history.size() + 1);
    messages.addAll(history);
    messages.add(ChatApi.message("user", turn().prompt()));
    return messages;
  }

  /** Prompt tokens of the turn to send, or -1 when the history's are not known. */
  int promptTokens() {
    return historyTokens < 0 ? -1 : historyTokens + turn().promptLen();
  }

  /**
   * The state after a turn that was never sent (refused before the wire: a run stopped on
   * over-saturation, a request that could not be built): the conversation ends there, as at
   * a failed turn, instead of trying the same turn again.
   */
  public ConversationState unsent() {
    return new ConversationState(conversation, next, history, historyTokens, model, true,
        firstRequestId, target);
  }

  /**
   * The state after the turn's request: the answer joins the history, or the conversation
   * stops at a failed turn.
   */
  ConversationState answered(RequestRecord record) {
    String first = next == 0 ? record.requestId() : firstRequestId;
    int server = next == 0 ? record.target() : target;
    if (!record.success()) {
      return new ConversationState(conversation, next + 1, history, historyTokens, model, true,
          first, server);
    }
    List<Map<String, Object>> longer = new ArrayList<>(history.size() + 2);
    longer.addAll(messages());
    String answer = record.generatedText() == null ? "" : record.generatedText();
    longer.add(ChatApi.message("assistant", answer));
    int tokens = historyTokens < 0 || record.outputTokens() < 0 ? -1
        : historyTokens + turn().promptLen() + record.outputTokens();
    return new ConversationState(conversation, next + 1, Collections.unmodifiableList(longer),
        tokens, model, false, first, server);
  }
}
