package dev.gatlingllm.metrics;

/** Which metric set applies: generation (streamed tokens) or embeddings (the reduced set). */
public enum TaskType {
  GENERATION,
  EMBEDDING
}
