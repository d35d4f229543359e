package dev.gatlingllm.action;

import dev.gatlingllm.metrics.TaskType;
import dev.gatlingllm.protocol.ServerCompliance;
import io.gatling.core.session.Session;
import java.util.function.IntFunction;

/**
 * What one kind of request (completions, chat, audio, embeddings, rerank) contributes to the
 * request action: its path, and the body built for one virtual user. Sending, pacing,
 * concurrency, timing and stats are the action's, the same for every kind.
 */
interface RequestTemplate {

  /** Gatling request name. */
  String name();

  /** Endpoint path, e.g. {@code /v1/embeddings}. */
  String path();

  /**
   * The result file's {@code endpoint_type} for a run made of this kind only: {@code chat},
   * {@code completions}, or the vLLM backend name of the other kinds.
   */
  String endpointType();

  /** Generation (streamed tokens) or pooling (one JSON answer, the reduced metric set). */
  TaskType taskType();

  /**
   * The body and its content type for this user.
   *
   * @param requestId the {@code x-request-id} the request goes out with (vLLM's vlm2vec
   *                  backend derives its prompt from its trailing number)
   * @throws SessionValue.ResolutionException when a session value is missing or invalid
   */
  Body body(Session session, String model, String requestId);

  /** Prompt length from the dataset, -1 when not given. */
  int promptTokens(Session session);

  /** The {@code x-request-id} chosen for this request; null for the protocol's counter. */
  String requestId(Session session);

  /** Session attribute to save the generated text under; null for none. */
  String saveTextAs();

  /**
   * Warm-up bodies by {@code max_tokens} for the protocol's warm-up, or null (the default)
   * when this kind is not warmed up (the warm-up streams generation requests).
   */
  default IntFunction<byte[]> warmUpBody(String model) {
    return null;
  }

  /**
   * A request body, the value of its {@code Content-Type} header, and what it asks of the
   * server for the compliance check (null: nothing checked).
   */
  record Body(byte[] bytes, String contentType, ServerCompliance.Asked asked) {
    static final String JSON = "application/json";

    Body(byte[] bytes, String contentType) {
      this(bytes, contentType, null);
    }
  }
}
