package dev.gatlingllm.internal.sim;

import dev.gatlingllm.sim.SimulatorConfig;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.multipart.Attribute;
import io.netty.handler.codec.http.multipart.DefaultHttpDataFactory;
import io.netty.handler.codec.http.multipart.FileUpload;
import io.netty.handler.codec.http.multipart.HttpPostRequestDecoder;
import io.netty.handler.codec.http.multipart.InterfaceHttpData;
import java.io.IOException;

/**
 * A transcription or translation upload ({@code multipart/form-data}) read into the generation
 * it asks for: the answer streams like chat. The audio's length sets the prompt tokens: one
 * per 3,200 bytes (100 ms of 16 kHz 16-bit mono), at least one.
 */
final class AudioRequest {

  static final int BYTES_PER_TOKEN = 3_200;

  private AudioRequest() {}

  static GenerationRequest parse(FullHttpRequest http, SimulatorConfig config, int defaultMaxTokens)
      throws ApiError {
    HttpPostRequestDecoder decoder;
    try {
      decoder = new HttpPostRequestDecoder(new DefaultHttpDataFactory(false), http);
    } catch (HttpPostRequestDecoder.ErrorDataDecoderException e) {
      throw ApiError.badRequest("Malformed multipart body: " + e.getMessage());
    }
    try {
      if (!decoder.isMultipart()) {
        throw ApiError.badRequest("Audio requests must be multipart/form-data with a file");
      }
      long audioBytes = -1;
      String stream = null;
      String includeUsage = null;
      String maxTokens = null;
      for (InterfaceHttpData data : decoder.getBodyHttpDatas()) {
        if (data instanceof FileUpload file && file.getName().equals("file")) {
          audioBytes = file.length();
        } else if (data instanceof Attribute a) {
          String value = a.getValue();
          switch (a.getName()) {
            case "model" -> {
              if (!config.serves(value)) {
                throw ApiError.modelNotFound(value);
              }
            }
            case "stream" -> stream = value;
            case "stream_include_usage" -> includeUsage = value;
            case "max_completion_tokens" -> maxTokens = value;
            default -> { }
          }
        }
      }
      if (audioBytes <= 0) {
        throw ApiError.badRequest("file is required: the audio to transcribe");
      }
      int max = defaultMaxTokens;
      if (maxTokens != null && !maxTokens.equals("None")) {
        try {
          max = Integer.parseInt(maxTokens);
        } catch (NumberFormatException e) {
          throw ApiError.badRequest("max_completion_tokens must be an integer, got " + maxTokens);
        }
        if (max < 1 || max > GenerationRequest.MAX_TOKENS_LIMIT) {
          throw ApiError.badRequest("max_completion_tokens out of range: " + max);
        }
      }
      int promptTokens = (int) Math.max(1, Math.min(Integer.MAX_VALUE, audioBytes / BYTES_PER_TOKEN));
      return new GenerationRequest(true, truthy(stream), truthy(includeUsage), promptTokens, max);
    } catch (IOException e) {
      throw ApiError.badRequest("Unreadable multipart field: " + e.getMessage());
    } catch (HttpPostRequestDecoder.ErrorDataDecoderException e) {
      throw ApiError.badRequest("Malformed multipart body: " + e.getMessage());
    } finally {
      decoder.destroy();
    }
  }

  /** Form values are text: Python clients send {@code True}, others {@code true}. */
  private static boolean truthy(String value) {
    return value != null && (value.equalsIgnoreCase("true") || value.equals("1"));
  }
}
