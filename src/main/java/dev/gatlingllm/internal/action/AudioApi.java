package dev.gatlingllm.internal.action;

import dev.gatlingllm.action.AudioRequestBuilder;
import dev.gatlingllm.action.RequestFlags;
import dev.gatlingllm.internal.metrics.TaskType;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The transcription API ({@code /v1/audio/transcriptions}, or translations): the dataset's
 * audio clip uploaded as a form, its text fields after the file part, holding what Python's
 * {@code str()} makes of vLLM's payload values ({@code True}, not {@code true}), in its
 * order. The answer streams chat chunks, read by the shared fast path.
 */
public final class AudioApi extends Api {

  private static final AtomicLong BOUNDARIES = new AtomicLong();

  public static final AudioApi INSTANCE = new AudioApi();
  /** Its other path, for translations into English. */
  public static final String TRANSLATIONS = "/v1/audio/translations";

  private AudioApi() {
    super("openai-audio", "/v1/audio/transcriptions", List.of("transcriptions", "translations"),
        true, TaskType.GENERATION, false);
  }

  @Override
  public AudioRequestBuilder request(RequestFlags flags) {
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

  /**
   * The form's text fields in vLLM's order.
   *
   * @param maxTokens the budget; null sends Python's {@code None}
   */
  static Map<String, String> fields(String model, Integer maxTokens, String language,
      Boolean ignoreEos, Map<String, Object> extraFields) {
    Map<String, String> f = new LinkedHashMap<>();
    f.put("model", model);
    f.put("max_completion_tokens", python(maxTokens));
    f.put("stream", "True");
    f.put("language", language);
    // flattened, as a form cannot nest stream_options
    f.put("stream_include_usage", "True");
    f.put("stream_continuous_usage_stats", "True");
    if (Boolean.TRUE.equals(ignoreEos)) {
      f.put("ignore_eos", "True");
    }
    extraFields.forEach((k, v) -> f.put(k, python(v)));
    return f;
  }

  /** Python's {@code str()} of the simple values a payload holds. */
  public static String python(Object value) {
    if (value == null) {
      return "None";
    }
    if (value instanceof Boolean b) {
      return b ? "True" : "False";
    }
    return value.toString();
  }

  /**
   * The multipart form: the file part, then the text fields; with the clip's length, for
   * {@code rtfx}.
   */
  RequestTemplate.Body form(byte[] audio, String fileName, String contentType,
      Map<String, String> fields) {
    String boundary = "gatling-llm-" + Long.toHexString(BOUNDARIES.incrementAndGet())
        + Long.toHexString(System.nanoTime());
    ByteArrayOutputStream out = new ByteArrayOutputStream(audio.length + 1024);
    write(out, "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\""
        + fileName + "\"\r\nContent-Type: " + contentType + "\r\n\r\n");
    out.writeBytes(audio);
    write(out, "\r\n");
    fields.forEach((k, v) -> write(out, "--" + boundary
        + "\r\nContent-Disposition: form-data; name=\"" + k + "\"\r\n\r\n" + v + "\r\n"));
    write(out, "--" + boundary + "--\r\n");
    return new RequestTemplate.Body(out.toByteArray(), "multipart/form-data; boundary="
        + boundary, null, WavLength.seconds(audio));
  }

  private static void write(ByteArrayOutputStream out, String text) {
    out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
  }
}
