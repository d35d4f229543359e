package dev.gatlingllm.internal.metrics;

/** Which metric set applies: generation (streamed tokens) or embeddings (the reduced set). */
public enum TaskType {
  GENERATION,
  EMBEDDING
}
