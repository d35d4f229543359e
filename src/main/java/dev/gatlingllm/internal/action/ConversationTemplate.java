package dev.gatlingllm.internal.action;

import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.metrics.TaskType;
import dev.gatlingllm.internal.protocol.ServerCompliance;
import io.gatling.core.session.Session;
import io.netty.handler.codec.http.HttpHeaders;
import java.util.function.IntFunction;

/**
 * The request of a conversation's current turn: the history with the server's real answers,
 * then the turn's user message; exactly the turn's output length ({@code max_completion_tokens}
 * and {@code min_tokens}, so it holds without {@code ignore_eos}); the conversation's model;
 * {@code X-Session-ID: <conversation id>}, which session-aware routers and caches key on; the
 * server that answered the first turn, when there are several (base URLs), as such a router
 * keeps a session where its prefix is cached. Its Gatling rows are per turn index
 * ({@code <name> turn 3}, {@code <name> turn 3 TTFT}).
 */
public final class ConversationTemplate extends RequestTemplate {

  /** The header vllm-bench sends with every turn of a conversation. */
  static final String SESSION_HEADER = "X-Session-ID";

  private final RequestSpec spec;
  private final GenerationTemplate plain;

  public ConversationTemplate(RequestSpec spec) {
    super(spec.name(), spec.path(), session -> state(session).promptTokens(),
        spec.requestId() != null ? spec.requestId() : session -> state(session).turnRequestId(),
        null);
    this.spec = spec;
    this.plain = new GenerationTemplate(spec);
  }

  private static ConversationState state(Session session) {
    ConversationState state = ConversationState.of(session);
    if (state == null || !state.hasNextTurn()) {
      throw new SessionValue.ResolutionException("no conversation turn to send");
    }
    return state;
  }

  @Override
  public String endpointType() {
    return plain.endpointType();
  }

  @Override
  public TaskType taskType() {
    return TaskType.GENERATION;
  }

  @Override
  public Body body(Session session, String model, String requestId) {
    ConversationState state = state(session);
    int output = state.turn().outputLen();
    String requestModel = state.model() != null ? state.model() : model;
    byte[] bytes = RequestBodies.build(spec, requestModel, null, state.messages(), output,
        output);
    return new Body(bytes, Body.JSON, new ServerCompliance.Asked(output, output, true,
        Boolean.TRUE.equals(spec.ignoreEos()), requestModel, true));
  }

  @Override
  String rowName(Session session) {
    ConversationState state = ConversationState.of(session);
    return state == null ? name() : name() + " turn " + state.turnIndex();
  }

  @Override
  int turn(Session session) {
    ConversationState state = ConversationState.of(session);
    return state == null ? 0 : state.turnIndex();
  }

  @Override
  int target(Session session) {
    return state(session).target();
  }

  @Override
  void addHeaders(Session session, HttpHeaders headers) {
    headers.set(SESSION_HEADER, state(session).conversation().id());
  }

  @Override
  Session after(Session session, RequestRecord record) {
    ConversationState state = ConversationState.of(session);
    return state == null ? session
        : session.set(ConversationState.ATTRIBUTE, state.answered(record));
  }

  @Override
  public IntFunction<byte[]> warmUpBody(String model) {
    return plain.warmUpBody(model);
  }
}
