package dev.gatlingllm.action;

import dev.gatlingllm.metrics.TaskType;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * An embeddings API: one per body shape of vLLM's embeddings backends
 * ({@link EmbeddingsVariant}, whose switch in {@link PoolingTemplate} writes it), answered by
 * one JSON body timed as a whole, with vLLM's reduced (pooling) metric set.
 */
final class EmbeddingsApi extends Api {

  private static final Map<EmbeddingsVariant, EmbeddingsApi> BY_VARIANT =
      new EnumMap<>(EmbeddingsVariant.class);

  static {
    for (EmbeddingsVariant v : EmbeddingsVariant.values()) {
      String path = switch (v) {
        case INFINITY, INFINITY_CLIP -> "/embeddings";
        case VLLM_POOLING -> "/pooling";
        default -> "/v1/embeddings";
      };
      BY_VARIANT.put(v, new EmbeddingsApi(v, path));
    }
  }

  private final EmbeddingsVariant variant;

  private EmbeddingsApi(EmbeddingsVariant variant, String path) {
    super(variant.backend(), path, List.of(path.substring(path.lastIndexOf('/') + 1)), false,
        TaskType.EMBEDDING, false);
    this.variant = variant;
  }

  static EmbeddingsApi of(EmbeddingsVariant variant) {
    return BY_VARIANT.get(variant);
  }

  @Override
  EmbeddingsRequestBuilder request(RequestFlags flags) {
    EmbeddingsRequestBuilder r = EmbeddingsRequestBuilder.embeddings("embeddings")
        .variant(variant).fromDataset().multiModal(BackendRequests::mediaParts)
        .endpoint(flags.endpoint()).requestId(BackendRequests.REQUEST_ID);
    // vLLM's embeddings requests carry ignore_eos when asked (and no sampling parameter)
    r = flags.on("ignore-eos") ? r.extraBody("ignore_eos", true) : r;
    for (Map.Entry<String, Object> field : flags.extraBody().entrySet()) {
      EmbeddingsRequestBuilder current = r;
      r = flags.flagged("extra-body", () -> current.extraBody(field.getKey(), field.getValue()));
    }
    return r;
  }
}
