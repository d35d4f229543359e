package dev.gatlingllm.client;

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
 */
public record LlmRequest(
    String name,
    String path,
    HttpHeaders headers,
    byte[] body,
    int promptTokens,
    long scheduledNanos) {

  /** Marks a request that nothing paced: its scheduled time is its start. */
  public static final long NOT_SCHEDULED = Long.MIN_VALUE;

  /** Header values stay out: they carry the API key. */
  @Override
  public String toString() {
    return "LlmRequest{" + name + " " + path + ", headers=" + headers.names()
        + ", " + body.length + " bytes}";
  }
}
