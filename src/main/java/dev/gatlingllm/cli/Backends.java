package dev.gatlingllm.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * Every {@code --backend} name vLLM's benchmark accepts (current and older releases), and
 * what {@link BenchServe} sends for it. A backend that is not mapped yet is refused here, and
 * only here: wiring one in is one line of {@link #TABLE}.
 */
public final class Backends {

  /** The request a backend sends. */
  public enum Request {
    /** streamed {@code /v1/completions} */
    COMPLETIONS,
    /** streamed {@code /v1/chat/completions} */
    CHAT
  }

  /**
   * A backend name: its request, or why it is refused.
   *
   * @param request null when refused
   * @param refusal null when mapped
   */
  public record Backend(String name, Request request, String refusal) {
    boolean mapped() {
      return request != null;
    }
  }

  private static final String POOLING = "pooling requests (embeddings, rerank) and their "
      + "reduced metric set are not mapped by the ready simulation yet";
  private static final String OLD = "its request function is gone from current vLLM and "
      + "speaks the server's own protocol, not the OpenAI API";

  static final Map<String, Backend> TABLE = table(
      mapped("vllm", Request.COMPLETIONS),
      mapped("openai", Request.COMPLETIONS),
      mapped("openai-chat", Request.CHAT),
      // older vLLM releases sent OpenAI completions for these names
      mapped("lmdeploy", Request.COMPLETIONS),
      mapped("sglang", Request.COMPLETIONS),
      mapped("scalellm", Request.COMPLETIONS),
      mapped("llama.cpp", Request.COMPLETIONS),
      refused("openai-audio", "transcription/translation requests (multipart audio upload) "
          + "are not mapped by the ready simulation yet"),
      refused("openai-embeddings", POOLING),
      refused("openai-embeddings-chat", POOLING),
      refused("openai-embeddings-clip", POOLING),
      refused("openai-embeddings-vlm2vec", POOLING),
      refused("infinity-embeddings", POOLING),
      refused("infinity-embeddings-clip", POOLING),
      refused("vllm-rerank", POOLING),
      refused("tgi", OLD),
      refused("deepspeed-mii", OLD),
      refused("tensorrt-llm", OLD));

  private Backends() {}

  /**
   * The backend of that name.
   *
   * @throws IllegalArgumentException for a backend that is refused (with the reason) or that
   *     vLLM does not know
   */
  public static Backend resolve(String name) {
    Backend backend = TABLE.get(name);
    if (backend == null) {
      throw new IllegalArgumentException("--backend " + name + " is not a backend of vLLM's "
          + "benchmark; known: " + new TreeSet<>(TABLE.keySet()));
    }
    if (!backend.mapped()) {
      throw new IllegalArgumentException("--backend " + name + " is refused: "
          + backend.refusal() + ". Mapped backends: " + mappedNames());
    }
    return backend;
  }

  /** The README's backend table, generated from {@link #TABLE}. */
  public static String markdownTable() {
    StringBuilder out = new StringBuilder("| `--backend` | sends |\n|---|---|\n");
    for (Backend b : TABLE.values()) {
      out.append("| `").append(b.name()).append("` | ").append(b.mapped()
          ? (b.request() == Request.CHAT ? "streamed chat completions" : "streamed completions")
          : "**refused**: " + b.refusal()).append(" |\n");
    }
    return out.toString();
  }

  static String mappedNames() {
    return TABLE.values().stream().filter(Backend::mapped).map(Backend::name).toList()
        .toString();
  }

  private static Backend mapped(String name, Request request) {
    return new Backend(name, request, null);
  }

  private static Backend refused(String name, String reason) {
    return new Backend(name, null, reason);
  }

  private static Map<String, Backend> table(Backend... backends) {
    Map<String, Backend> map = new LinkedHashMap<>();
    for (Backend b : backends) {
      map.put(b.name(), b);
    }
    return map;
  }
}
