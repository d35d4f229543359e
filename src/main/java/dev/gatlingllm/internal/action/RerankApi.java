package dev.gatlingllm.internal.action;

import dev.gatlingllm.action.RequestFlags;
import dev.gatlingllm.action.RerankRequestBuilder;
import dev.gatlingllm.internal.metrics.TaskType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * vLLM's rerank API ({@code /v1/rerank}): a query and its documents, one JSON answer timed as
 * a whole, the pooling metric set.
 */
public final class RerankApi extends Api {

  public static final RerankApi INSTANCE = new RerankApi();

  private RerankApi() {
    super("vllm-rerank", "/v1/rerank", List.of("rerank"), false, TaskType.EMBEDDING, false);
  }

  /** vLLM's rerank request sends no flag-dependent field. */
  @Override
  public RerankRequestBuilder request(RequestFlags flags) {
    return RerankRequestBuilder.rerank("rerank").fromDataset().endpoint(flags.endpoint())
        .requestId(BackendRequests.REQUEST_ID);
  }

  /** vLLM's rerank body: its backend sends neither ignore_eos nor extra body fields. */
  Map<String, Object> body(String model, String query, List<String> documents) {
    Map<String, Object> b = new LinkedHashMap<>();
    b.put("model", model);
    b.put("query", query);
    b.put("documents", documents);
    b.put("truncate_prompt_tokens", -1);
    return b;
  }
}
