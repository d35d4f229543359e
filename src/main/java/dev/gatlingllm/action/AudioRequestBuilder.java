package dev.gatlingllm.action;

import dev.gatlingllm.internal.action.AudioApi;
import dev.gatlingllm.internal.action.AudioTemplate;
import dev.gatlingllm.internal.action.SessionValue;
import io.gatling.javaapi.core.Session;
import java.util.Map;
import java.util.function.Function;

/**
 * One streamed transcription or translation, as vLLM's {@code openai-audio} backend sends it:
 * a {@code multipart/form-data} upload of the audio file with the fields {@code model},
 * {@code max_completion_tokens}, {@code stream}, {@code language},
 * {@code stream_include_usage} and {@code stream_continuous_usage_stats}; the answer streams
 * like chat and is timed like chat. Immutable.
 *
 * <pre>{@code
 * exec(LlmDsl.audio("transcribe").fromDataset())             // ASR datasets: #{audio}
 * exec(LlmDsl.audio("translate").translations().audio(s -> wavBytes).maxTokens(64))
 * }</pre>
 */
public final class AudioRequestBuilder extends RequestBuilderBase<AudioRequestBuilder> {

  private static final String TRANSCRIPTIONS = AudioApi.INSTANCE.defaultPath();

  private SessionValue<byte[]> audio;
  private String fileName = "audio.wav";
  private String contentType = "audio/wav";
  private String language = "en";
  private SessionValue<Integer> maxTokens;
  private Boolean ignoreEos;
  private Map<String, Object> extraFields = Map.of();
  private String saveTextAs;

  AudioRequestBuilder(String name) {
    super(name, TRANSCRIPTIONS);
  }

  /** A transcription request (see {@code LlmDsl.audio}). */
  public static AudioRequestBuilder of(String name) {
    return new AudioRequestBuilder(name);
  }

  /** {@code /v1/audio/transcriptions} (the default). */
  public AudioRequestBuilder transcriptions() {
    return copy(b -> b.path = TRANSCRIPTIONS);
  }

  /** {@code /v1/audio/translations}. */
  public AudioRequestBuilder translations() {
    return copy(b -> b.path = AudioApi.TRANSLATIONS);
  }

  /** The audio file's bytes (a WAV file unless {@link #file} says otherwise), e.g. "#{audio}". */
  public AudioRequestBuilder audio(String el) {
    SessionValue<byte[]> v = SessionValue.el("audio", el, byte[].class);
    return copy(b -> b.audio = v);
  }

  public AudioRequestBuilder audio(Function<Session, byte[]> f) {
    SessionValue<byte[]> v = SessionValue.function("audio", f);
    return copy(b -> b.audio = v);
  }

  /**
   * The upload's file name and content type; default {@code audio.wav}, {@code audio/wav},
   * what vLLM sends for decoded dataset audio.
   */
  public AudioRequestBuilder file(String name, String type) {
    if (name == null || name.isBlank() || name.contains("\"") || type == null || type.isBlank()) {
      throw new IllegalArgumentException("file name and type must be non-empty (and the name "
          + "without quotes), got '" + name + "', '" + type + "'");
    }
    return copy(b -> {
      b.fileName = name;
      b.contentType = type;
    });
  }

  /** The {@code language} field; vLLM always sends {@code en}. */
  public AudioRequestBuilder language(String code) {
    if (code == null || code.isBlank()) {
      throw new IllegalArgumentException("language must not be empty");
    }
    return copy(b -> b.language = code);
  }

  /** {@code max_completion_tokens}, e.g. {@code "#{output_len}"}. */
  public AudioRequestBuilder maxTokens(int tokens) {
    if (tokens < 1) {
      throw new IllegalArgumentException("maxTokens must be >= 1, got " + tokens);
    }
    return copy(b -> b.maxTokens = SessionValue.constant(tokens));
  }

  public AudioRequestBuilder maxTokens(String el) {
    SessionValue<Integer> v = SessionValue.el("maxTokens", el, Integer.class);
    return copy(b -> b.maxTokens = v);
  }

  /** Audio {@code "#{audio}"}, {@code "#{prompt_len}"} and {@code "#{output_len}"}. */
  public AudioRequestBuilder fromDataset() {
    return audio("#{audio}").promptTokens("#{prompt_len}").maxTokens("#{output_len}");
  }

  public AudioRequestBuilder ignoreEos(boolean ignore) {
    return copy(b -> b.ignoreEos = ignore);
  }

  /** Adds a form field (vLLM's {@code --extra-body}); the value is sent as Python prints it. */
  public AudioRequestBuilder extraBody(String field, Object value) {
    if (field == null || field.isBlank() || field.equals("file")) {
      throw new IllegalArgumentException("extraBody field must be a non-empty name other than "
          + "'file', got '" + field + "'");
    }
    Map<String, Object> fields = with(extraFields, field, value);
    return copy(b -> b.extraFields = fields);
  }

  /** Saves the transcript in the session under this attribute. */
  public AudioRequestBuilder saveTextAs(String attribute) {
    if (attribute == null || attribute.isBlank()) {
      throw new IllegalArgumentException("saveTextAs attribute must not be empty");
    }
    return copy(b -> b.saveTextAs = attribute);
  }

  @Override
  AudioTemplate template() {
    if (audio == null) {
      throw new IllegalArgumentException("request '" + name + "': audio(...) is required");
    }
    return new AudioTemplate(name, path, audio, fileName, contentType, language, maxTokens,
        promptTokens, requestId, ignoreEos, extraFields, saveTextAs);
  }
}
