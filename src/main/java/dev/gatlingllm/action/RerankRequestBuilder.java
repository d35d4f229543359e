package dev.gatlingllm.action;

import dev.gatlingllm.internal.action.PoolingTemplate;
import dev.gatlingllm.internal.action.RerankApi;
import dev.gatlingllm.internal.action.SessionValue;
import io.gatling.javaapi.core.Session;
import java.util.List;
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
public final class RerankRequestBuilder extends RequestBuilderBase<RerankRequestBuilder> {

  private SessionValue<String> query;
  private SessionValue<List<String>> documents;

  RerankRequestBuilder(String name) {
    // vLLM also serves /rerank
    super(name, RerankApi.INSTANCE.defaultPath());
  }

  public static RerankRequestBuilder rerank(String name) {
    return new RerankRequestBuilder(name);
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

  /** Query {@code "#{prompt}"}, {@code "#{documents}"} and {@code "#{prompt_len}"}. */
  public RerankRequestBuilder fromDataset() {
    return query("#{prompt}").documents("#{documents}").promptTokens("#{prompt_len}");
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

  @Override
  PoolingTemplate template() {
    if (query == null || documents == null) {
      throw new IllegalArgumentException("request '" + name + "': query(...) and "
          + "documents(...) are required (or fromDataset())");
    }
    return PoolingTemplate.rerank(name, path, query, documents, promptTokens, requestId);
  }
}
