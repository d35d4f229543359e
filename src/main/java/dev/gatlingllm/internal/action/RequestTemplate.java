package dev.gatlingllm.internal.action;

import dev.gatlingllm.internal.client.ChunkReader;
import dev.gatlingllm.internal.client.LlmRequest;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.metrics.TaskType;
import dev.gatlingllm.internal.protocol.ServerCompliance;
import io.gatling.core.session.Session;
import io.netty.handler.codec.http.HttpHeaders;
import java.util.function.IntFunction;

/**
 * What one kind of request (completions, chat, Responses, audio, embeddings, rerank)
 * contributes to the request action: its path, the body built for one virtual user, and how
 * its answer is read. Sending, pacing, concurrency, timing and stats are the action's, the
 * same for every kind.
 */
public abstract class RequestTemplate {

  private final String name;
  private final String path;
  private final SessionValue<Integer> promptTokens;
  private final SessionValue<String> requestId;
  private final String saveTextAs;

  RequestTemplate(String name, String path, SessionValue<Integer> promptTokens,
      SessionValue<String> requestId, String saveTextAs) {
    this.name = name;
    this.path = path;
    this.promptTokens = promptTokens;
    this.requestId = requestId;
    this.saveTextAs = saveTextAs;
  }

  /** Gatling request name. */
  final String name() {
    return name;
  }

  /** Endpoint path, e.g. {@code /v1/embeddings}. */
  public final String path() {
    return path;
  }

  /**
   * The result file's {@code endpoint_type} for a run made of this kind only: its
   * {@link Api#endpointType()} ({@code completions}: the run's {@code --backend} name).
   */
  public abstract String endpointType();

  /** Generation (streamed tokens) or pooling (one JSON answer, the reduced metric set). */
  public abstract TaskType taskType();

  /**
   * The body and its content type for this user.
   *
   * @param requestId the {@code x-request-id} the request goes out with (vLLM's vlm2vec
   *                  backend derives its prompt from its trailing number)
   * @throws SessionValue.ResolutionException when a session value is missing or invalid
   */
  public abstract Body body(Session session, String model, String requestId);

  /** Prompt length from the dataset, -1 when not given. */
  final int promptTokens(Session session) {
    return SessionValue.resolveOr(promptTokens, session, -1);
  }

  /** The {@code x-request-id} chosen for this request; null for the protocol's counter. */
  final String requestId(Session session) {
    return SessionValue.resolveOr(requestId, session, null);
  }

  /** Session attribute to save the generated text under; null for none. */
  final String saveTextAs() {
    return saveTextAs;
  }

  /**
   * The name of this user's Gatling rows: the request's name, or one per conversation turn
   * ({@link ConversationTemplate}).
   */
  String rowName(Session session) {
    return name;
  }

  /** The 1-based conversation turn this user's request sends; 0 when it is no turn. */
  int turn(Session session) {
    return 0;
  }

  /**
   * The server this user's request must go to (index of the base URLs), or {@link
   * LlmRequest#ANY_TARGET} (the default) to let the client choose; a conversation's later
   * turns go to the server of its first ({@link ConversationTemplate}).
   */
  int target(Session session) {
    return LlmRequest.ANY_TARGET;
  }

  /** How this kind's answer is read: its API's (the OpenAI chunk unless it says otherwise). */
  ChunkReader reader() {
    return ChunkReader.OPENAI;
  }

  /** Headers of this user's request beyond the protocol's (none unless a kind adds some). */
  void addHeaders(Session session, HttpHeaders headers) {}

  /** The user's session once its request is over, before it goes on: unchanged by default. */
  Session after(Session session, RequestRecord record) {
    return session;
  }

  /**
   * Warm-up bodies by {@code max_tokens} for the protocol's warm-up, or null (the default)
   * when this kind is not warmed up (the warm-up streams generation requests).
   */
  public IntFunction<byte[]> warmUpBody(String model) {
    return null;
  }

  /**
   * A request body, the value of its {@code Content-Type} header, what it asks of the
   * server for the compliance check (null: nothing checked), the seconds of audio it sends
   * (0: none) and the JSON schema its answer is checked against (null: none asked).
   */
  public record Body(byte[] bytes, String contentType, ServerCompliance.Asked asked,
      double audioSeconds, dev.gatlingllm.internal.client.JsonSchema schema) {
    static final String JSON = "application/json";

    Body(byte[] bytes, String contentType) {
      this(bytes, contentType, null);
    }

    Body(byte[] bytes, String contentType, ServerCompliance.Asked asked) {
      this(bytes, contentType, asked, 0, null);
    }

    /** A generation request's body: no audio, maybe a schema its answer must follow. */
    Body(byte[] bytes, String contentType, ServerCompliance.Asked asked,
        dev.gatlingllm.internal.client.JsonSchema schema) {
      this(bytes, contentType, asked, 0, schema);
    }

    /** An audio request's body: the clip's length in seconds, no schema. */
    Body(byte[] bytes, String contentType, ServerCompliance.Asked asked, double audioSeconds) {
      this(bytes, contentType, asked, audioSeconds, null);
    }
  }
}
