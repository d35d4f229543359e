package dev.gatlingllm.internal.client;

import io.netty.handler.codec.http.HttpHeaders;

/**
 * One request ready to send: everything session-dependent is already resolved.
 *
 * @param name           Gatling request name (goes into the record)
 * @param path           endpoint path, e.g. {@code /v1/completions}
 * @param headers        extra headers (authorization, request id, user headers)
 * @param body           JSON body
 * @param promptTokens   prompt length from the dataset, -1 when unknown
 * @param scheduledNanos when the arrival profile wanted it sent, or {@link #NOT_SCHEDULED}
 * @param pooling        the answer is one JSON body timed as a whole (embeddings, rerank),
 *                       as vLLM times pooling requests, instead of a stream of chunks
 * @param reader         how the answer's chunks (or its whole body) are read: its API's
 * @param schema         the JSON schema the request asked the answer to follow (structured
 *                       output), checked once the answer is whole; null when none was asked
 * @param cancel         when the client closes the request's connection on purpose;
 *                       {@link CancelAfter#NEVER} for a request that runs to its end
 * @param target         the server it must go to (index of the client's base URLs), or
 *                       {@link #ANY_TARGET} to let the client choose: a conversation's later
 *                       turns go where its first went, whose cache holds their prefix
 */
public record LlmRequest(
    String name,
    String path,
    HttpHeaders headers,
    byte[] body,
    int promptTokens,
    long scheduledNanos,
    boolean pooling,
    ChunkReader reader,
    JsonSchema schema,
    CancelAfter cancel,
    int target) {

  /** Marks a request whose server the client chooses ({@link TargetChooser}). */
  public static final int ANY_TARGET = -1;

  public LlmRequest {
    java.util.Objects.requireNonNull(cancel, "cancel");
    if (target < ANY_TARGET) {
      throw new IllegalArgumentException("target must be a server's index or ANY_TARGET, got "
          + target);
    }
  }

  /** A request to whichever server the client chooses. */
  public LlmRequest(String name, String path, HttpHeaders headers, byte[] body, int promptTokens,
      long scheduledNanos, boolean pooling, ChunkReader reader, JsonSchema schema,
      CancelAfter cancel) {
    this(name, path, headers, body, promptTokens, scheduledNanos, pooling, reader, schema, cancel,
        ANY_TARGET);
  }

  /** A request that runs to its end, asking for no JSON schema. */
  public LlmRequest(String name, String path, HttpHeaders headers, byte[] body, int promptTokens,
      long scheduledNanos, boolean pooling, ChunkReader reader) {
    this(name, path, headers, body, promptTokens, scheduledNanos, pooling, reader,
        (JsonSchema) null, CancelAfter.NEVER);
  }

  /** A request that asks for no JSON schema, cancelled at {@code cancel}. */
  public LlmRequest(String name, String path, HttpHeaders headers, byte[] body, int promptTokens,
      long scheduledNanos, boolean pooling, ChunkReader reader, CancelAfter cancel) {
    this(name, path, headers, body, promptTokens, scheduledNanos, pooling, reader,
        (JsonSchema) null, cancel);
  }

  /** Marks a request that nothing paced: its scheduled time is its start. */
  public static final long NOT_SCHEDULED = Long.MIN_VALUE;

  /** A generation request (streamed, or one JSON completion). */
  public LlmRequest(String name, String path, HttpHeaders headers, byte[] body, int promptTokens,
      long scheduledNanos) {
    this(name, path, headers, body, promptTokens, scheduledNanos, false);
  }

  /** A request whose answer is an OpenAI chunk stream or body (completions, chat, pooling). */
  public LlmRequest(String name, String path, HttpHeaders headers, byte[] body, int promptTokens,
      long scheduledNanos, boolean pooling) {
    this(name, path, headers, body, promptTokens, scheduledNanos, pooling, ChunkReader.OPENAI);
  }

  /** Header values stay out: they carry the API key. */
  @Override
  public String toString() {
    return "LlmRequest{" + name + " " + path + ", headers=" + headers.names()
        + ", " + body.length + " bytes}";
  }
}
