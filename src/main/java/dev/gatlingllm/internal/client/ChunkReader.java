package dev.gatlingllm.internal.client;

import io.netty.handler.codec.http.HttpHeaders;
import java.io.IOException;

/**
 * How one API's answer is read: each streamed chunk (or the whole non-streamed body) into the
 * few fields the measurements need. Each API of the backend table gives its own
 * ({@code action.Api#reader()}); completions, chat and the pooling APIs share {@link #OPENAI},
 * the allocation-free {@link ChunkScanner} with Jackson behind it.
 *
 * <p>It travels with every request of its API (the run's, the warm-up's, the ready check's),
 * so it also adds the headers that API's server asks of every request
 * ({@link #addRequestHeaders}): one place for them whichever route builds the request.
 */
@FunctionalInterface
public interface ChunkReader {

  /** The OpenAI chunk: {@code choices[0]}'s text or delta, {@code usage}, {@code error}. */
  ChunkReader OPENAI = ChunkParser::parse;

  /**
   * Reads {@code json[0, length)} into {@code out}, resetting it first.
   *
   * @throws IOException when the body is not the JSON object expected (the message says why)
   */
  void read(byte[] json, int length, ChunkFields out) throws IOException;

  /**
   * Adds the headers this API's server asks of every request to {@code headers}, which hold
   * the request's own (the protocol's key, the user's headers) when it is encoded; none for
   * the OpenAI APIs. A header already there is the user's choice, and stays.
   */
  default void addRequestHeaders(HttpHeaders headers) {}

  /**
   * The members of an API's body beside the OpenAI chunk's, read on the Jackson path by
   * {@link ChunkParser#parseWithJackson(byte[], int, ChunkFields, Members)}: one instance per
   * body, as it holds what that body said.
   */
  interface Members {

    /**
     * Reads the value of a top-level member that is this API's, before the OpenAI chunk's
     * reading sees it; false leaves the member to that reading.
     */
    boolean read(String field, com.fasterxml.jackson.core.JsonParser p) throws IOException;

    /** Once the body is read: puts what the API's members said into {@code out}. */
    void applyTo(ChunkFields out);
  }
}
