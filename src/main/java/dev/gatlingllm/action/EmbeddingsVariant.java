package dev.gatlingllm.action;

import dev.gatlingllm.internal.action.EmbeddingsApi;

/**
 * The body shapes of vLLM's pooling backends that embed, each named as {@code vllm bench
 * serve --backend} names it. They differ in how text and images go into the body; the rest
 * of each backend (its path, datasets, metric set) is its entry in {@link Backends}.
 */
public enum EmbeddingsVariant {
  /** {@code openai-embeddings}: {@code {model, input, truncate_prompt_tokens: -1}}. */
  OPENAI("openai-embeddings"),
  /**
   * {@code openai-embeddings-chat}: a chat message ({@code messages} with a text part and the
   * media after it) instead of {@code input}.
   */
  OPENAI_CHAT("openai-embeddings-chat"),
  /** {@code openai-embeddings-clip}: as chat, with an empty text when there is an image. */
  OPENAI_CLIP("openai-embeddings-clip"),
  /**
   * {@code openai-embeddings-vlm2vec}: as chat with the media first; with an image the text is
   * "Represent the given image." for even request numbers (and ids without a number), and
   * "Represent the given image with the following question: " + prompt for odd ones.
   */
  OPENAI_VLM2VEC("openai-embeddings-vlm2vec"),
  /**
   * {@code infinity-embeddings}: {@code {model, input}}, or for an image alone its URL as
   * {@code input} with {@code modality} ({@code image}, {@code video}, ...).
   */
  INFINITY("infinity-embeddings"),
  /** {@code infinity-embeddings-clip}: as Infinity, sending only the image when there is one. */
  INFINITY_CLIP("infinity-embeddings-clip"),
  /**
   * {@code vllm-pooling}: vLLM's {@code /pooling} API, {@code {model, truncate_prompt_tokens:
   * -1, input}}; a map-valued input is merged into the body instead.
   */
  VLLM_POOLING("vllm-pooling");

  private final String backend;

  EmbeddingsVariant(String backend) {
    this.backend = backend;
  }

  /** vLLM's {@code --backend} name. */
  public String backend() {
    return backend;
  }

  /**
   * The path requests go to unless {@code endpoint(...)} says otherwise: its API's.
   */
  public String defaultPath() {
    return EmbeddingsApi.of(this).defaultPath();
  }
}
