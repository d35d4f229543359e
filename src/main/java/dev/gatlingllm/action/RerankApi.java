package dev.gatlingllm.action;

import dev.gatlingllm.metrics.TaskType;
import java.util.List;

/**
 * vLLM's rerank API ({@code /v1/rerank}): a query and its documents ({@link PoolingTemplate}
 * writes the body), one JSON answer timed as a whole, the pooling metric set.
 */
final class RerankApi extends Api {

  static final RerankApi INSTANCE = new RerankApi();

  private RerankApi() {
    super("vllm-rerank", "/v1/rerank", List.of("rerank"), false, TaskType.EMBEDDING, false);
  }

  /** vLLM's rerank request sends no flag-dependent field. */
  @Override
  RerankRequestBuilder request(RequestFlags flags) {
    return RerankRequestBuilder.rerank("rerank").fromDataset().endpoint(flags.endpoint())
        .requestId(BackendRequests.REQUEST_ID);
  }
}
