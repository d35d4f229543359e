package dev.gatlingllm.action;

import dev.gatlingllm.metrics.TaskType;
import io.gatling.core.session.Session;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Transcription and translation uploads. The form's text fields hold what Python's
 * {@code str()} makes of vLLM's payload values ({@code True}, not {@code true}), in its
 * order, after the file part.
 */
final class AudioTemplate extends RequestTemplate {

  private static final AtomicLong BOUNDARIES = new AtomicLong();

  private final SessionValue<byte[]> audio;
  private final String fileName;
  private final String contentType;
  private final String language;
  private final SessionValue<Integer> maxTokens;
  private final Boolean ignoreEos;
  private final Map<String, Object> extraFields;

  AudioTemplate(String name, String path, SessionValue<byte[]> audio, String fileName,
      String contentType, String language, SessionValue<Integer> maxTokens,
      SessionValue<Integer> promptTokens, SessionValue<String> requestId, Boolean ignoreEos,
      Map<String, Object> extraFields, String saveTextAs) {
    super(name, path, promptTokens, requestId, saveTextAs);
    this.audio = audio;
    this.fileName = fileName;
    this.contentType = contentType;
    this.language = language;
    this.maxTokens = maxTokens;
    this.ignoreEos = ignoreEos;
    this.extraFields = extraFields;
  }

  /** The form's text fields in vLLM's order. */
  Map<String, String> fields(Session session, String model) {
    Map<String, String> f = new LinkedHashMap<>();
    f.put("model", model);
    Integer max = maxTokens == null ? null : maxTokens.resolve(session);
    if (max != null && max < 1) {
      throw new SessionValue.ResolutionException("maxTokens must be >= 1, got " + max);
    }
    f.put("max_completion_tokens", python(max));
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
  static String python(Object value) {
    if (value == null) {
      return "None";
    }
    if (value instanceof Boolean b) {
      return b ? "True" : "False";
    }
    return value.toString();
  }

  @Override
  Body body(Session session, String model, String requestId) {
    byte[] bytes = audio.resolve(session);
    if (bytes.length == 0) {
      throw new SessionValue.ResolutionException("audio: the file is empty");
    }
    Map<String, String> fields = fields(session, model);
    String boundary = "gatling-llm-" + Long.toHexString(BOUNDARIES.incrementAndGet())
        + Long.toHexString(System.nanoTime());
    ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length + 1024);
    write(out, "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\""
        + fileName + "\"\r\nContent-Type: " + contentType + "\r\n\r\n");
    out.writeBytes(bytes);
    write(out, "\r\n");
    fields.forEach((k, v) -> write(out, "--" + boundary
        + "\r\nContent-Disposition: form-data; name=\"" + k + "\"\r\n\r\n" + v + "\r\n"));
    write(out, "--" + boundary + "--\r\n");
    return new Body(out.toByteArray(), "multipart/form-data; boundary=" + boundary);
  }

  private static void write(ByteArrayOutputStream out, String text) {
    out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  String endpointType() {
    return AudioApi.INSTANCE.endpointType();
  }

  @Override
  TaskType taskType() {
    return TaskType.GENERATION;
  }
}
