package dev.gatlingllm.action;

import dev.gatlingllm.internal.action.PoolingTemplate;
import dev.gatlingllm.internal.action.SessionValue;
import io.gatling.javaapi.core.Session;
import java.util.Map;
import java.util.Objects;
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
public final class EmbeddingsRequestBuilder
    extends RequestBuilderBase<EmbeddingsRequestBuilder> {

  private EmbeddingsVariant variant = EmbeddingsVariant.OPENAI;
  private SessionValue<Object> input;
  private SessionValue<Object> multiModal;
  private Map<String, Object> extraBody = Map.of();

  EmbeddingsRequestBuilder(String name) {
    // the variant's path unless endpoint(...) gives one
    super(name, null);
  }

  /** An embeddings request, {@link EmbeddingsVariant#OPENAI} unless told otherwise. */
  public static EmbeddingsRequestBuilder embeddings(String name) {
    return new EmbeddingsRequestBuilder(name);
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

  /** Input {@code "#{prompt}"} and its length {@code "#{prompt_len}"} from a dataset feeder. */
  public EmbeddingsRequestBuilder fromDataset() {
    return input("#{prompt}").promptTokens("#{prompt_len}");
  }

  /** Adds a body field as is (vLLM's {@code --extra-body}); it wins over a standard field. */
  public EmbeddingsRequestBuilder extraBody(String field, Object value) {
    if (field == null || field.isBlank()) {
      throw new IllegalArgumentException("extraBody field name must not be empty");
    }
    Map<String, Object> fields = with(extraBody, field, value);
    return copy(b -> b.extraBody = fields);
  }

  @Override
  PoolingTemplate template() {
    if (input == null && multiModal == null) {
      throw new IllegalArgumentException("request '" + name + "': input(...) or "
          + "multiModal(...) is required");
    }
    return PoolingTemplate.embeddings(name, variant, path != null ? path : variant.defaultPath(),
        input, multiModal, promptTokens, requestId, extraBody);
  }
}
