package dev.gatlingllm.cli;

import dev.gatlingllm.action.Backends.Backend;
import dev.gatlingllm.action.Backends.Kind;
import dev.gatlingllm.dataset.DatasetContent;

/**
 * Which datasets a backend can send, with vLLM's rules: {@code random-mm} only through
 * {@code openai-chat}; image and video datasets through chat or an embeddings backend; audio
 * (ASR) datasets only through {@code openai-audio}, which sends nothing else; rerank only
 * {@code random-rerank}, which nothing else sends. Checked before anything is sent: from the
 * flags when they tell, from the sampled requests otherwise.
 */
final class Compatibility {

  private Compatibility() {}

  /**
   * @throws IllegalArgumentException saying which backend or dataset would work instead
   */
  static void check(Backend backend, String datasetName, DatasetContent content) {
    String why = refusal(backend, datasetName, content);
    if (why != null) {
      throw new IllegalArgumentException("--backend " + backend.name() + " with --dataset-name "
          + datasetName + ": " + why);
    }
  }

  private static String refusal(Backend backend, String datasetName, DatasetContent content) {
    Kind kind = backend.kind();
    if (kind == Kind.RERANK && content != DatasetContent.RERANK) {
      return "rerank requests are a query with its documents, which only the random-rerank "
          + "dataset makes (vLLM's only rerank dataset); use --dataset-name random-rerank";
    }
    if (content == DatasetContent.RERANK && kind != Kind.RERANK) {
      return "the dataset's requests are rerank queries with documents, which only "
          + "--backend vllm-rerank sends";
    }
    if (kind == Kind.AUDIO && content != DatasetContent.AUDIO) {
      return "openai-audio uploads each request's audio clip, and this dataset has "
          + content.description() + "; use an ASR dataset such as --dataset-name hf "
          + "--dataset-path openslr/librispeech_asr";
    }
    if (content == DatasetContent.AUDIO && kind != Kind.AUDIO) {
      return "the dataset's requests are audio clips, which only --backend openai-audio "
          + "uploads";
    }
    if (datasetName.equals("random-mm") && kind != Kind.CHAT) {
      return "multi-modal content (images) is only supported on the 'openai-chat' backend, "
          + "as in vLLM";
    }
    if (content == DatasetContent.VISUAL && kind == Kind.COMPLETIONS) {
      return "the dataset's requests carry images or video, which completions cannot send; "
          + "use --backend openai-chat (or an embeddings backend), as vLLM requires";
    }
    return null;
  }

  /** The README's datasets column for a backend. */
  static String accepts(Backend backend) {
    return switch (backend.kind()) {
      case COMPLETIONS -> "text datasets";
      case CHAT -> "text datasets, `random-mm`, image and video `hf` datasets";
      case AUDIO -> "ASR `hf` datasets only";
      case EMBEDDINGS -> "text datasets, image and video `hf` datasets";
      case RERANK -> "`random-rerank` only";
    };
  }
}
