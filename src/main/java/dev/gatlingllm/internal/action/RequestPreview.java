package dev.gatlingllm.internal.action;

import dev.gatlingllm.internal.client.ChunkReader;
import dev.gatlingllm.internal.metrics.TaskType;
import io.gatling.commons.stats.OK$;
import io.gatling.core.session.Session;
import io.gatling.javaapi.core.ActionBuilder;
import java.util.Map;
import scala.collection.immutable.Map$;
import scala.collection.immutable.Nil$;
import scala.runtime.BoxedUnit;

/**
 * The request a DSL request builder would send for one feeder record, built outside a run
 * by the same code as the run's requests. Requests that go out before the run, such as
 * {@code vllm bench serve}'s ready-check test request, are built with it, so they cannot
 * drift from what the run sends.
 *
 * <pre>{@code
 * RequestPreview.Rendered r = RequestPreview.render(
 *     LlmDsl.embeddings("embed").fromDataset(), samples.records().get(0), "my-model");
 * }</pre>
 */
public final class RequestPreview {

  /**
   * One request: its path, body and content type, whether its answer is one JSON body
   * (pooling) rather than a stream, and how that answer is read.
   */
  public record Rendered(String path, byte[] body, String contentType, boolean pooling,
      ChunkReader reader) {

    /** A request whose answer is the OpenAI chunk. */
    public Rendered(String path, byte[] body, String contentType, boolean pooling) {
      this(path, body, contentType, pooling, ChunkReader.OPENAI);
    }
  }

  private RequestPreview() {}

  /**
   * Builds the request for a user whose session holds {@code attributes}, with no request id
   * (the protocol's id is not part of the body; vLLM's vlm2vec prompt then takes the
   * image-only text, as vLLM's test request does).
   *
   * @param model the {@code model} field unless the builder sets its own
   * @throws IllegalArgumentException for a builder that is not one of the DSL's requests, or
   *     a record that lacks what the request reads
   */
  public static Rendered render(ActionBuilder request, Map<String, Object> attributes,
      String model) {
    RequestTemplate template = BuilderAccess.template(request);
    try {
      RequestTemplate.Body body = template.body(session(attributes), model, null);
      return new Rendered(template.path(), body.bytes(), body.contentType(),
          template.taskType() != TaskType.GENERATION, template.reader());
    } catch (SessionValue.ResolutionException e) {
      throw new IllegalArgumentException("request '" + template.name() + "': "
          + e.getMessage(), e);
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Session session(Map<String, Object> attributes) {
    scala.collection.immutable.Map scala = Map$.MODULE$.empty();
    for (Map.Entry<String, Object> e : attributes.entrySet()) {
      scala = (scala.collection.immutable.Map) scala.updated(e.getKey(), e.getValue());
    }
    return new Session("preview", 0L, scala, OK$.MODULE$,
        (scala.collection.immutable.List) Nil$.MODULE$, s -> BoxedUnit.UNIT, null);
  }
}
