package dev.gatlingllm.internal.action;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.action.EmbeddingsVariant;
import dev.gatlingllm.internal.metrics.TaskType;
import io.gatling.core.session.Session;
import java.util.List;
import java.util.Map;

/**
 * Embeddings and rerank requests: the session's values resolved and handed to their API
 * ({@link EmbeddingsApi}, {@link RerankApi}), which writes vLLM's body field for field, in
 * its order. Their answers are timed as a whole (see {@code Exchange}), with the pooling
 * metric set.
 */
public final class PoolingTemplate extends RequestTemplate {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private interface BodyFn {
    Map<String, Object> build(Session session, String model, String requestId);
  }

  private final String backend;
  private final BodyFn body;

  private PoolingTemplate(String name, String path, String backend, BodyFn body,
      SessionValue<Integer> promptTokens, SessionValue<String> requestId) {
    super(name, path, promptTokens, requestId, null);
    this.backend = backend;
    this.body = body;
  }

  public static PoolingTemplate embeddings(String name, EmbeddingsVariant variant, String path,
      SessionValue<Object> input, SessionValue<Object> multiModal,
      SessionValue<Integer> promptTokens, SessionValue<String> requestId,
      Map<String, Object> extraBody) {
    EmbeddingsApi api = EmbeddingsApi.of(variant);
    BodyFn fn = (session, model, id) -> {
      Object prompt = input == null ? "" : input.resolve(session);
      List<Map<String, Object>> media = multiModal == null ? null
          : MultiModal.parts(multiModal.resolve(session));
      if (media != null && media.isEmpty()) {
        // vLLM tests the content for truth: no parts is no media (a text row of a dataset
        // whose other rows have images)
        media = null;
      }
      Map<String, Object> b = api.body(model, prompt, media, id);
      b.putAll(extraBody);
      return b;
    };
    return new PoolingTemplate(name, path, api.endpointType(), fn, promptTokens, requestId);
  }

  public static PoolingTemplate rerank(String name, String path, SessionValue<String> query,
      SessionValue<List<String>> documents, SessionValue<Integer> promptTokens,
      SessionValue<String> requestId) {
    RerankApi api = RerankApi.INSTANCE;
    BodyFn fn = (session, model, id) ->
        api.body(model, query.resolve(session), documents.resolve(session));
    return new PoolingTemplate(name, path, api.endpointType(), fn, promptTokens, requestId);
  }

  @Override
  public String endpointType() {
    return backend;
  }

  @Override
  public TaskType taskType() {
    return TaskType.EMBEDDING;
  }

  @Override
  public Body body(Session session, String model, String id) {
    try {
      return new Body(MAPPER.writeValueAsBytes(body.build(session, model, id)), Body.JSON);
    } catch (JsonProcessingException e) {
      throw new SessionValue.ResolutionException("request body: " + e.getOriginalMessage());
    }
  }
}
