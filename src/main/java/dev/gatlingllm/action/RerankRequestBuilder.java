package dev.gatlingllm.action;

import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.Session;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One rerank request as vLLM's {@code vllm-rerank} backend sends it: {@code {model, query,
 * documents, truncate_prompt_tokens: -1}} to {@code /v1/rerank}. A pooling request: one JSON
 * answer, timed as a whole, with the reduced metric set. Immutable.
 *
 * <pre>{@code
 * exec(LlmDsl.rerank("rerank").fromDataset())   // feeder of Datasets.randomRerank()
 * }</pre>
 */
public final class RerankRequestBuilder implements ActionBuilder, Cloneable {

  private final String name;
  private String path = "/v1/rerank";
  private SessionValue<String> query;
  private SessionValue<List<String>> documents;
  private SessionValue<Integer> promptTokens;
  private SessionValue<String> requestId;

  RerankRequestBuilder(String name) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("request name must not be empty");
    }
    this.name = name;
  }

  public static RerankRequestBuilder rerank(String name) {
    return new RerankRequestBuilder(name);
  }

  private RerankRequestBuilder copy(Consumer<RerankRequestBuilder> change) {
    try {
      RerankRequestBuilder b = (RerankRequestBuilder) clone();
      change.accept(b);
      return b;
    } catch (CloneNotSupportedException e) {
      throw new AssertionError(e);
    }
  }

  /** The query text, or EL such as {@code "#{prompt}"}. */
  public RerankRequestBuilder query(String textOrEl) {
    SessionValue<String> v = SessionValue.el("query", textOrEl, String.class);
    return copy(b -> b.query = v);
  }

  /** The documents to score against the query, e.g. {@code "#{documents}"} (a list). */
  @SuppressWarnings("unchecked")
  public RerankRequestBuilder documents(String el) {
    SessionValue<List<?>> raw = (SessionValue<List<?>>) (SessionValue<?>)
        SessionValue.el("documents", el, List.class);
    return copy(b -> b.documents = session -> strings(raw.resolve(session)));
  }

  public RerankRequestBuilder documents(Function<Session, List<String>> f) {
    SessionValue<List<String>> raw = SessionValue.function("documents", f);
    return copy(b -> b.documents = session -> strings(raw.resolve(session)));
  }

  /** Input length from the dataset, used when the answer has no {@code usage.prompt_tokens}. */
  public RerankRequestBuilder promptTokens(String el) {
    SessionValue<Integer> v = SessionValue.el("promptTokens", el, Integer.class);
    return copy(b -> b.promptTokens = v);
  }

  /** Query {@code "#{prompt}"}, {@code "#{documents}"} and {@code "#{prompt_len}"}. */
  public RerankRequestBuilder fromDataset() {
    return query("#{prompt}").documents("#{documents}").promptTokens("#{prompt_len}");
  }

  /** Path instead of {@code /v1/rerank} (vLLM also serves {@code /rerank}). */
  public RerankRequestBuilder endpoint(String endpointPath) {
    if (endpointPath == null || !endpointPath.startsWith("/")) {
      throw new IllegalArgumentException("endpoint must start with '/', got " + endpointPath);
    }
    return copy(b -> b.path = endpointPath);
  }

  public RerankRequestBuilder requestId(String textOrEl) {
    SessionValue<String> v = SessionValue.el("requestId", textOrEl, String.class);
    return copy(b -> b.requestId = v);
  }

  private static List<String> strings(List<?> values) {
    if (values.isEmpty()) {
      throw new SessionValue.ResolutionException("documents: the list is empty; rerank needs "
          + "at least one document");
    }
    for (Object v : values) {
      if (!(v instanceof String)) {
        throw new SessionValue.ResolutionException("documents: expected texts, got "
            + (v == null ? "null" : v.getClass().getSimpleName()));
      }
    }
    @SuppressWarnings("unchecked")
    List<String> texts = (List<String>) values;
    return texts;
  }

  PoolingTemplate template() {
    if (query == null || documents == null) {
      throw new IllegalArgumentException("request '" + name + "': query(...) and "
          + "documents(...) are required (or fromDataset())");
    }
    return PoolingTemplate.rerank(name, path, query, documents, promptTokens, requestId);
  }

  @Override
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    PoolingTemplate template = template();
    return LlmActions.scala((ctx, next) -> new LlmRequestAction(template, ctx, next));
  }
}
