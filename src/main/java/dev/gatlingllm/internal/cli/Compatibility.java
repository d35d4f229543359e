package dev.gatlingllm.internal.cli;

import dev.gatlingllm.action.Backends.Accepts;
import dev.gatlingllm.action.Backends.Backend;
import dev.gatlingllm.action.Backends;
import dev.gatlingllm.dataset.DatasetContent;
import java.util.Optional;

/**
 * Which datasets a backend can send, with vLLM's rules over each backend's {@link Accepts}
 * in the {@link Backends} table: {@code random-mm} only through {@code openai-chat}; image and
 * video datasets through chat or an embeddings backend; audio (ASR) datasets only through
 * {@code openai-audio}, which sends nothing else; rerank only {@code random-rerank}, which
 * nothing else sends. Checked before anything is sent: from the flags when they tell, from
 * the sampled requests otherwise.
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
    Accepts accepts = backend.accepts();
    // vLLM checks the richest content first, as DatasetContent.of ranks them (rerank, audio,
    // images): a backend that sends one content only, then a content one backend only sends
    DatasetContent[] contents = DatasetContent.values();
    for (int i = contents.length - 1; i >= 0; i--) {
      DatasetContent c = contents[i];
      if (accepts.onlyFor() == c && content != c) {
        return accepts.ownRefusal().apply(content);
      }
      Optional<Backend> only = Backends.onlySenderOf(c);
      if (content == c && only.isPresent() && !accepts.sends(c)) {
        return only.get().accepts().others();
      }
    }
    if (datasetName.equals("random-mm") && !accepts.randomMm()) {
      return "multi-modal content (images) is only supported on the 'openai-chat' backend, "
          + "as in vLLM";
    }
    if (!accepts.sends(content)) {
      return "the dataset's requests carry images or video, which completions cannot send; "
          + "use --backend openai-chat (or an embeddings backend), as vLLM requires";
    }
    return null;
  }
}
