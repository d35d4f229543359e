package dev.gatlingllm.action;

import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.Session;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One embeddings request (a pooling request: one JSON answer, timed as a whole, with vLLM's
 * reduced metric set). Immutable: every call returns a new builder.
 *
 * <pre>{@code
 * exec(LlmDsl.embeddings("embed").fromDataset())
 * exec(LlmDsl.embeddings("embed-image").variant(EmbeddingsVariant.OPENAI_VLM2VEC)
 *     .input("#{prompt}").multiModal("#{mm_content}"))
 * }</pre>
 */
public final class EmbeddingsRequestBuilder implements ActionBuilder, Cloneable {

  private final String name;
  private EmbeddingsVariant variant = EmbeddingsVariant.OPENAI;
  private String path;
  private SessionValue<Object> input;
  private SessionValue<Object> multiModal;
  private SessionValue<Integer> promptTokens;
  private SessionValue<String> requestId;
  private Map<String, Object> extraBody = Map.of();

  EmbeddingsRequestBuilder(String name) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("request name must not be empty");
    }
    this.name = name;
  }

  /** An embeddings request, {@link EmbeddingsVariant#OPENAI} unless told otherwise. */
  public static EmbeddingsRequestBuilder embeddings(String name) {
    return new EmbeddingsRequestBuilder(name);
  }

  private EmbeddingsRequestBuilder copy(Consumer<EmbeddingsRequestBuilder> change) {
    try {
      EmbeddingsRequestBuilder b = (EmbeddingsRequestBuilder) clone();
      change.accept(b);
      return b;
    } catch (CloneNotSupportedException e) {
      throw new AssertionError(e);
    }
  }

  /** The body shape, as vLLM's backend of the same name sends it. */
  public EmbeddingsRequestBuilder variant(EmbeddingsVariant v) {
    Objects.requireNonNull(v, "variant");
    return copy(b -> b.variant = v);
  }

  /**
   * The body shape by vLLM's {@code --backend} name ({@code openai-embeddings-chat},
   * {@code infinity-embeddings}, {@code vllm-pooling}, ...), so a simulation needs no import.
   *
   * @throws IllegalArgumentException naming the known backends when it is none of them
   */
  public EmbeddingsRequestBuilder variant(String backend) {
    for (EmbeddingsVariant v : EmbeddingsVariant.values()) {
      if (v.backend().equals(backend)) {
        return variant(v);
      }
    }
    throw new IllegalArgumentException("no embeddings backend '" + backend + "'; known: "
        + java.util.Arrays.stream(EmbeddingsVariant.values()).map(EmbeddingsVariant::backend)
            .toList());
  }

  /** The text to embed (EL such as {@code "#{prompt}"}), or a list of texts via a function. */
  public EmbeddingsRequestBuilder input(String textOrEl) {
    SessionValue<Object> v = SessionValue.el("input", textOrEl, Object.class);
    return copy(b -> b.input = v);
  }

  public EmbeddingsRequestBuilder input(Function<Session, Object> f) {
    SessionValue<Object> v = SessionValue.function("input", f);
    return copy(b -> b.input = v);
  }

  /**
   * Images (or video, audio) to embed with the text: one OpenAI content part or a list, e.g.
   * {@code "#{mm_content}"}. Infinity takes a single part.
   */
  public EmbeddingsRequestBuilder multiModal(String el) {
    SessionValue<Object> v = SessionValue.el("multiModal", el, Object.class);
    return copy(b -> b.multiModal = v);
  }

  public EmbeddingsRequestBuilder multiModal(Function<Session, Object> f) {
    SessionValue<Object> v = SessionValue.function("multiModal", f);
    return copy(b -> b.multiModal = v);
  }

  /**
   * Input length from the dataset; only used when the server's answer has no
   * {@code usage.prompt_tokens} (vLLM takes the server's count for pooling).
   */
  public EmbeddingsRequestBuilder promptTokens(String el) {
    SessionValue<Integer> v = SessionValue.el("promptTokens", el, Integer.class);
    return copy(b -> b.promptTokens = v);
  }

  /** Input {@code "#{prompt}"} and its length {@code "#{prompt_len}"} from a dataset feeder. */
  public EmbeddingsRequestBuilder fromDataset() {
    return input("#{prompt}").promptTokens("#{prompt_len}");
  }

  /** Path instead of the variant's default ({@code /v1/embeddings}, {@code /embeddings}). */
  public EmbeddingsRequestBuilder endpoint(String endpointPath) {
    if (endpointPath == null || !endpointPath.startsWith("/")) {
      throw new IllegalArgumentException("endpoint must start with '/', got " + endpointPath);
    }
    return copy(b -> b.path = endpointPath);
  }

  /** The {@code x-request-id} instead of the protocol's prefix and counter. */
  public EmbeddingsRequestBuilder requestId(String textOrEl) {
    SessionValue<String> v = SessionValue.el("requestId", textOrEl, String.class);
    return copy(b -> b.requestId = v);
  }

  /** Adds a body field as is (vLLM's {@code --extra-body}); it wins over a standard field. */
  public EmbeddingsRequestBuilder extraBody(String field, Object value) {
    if (field == null || field.isBlank()) {
      throw new IllegalArgumentException("extraBody field name must not be empty");
    }
    Objects.requireNonNull(value, () -> "extraBody value of '" + field + "'");
    Map<String, Object> fields = new LinkedHashMap<>(extraBody);
    fields.put(field, value);
    Map<String, Object> frozen = java.util.Collections.unmodifiableMap(fields);
    return copy(b -> b.extraBody = frozen);
  }

  PoolingTemplate template() {
    if (input == null && multiModal == null) {
      throw new IllegalArgumentException("request '" + name + "': input(...) or "
          + "multiModal(...) is required");
    }
    return PoolingTemplate.embeddings(name, variant, path != null ? path : variant.defaultPath(),
        input, multiModal, promptTokens, requestId, extraBody);
  }

  @Override
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    PoolingTemplate template = template();
    return LlmActions.scala((ctx, next) -> new LlmRequestAction(template, ctx, next));
  }
}
