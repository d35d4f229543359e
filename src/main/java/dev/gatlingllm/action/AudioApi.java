package dev.gatlingllm.action;

import dev.gatlingllm.metrics.TaskType;
import java.util.List;
import java.util.Map;

/**
 * The transcription API ({@code /v1/audio/transcriptions}, or translations): the dataset's
 * audio clip uploaded as a form ({@link AudioTemplate} writes it), read as streamed chat
 * chunks by the shared fast path.
 */
final class AudioApi extends Api {

  static final AudioApi INSTANCE = new AudioApi();

  private AudioApi() {
    super("openai-audio", "/v1/audio/transcriptions", List.of("transcriptions", "translations"),
        true, TaskType.GENERATION, false);
  }

  @Override
  AudioRequestBuilder request(RequestFlags flags) {
    AudioRequestBuilder r = AudioRequestBuilder.of("audio").fromDataset()
        .endpoint(flags.endpoint()).requestId(BackendRequests.REQUEST_ID);
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
}
