package dev.gatlingllm.action;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * vLLM's {@code --backend} names and what serves each of them here. Every name that current
 * or recent {@code vllm bench serve} accepts is known: it either maps to a request kind of the
 * DSL, or is refused with the reason.
 *
 * <pre>{@code
 * Backends.Backend b = Backends.resolve("openai-embeddings-clip");
 * switch (b.kind()) {
 *   case EMBEDDINGS -> LlmDsl.embeddings("embed").variant(b.embeddingsVariant()) ...
 *   ...
 * }
 * }</pre>
 */
public final class Backends {

  /** The DSL request kind that sends a backend's requests. */
  public enum Kind {
    /** {@code LlmDsl.completions(name)}. */
    COMPLETIONS,
    /** {@code LlmDsl.chat(name)}, with {@code multiModal(...)} for multimodal datasets. */
    CHAT,
    /** {@code LlmDsl.audio(name)}. */
    AUDIO,
    /** {@code LlmDsl.embeddings(name).variant(embeddingsVariant())}. */
    EMBEDDINGS,
    /** {@code LlmDsl.rerank(name)}. */
    RERANK
  }

  /**
   * A backend that can be served.
   *
   * @param name              vLLM's backend name
   * @param kind              the request kind to build
   * @param embeddingsVariant for {@link Kind#EMBEDDINGS}, the body shape; null otherwise
   * @param defaultEndpoint   the path its requests go to by default here (vLLM's own
   *                          {@code --endpoint} default is {@code /v1/completions} whatever the
   *                          backend, so its users pass {@code --endpoint} for the others)
   * @param pooling           whether results use vLLM's reduced (pooling) metric set
   */
  public record Backend(String name, Kind kind, EmbeddingsVariant embeddingsVariant,
      String defaultEndpoint, boolean pooling) {}

  private static final Map<String, Backend> SERVED = new LinkedHashMap<>();
  private static final Map<String, String> REFUSED = new LinkedHashMap<>();

  static {
    served("vllm", Kind.COMPLETIONS, "/v1/completions");
    served("openai", Kind.COMPLETIONS, "/v1/completions");
    // older vLLM releases sent these the OpenAI completions request too
    served("sglang", Kind.COMPLETIONS, "/v1/completions");
    served("lmdeploy", Kind.COMPLETIONS, "/v1/completions");
    served("scalellm", Kind.COMPLETIONS, "/v1/completions");
    served("llama.cpp", Kind.COMPLETIONS, "/v1/completions");
    served("openai-chat", Kind.CHAT, "/v1/chat/completions");
    served("openai-audio", Kind.AUDIO, "/v1/audio/transcriptions");
    for (EmbeddingsVariant v : EmbeddingsVariant.values()) {
      SERVED.put(v.backend(), new Backend(v.backend(), Kind.EMBEDDINGS, v, v.defaultPath(), true));
    }
    SERVED.put("vllm-rerank", new Backend("vllm-rerank", Kind.RERANK, null, "/v1/rerank", true));
    String ownProtocol = " speaks its own protocol, not the OpenAI API, and current vLLM's "
        + "bench serve no longer has it; run the server's OpenAI-compatible endpoint with "
        + "--backend openai or openai-chat";
    REFUSED.put("tgi", "tgi (Text Generation Inference's /generate_stream)" + ownProtocol);
    REFUSED.put("tensorrt-llm", "tensorrt-llm (Triton's generate_stream)" + ownProtocol);
    REFUSED.put("deepspeed-mii", "deepspeed-mii (a non-streamed MII request)" + ownProtocol);
  }

  private static void served(String name, Kind kind, String endpoint) {
    SERVED.put(name, new Backend(name, kind, null, endpoint, false));
  }

  private Backends() {}

  /** Every backend name that can be served, in a stable order. */
  public static Set<String> servedNames() {
    return Collections.unmodifiableSet(SERVED.keySet());
  }

  /** Backend names vLLM knows that are refused, with the reason for each. */
  public static Map<String, String> refused() {
    return Collections.unmodifiableMap(REFUSED);
  }

  /** The backend, or empty when the name is refused or unknown. */
  public static Optional<Backend> lookup(String name) {
    return Optional.ofNullable(name == null ? null : SERVED.get(name.trim()));
  }

  /**
   * The backend of a {@code --backend} value.
   *
   * @throws IllegalArgumentException saying why a known name cannot be served, or listing the
   *     served names for an unknown one
   */
  public static Backend resolve(String name) {
    Optional<Backend> found = lookup(name);
    if (found.isPresent()) {
      return found.get();
    }
    String key = name == null ? null : name.trim();
    if (key != null && REFUSED.containsKey(key)) {
      throw new IllegalArgumentException("--backend " + key + " cannot be served: "
          + REFUSED.get(key));
    }
    throw new IllegalArgumentException("Unknown --backend '" + name + "'; served: "
        + String.join(", ", SERVED.keySet()));
  }
}
