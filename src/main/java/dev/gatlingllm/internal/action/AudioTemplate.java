package dev.gatlingllm.internal.action;

import dev.gatlingllm.internal.metrics.TaskType;
import io.gatling.core.session.Session;
import java.util.Map;

/**
 * Transcription and translation uploads: the session's audio clip and budget resolved and
 * handed to {@link AudioApi}, which writes the form.
 */
public final class AudioTemplate extends RequestTemplate {

  private final SessionValue<byte[]> audio;
  private final String fileName;
  private final String contentType;
  private final String language;
  private final SessionValue<Integer> maxTokens;
  private final Boolean ignoreEos;
  private final Map<String, Object> extraFields;

  public AudioTemplate(String name, String path, SessionValue<byte[]> audio, String fileName,
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

  @Override
  public Body body(Session session, String model, String requestId) {
    byte[] bytes = audio.resolve(session);
    if (bytes.length == 0) {
      throw new SessionValue.ResolutionException("audio: the file is empty");
    }
    Integer max = maxTokens == null ? null : maxTokens.resolve(session);
    if (max != null && max < 1) {
      throw new SessionValue.ResolutionException("maxTokens must be >= 1, got " + max);
    }
    return AudioApi.INSTANCE.form(bytes, fileName, contentType,
        AudioApi.fields(model, max, language, ignoreEos, extraFields));
  }

  @Override
  public String endpointType() {
    return AudioApi.INSTANCE.endpointType();
  }

  @Override
  public TaskType taskType() {
    return TaskType.GENERATION;
  }
}
