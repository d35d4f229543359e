package dev.gatlingllm.internal.action;

import dev.gatlingllm.action.LlmRequestBuilder;
import dev.gatlingllm.action.RequestFlags;
import dev.gatlingllm.dataset.RandomMultiModalDataset;
import io.gatling.javaapi.core.Session;
import java.util.List;
import java.util.function.BiFunction;

/**
 * What the {@link Api}s' requests share, built with the DSL from the dataset's attributes and
 * the command line's flags as vLLM's request functions build them: the generation fields,
 * the dataset's request id and media.
 */
public final class BackendRequests {

  /** The dataset's ids, sent as {@code x-request-id} as vLLM does. */
  static final String REQUEST_ID = "#{request_id}";

  private BackendRequests() {}

  /**
   * The chat request of a conversation's turns ({@code --multi-turn}): the flags' fields; the
   * turns give the messages and lengths, the protocol a request id per turn (the dataset's
   * ids name conversations there).
   */
  public static LlmRequestBuilder conversationTurn(RequestFlags flags) {
    return generation(LlmRequestBuilder.chat("chat"), flags, false, false);
  }

  /**
   * The fields vLLM's generation requests take from the flags, on a request of any generation
   * API ({@code completions}: with its logprobs and repetition penalty default).
   */
  static LlmRequestBuilder generation(LlmRequestBuilder base, RequestFlags flags,
      boolean completions) {
    return generation(base, flags, completions, true);
  }

  /** {@link #generation}; without the dataset's request ids when {@code datasetIds} is false. */
  private static LlmRequestBuilder generation(LlmRequestBuilder base, RequestFlags flags,
      boolean completions, boolean datasetIds) {
    LlmRequestBuilder r = base.endpoint(flags.endpoint());
    if (datasetIds) {
      r = r.requestId(REQUEST_ID);
    }
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

  /** The dataset's images or video; none for a text row. */
  static Object mediaParts(Session session) {
    return session.contains(RandomMultiModalDataset.MM_CONTENT)
        ? session.get(RandomMultiModalDataset.MM_CONTENT) : List.of();
  }
}
