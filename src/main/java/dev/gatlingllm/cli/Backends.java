package dev.gatlingllm.cli;

import dev.gatlingllm.action.Backends.Backend;
import java.util.Map;

/**
 * {@code --backend} for {@link BenchServe}: a thin layer over {@link
 * dev.gatlingllm.action.Backends}, which alone knows the names vLLM accepts, the request kind
 * of each and why the others are refused. What this class adds is the README's view of it.
 */
public final class Backends {

  private Backends() {}

  /**
   * The backend of that name.
   *
   * @throws IllegalArgumentException for a backend that is refused (with the reason) or that
   *     vLLM does not know
   */
  public static Backend resolve(String name) {
    return dev.gatlingllm.action.Backends.resolve(name);
  }

  /** The README's backend table, generated from {@link dev.gatlingllm.action.Backends}. */
  public static String markdownTable() {
    StringBuilder out = new StringBuilder(
        "| `--backend` | sends | `--endpoint` when not given | datasets |\n|---|---|---|---|\n");
    for (String name : dev.gatlingllm.action.Backends.servedNames()) {
      Backend b = resolve(name);
      out.append("| `").append(name).append("` | ").append(sends(b)).append(" | `")
          .append(b.defaultEndpoint()).append("` | ").append(Compatibility.accepts(b))
          .append(" |\n");
    }
    for (Map.Entry<String, String> r : dev.gatlingllm.action.Backends.refused().entrySet()) {
      out.append("| `").append(r.getKey()).append("` | **refused**: ").append(r.getValue())
          .append(" | | |\n");
    }
    return out.toString();
  }

  private static String sends(Backend b) {
    return switch (b.kind()) {
      case COMPLETIONS -> "streamed completions";
      case CHAT -> "streamed chat completions: the prompt as a text part, then the dataset's "
          + "images or video as content parts";
      case AUDIO -> "streamed transcription: the dataset's audio clip uploaded as a form, "
          + "`temperature` 0.0";
      case EMBEDDINGS -> "embeddings, " + switch (b.embeddingsVariant()) {
        case OPENAI -> "the prompt as `input`";
        case OPENAI_CHAT -> "the prompt and media as a chat message";
        case OPENAI_CLIP -> "a chat message, the text left empty when there is an image";
        case OPENAI_VLM2VEC -> "a chat message, media first, with VLM2Vec's instruction";
        case INFINITY -> "Infinity's body: the prompt as `input`";
        case INFINITY_CLIP -> "Infinity's body: the image alone when there is one";
        case VLLM_POOLING -> "vLLM's `/pooling` body";
      } + "; pooling metrics";
      case RERANK -> "the query and its documents; pooling metrics";
    };
  }
}
