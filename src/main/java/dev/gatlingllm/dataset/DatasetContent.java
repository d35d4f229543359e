package dev.gatlingllm.dataset;

import java.util.List;
import java.util.Map;

/**
 * What a dataset's requests carry besides their text, which decides the request kinds that
 * can send them: chat and the embeddings backends send images and video, only the audio
 * backend uploads audio, and only rerank takes a query with documents.
 */
public enum DatasetContent {
  /** Text prompts only. */
  TEXT("text prompts"),
  /** Images or video as OpenAI content parts ({@value RandomMultiModalDataset#MM_CONTENT}). */
  VISUAL("images or video"),
  /** An audio clip per request ({@code audio}, WAV bytes). */
  AUDIO("audio clips"),
  /** A query and its documents ({@value RandomRerankDataset#DOCUMENTS}). */
  RERANK("rerank queries with documents");

  private final String description;

  DatasetContent(String description) {
    this.description = description;
  }

  /** For messages: "images or video", "audio clips", ... */
  public String description() {
    return description;
  }

  /** The content of sampled requests: the richest any of them carries. */
  public static DatasetContent of(Samples samples) {
    return ofRecords(samples.records());
  }

  static DatasetContent ofRecords(List<Map<String, Object>> records) {
    DatasetContent found = TEXT;
    for (Map<String, Object> r : records) {
      if (r.containsKey(RandomRerankDataset.DOCUMENTS)) {
        return RERANK;
      }
      if (r.containsKey(HfKind.AUDIO)) {
        return AUDIO;
      }
      if (r.containsKey(RandomMultiModalDataset.MM_CONTENT)) {
        found = VISUAL;
      }
    }
    return found;
  }
}
