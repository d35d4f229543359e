package dev.gatlingllm.action;

import dev.gatlingllm.dataset.PromptTokenIds;
import dev.gatlingllm.dataset.RandomMultiModalDataset;
import io.gatling.javaapi.core.Session;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * The request each kind of backend sends, built with the DSL from the dataset's attributes and
 * the command line's flags, as vLLM's request function of the backend sends it: the request
 * factories of the {@link Backends} table.
 */
final class BackendRequests {

  /** The dataset's ids, sent as {@code x-request-id} as vLLM does. */
  private static final String REQUEST_ID = "#{request_id}";

  private BackendRequests() {}

  static LlmRequestBuilder completions(RequestFlags flags) {
    LlmRequestBuilder r = LlmRequestBuilder.completions("completions").fromDataset();
    if (flags.on("prompt-token-ids")) {
      // the ids the dataset's tokenizer gave each prompt (PromptTokenIds), as vllm-bench sends
      r = r.promptTokenIds("#{" + PromptTokenIds.FEEDER_KEY + "}");
    }
    return generation(r, flags, true);
  }

  static LlmRequestBuilder chat(RequestFlags flags) {
    // vLLM sends the prompt as a text part of the user message, the media after it
    return generation(LlmRequestBuilder.chat("chat").fromDataset()
        .multiModal(BackendRequests::mediaParts), flags, false);
  }

  /**
   * The chat request of a conversation's turns ({@code --multi-turn}): the flags' fields; the
   * turns give the messages and lengths, the protocol a request id per turn (the dataset's
   * ids name conversations there).
   */
  static LlmRequestBuilder conversationTurn(RequestFlags flags) {
    return generation(LlmRequestBuilder.chat("chat"), flags, false).copy(b -> b.requestId = null);
  }

  static LlmRequestBuilder responses(RequestFlags flags) {
    return generation(LlmRequestBuilder.responses("responses").fromDataset(), flags, false);
  }

  private static LlmRequestBuilder generation(LlmRequestBuilder base, RequestFlags flags,
      boolean completions) {
    LlmRequestBuilder r = base.endpoint(flags.endpoint()).requestId(REQUEST_ID);
    if (flags.on("ignore-eos")) {
      r = r.ignoreEos(true);
    }
    if (completions && flags.integer("logprobs").isPresent()) {
      int n = flags.integer("logprobs").getAsInt();
      LlmRequestBuilder current = r;
      r = flags.flagged("logprobs", () -> current.logprobs(n));
    }
    if (flags.model().isPresent()) {
      r = r.model(flags.model().get());
    }
    // unset, no temperature is sent and the server decides, as current vLLM does
    r = flags.decimal("temperature").isPresent()
        ? sampling(r, flags, "temperature", LlmRequestBuilder::temperature)
        : r.serverTemperature();
    r = sampling(r, flags, "top-p", LlmRequestBuilder::topP);
    r = sampling(r, flags, "min-p", LlmRequestBuilder::minP);
    r = sampling(r, flags, "frequency-penalty", LlmRequestBuilder::frequencyPenalty);
    r = sampling(r, flags, "presence-penalty", LlmRequestBuilder::presencePenalty);
    r = sampling(r, flags, "repetition-penalty", LlmRequestBuilder::repetitionPenalty);
    if (completions && flags.decimal("repetition-penalty").isEmpty()) {
      // vLLM's completions request always carries it (1.0, the server's default too)
      r = r.repetitionPenalty(1.0);
    }
    if (flags.integer("top-k").isPresent()) {
      int k = flags.integer("top-k").getAsInt();
      LlmRequestBuilder current = r;
      r = flags.flagged("top-k", () -> current.topK(k));
    }
    LlmRequestBuilder sampled = r;
    return flags.flagged("extra-body", () -> sampled.extraBody(flags.extraBody()));
  }

  private static LlmRequestBuilder sampling(LlmRequestBuilder r, RequestFlags flags,
      String flag, BiFunction<LlmRequestBuilder, Double, LlmRequestBuilder> set) {
    if (flags.decimal(flag).isEmpty()) {
      return r;
    }
    double v = flags.decimal(flag).getAsDouble();
    return flags.flagged(flag, () -> set.apply(r, v));
  }

  static AudioRequestBuilder audio(RequestFlags flags) {
    AudioRequestBuilder r = AudioRequestBuilder.of("audio").fromDataset()
        .endpoint(flags.endpoint()).requestId(REQUEST_ID);
    if (flags.on("ignore-eos")) {
      r = r.ignoreEos(true);
    }
    // vLLM's greedy default goes in with the extra body, after the standard fields
    r = r.extraBody("temperature", 0.0);
    for (Map.Entry<String, Object> field : flags.extraBody().entrySet()) {
      AudioRequestBuilder current = r;
      r = flags.flagged("extra-body", () -> current.extraBody(field.getKey(), field.getValue()));
    }
    return r;
  }

  static EmbeddingsRequestBuilder embeddings(EmbeddingsVariant variant, RequestFlags flags) {
    EmbeddingsRequestBuilder r = EmbeddingsRequestBuilder.embeddings("embeddings")
        .variant(variant).fromDataset().multiModal(BackendRequests::mediaParts)
        .endpoint(flags.endpoint()).requestId(REQUEST_ID);
    // vLLM's embeddings requests carry ignore_eos when asked (and no sampling parameter)
    r = flags.on("ignore-eos") ? r.extraBody("ignore_eos", true) : r;
    for (Map.Entry<String, Object> field : flags.extraBody().entrySet()) {
      EmbeddingsRequestBuilder current = r;
      r = flags.flagged("extra-body", () -> current.extraBody(field.getKey(), field.getValue()));
    }
    return r;
  }

  static RerankRequestBuilder rerank(RequestFlags flags) {
    return RerankRequestBuilder.rerank("rerank").fromDataset().endpoint(flags.endpoint())
        .requestId(REQUEST_ID);
  }

  /** The dataset's images or video; none for a text row. */
  private static Object mediaParts(Session session) {
    return session.contains(RandomMultiModalDataset.MM_CONTENT)
        ? session.get(RandomMultiModalDataset.MM_CONTENT) : List.of();
  }
}
