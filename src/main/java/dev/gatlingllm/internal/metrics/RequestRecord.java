package dev.gatlingllm.internal.metrics;

import java.util.Objects;

/**
 * Everything measured about one request, as the client saw it. Times come from
 * {@link System#nanoTime()}, so they are only comparable within one JVM run.
 *
 * <p>Content-chunk arrivals are kept as microsecond offsets from {@code startNanos}
 * (4 bytes per chunk): inter-token latencies are the differences of consecutive offsets,
 * so they always add up to {@code latency - ttft} to the microsecond. TTFT and latency
 * themselves are kept to the nanosecond.
 *
 * <p>Made with {@link #builder(String)}, which names each value where a record is made and
 * leaves out what was not measured.
 *
 * @param name             Gatling request name
 * @param scheduledNanos   when the arrival profile wanted the request sent; equals
 *                         {@code startNanos} when nothing paced or queued it
 * @param startNanos       taken right before the request bytes were written, after any
 *                         concurrency permit was acquired
 * @param ttftNanos        first content chunk minus start; -1 when no content arrived
 * @param latencyNanos     last content chunk minus start; -1 when no content arrived
 * @param endNanos         when the request was over (stream end, error or timeout)
 * @param chunkMicros      arrival of every content chunk, microseconds after start
 * @param promptTokens     prompt length from the dataset; -1 when unknown
 * @param usagePromptTokens  {@code usage.prompt_tokens} reported by the server; -1 when absent
 * @param outputTokens     {@code usage.completion_tokens} reported by the server; -1 when absent
 * @param httpStatus       HTTP status, 0 when no response head arrived
 * @param success          HTTP 200 and at least one content chunk and no error event
 * @param error            why it failed (full text); null on success
 * @param generatedText    concatenated text of all content chunks; null when not kept
 * @param requestId        the {@code x-request-id} it was sent with; null when unknown. It is
 *                         how a record is matched with the server's own logs.
 * @param ttfcNanos        first chunk carrying answer text (not reasoning) minus start; -1
 *                         when none arrived
 * @param reasoningChunks  content chunks that carried reasoning text ({@code reasoning_content}
 *                         or {@code reasoning}); they count for TTFT and ITL as any other
 * @param turn             1-based index of the turn of a conversation this request sent; 0
 *                         when it is not a conversation's turn
 * @param clientQueueNanos how long the request waited client-side for a
 *                         {@code --max-concurrency} permit: from its arrival (the scheduled
 *                         time, or when its user reached it) to {@code startNanos}; 0 when no
 *                         cap held it (vLLM's {@code client_queue_time})
 * @param requestClass     the class the dataset gave the request (vLLM's
 *                         {@code workload_class}, such as {@code long_decode}), by which the
 *                         result splits its figures; null when it has none
 * @param cachedTokens     {@code usage.prompt_tokens_details.cached_tokens}: the prompt tokens
 *                         the server's prefix cache held; -1 when absent
 * @param inputAudioSeconds the length of the audio clip the request sent, in seconds (vLLM's
 *                         {@code input_audio_duration}, behind {@code rtfx}); 0 for none
 * @param reasoningTokens  {@code usage.completion_tokens_details.reasoning_tokens} as the
 *                         server reported it; -1 when it reported none (the result then
 *                         counts the reasoning chunks, see {@link #reasoningTokenCount()})
 * @param toolCallNanos    first chunk carrying a tool call ({@code delta.tool_calls}) minus
 *                         start; -1 when the answer called no tool
 * @param toolCalls        tool calls in the answer: distinct {@code tool_calls[].index} values
 * @param toolCallsParsed  those of the tool calls whose arguments, their fragments joined,
 *                         parse as one JSON value
 * @param schemaCheck      whether the answer validated against the JSON schema the request
 *                         asked for: {@link #SCHEMA_VALID}, {@link #SCHEMA_INVALID}, or
 *                         {@link #SCHEMA_NOT_ASKED} (no schema asked, or the request failed)
 * @param connectionReused the request went out on a pooled connection that had served an
 *                         earlier one: no DNS, connect or TLS of its own (those are -1)
 * @param dnsNanos         name resolution of the request's new connection (Netty's resolver,
 *                         the JDK's cached {@code InetAddress} lookup, on the event loop); -1
 *                         when the connection was reused or the phase not measured
 * @param connectNanos     TCP connect of its new connection, from the resolved address to the
 *                         socket connected; -1 when reused or not measured
 * @param tlsNanos         TLS handshake of its new connection, from connected to the read that
 *                         completed the handshake; -1 for plain HTTP, reused, or not measured
 * @param writtenNanos     the request's last byte flushed to the socket, minus start; -1 when it
 *                         was never written
 * @param headNanos        the read that completed the response head, minus start (time to first
 *                         byte); -1 when no head arrived
 * @param cancelled        the client cancelled it on purpose ({@code --cancel-fraction}) by
 *                         closing its connection: neither a success nor a failure
 * @param target           which of the run's base URLs it was sent to (0-based, in the order
 *                         they were given); 0 for a run against one server
 */
public record RequestRecord(
    String name,
    long scheduledNanos,
    long startNanos,
    long ttftNanos,
    long latencyNanos,
    long endNanos,
    int[] chunkMicros,
    int promptTokens,
    int usagePromptTokens,
    int outputTokens,
    int httpStatus,
    boolean success,
    String error,
    String generatedText,
    String requestId,
    long ttfcNanos,
    int reasoningChunks,
    int turn,
    long clientQueueNanos,
    String requestClass,
    int cachedTokens,
    double inputAudioSeconds,
    int reasoningTokens,
    long toolCallNanos,
    int toolCalls,
    int toolCallsParsed,
    int schemaCheck,
    boolean connectionReused,
    long dnsNanos,
    long connectNanos,
    long tlsNanos,
    long writtenNanos,
    long headNanos,
    boolean cancelled,
    int target) {

  /** {@link #schemaCheck()}: the request asked for no JSON schema, or it failed. */
  public static final int SCHEMA_NOT_ASKED = -1;
  /** {@link #schemaCheck()}: the answer did not validate against the schema asked for. */
  public static final int SCHEMA_INVALID = 0;
  /** {@link #schemaCheck()}: the answer validated against the schema asked for. */
  public static final int SCHEMA_VALID = 1;

  public RequestRecord {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(chunkMicros, "chunkMicros");
  }

  /** Number of inter-token latencies: one fewer than content chunks. */
  public int itlCount() {
    return Math.max(0, chunkMicros.length - 1);
  }

  /**
   * The i-th inter-token latency in microseconds: the gap between content chunks i and i + 1,
   * each timed on arrival. The one place a gap is computed; every unit below is this one.
   */
  public int itlMicros(int i) {
    return chunkMicros[i + 1] - chunkMicros[i];
  }

  /** The i-th inter-token latency in milliseconds. */
  public double itlMillis(int i) {
    return itlMicros(i) / 1_000.0;
  }

  /** The i-th inter-token latency in seconds, as vLLM's result file holds it. */
  public double itlSeconds(int i) {
    return itlMicros(i) / 1e6;
  }

  public double ttftMillis() {
    return ttftNanos / 1_000_000.0;
  }

  /** Time to the first answer (non-reasoning) chunk; meaningful when {@code ttfcNanos >= 0}. */
  public double ttfcMillis() {
    return ttfcNanos / 1_000_000.0;
  }

  public double latencyMillis() {
    return latencyNanos / 1_000_000.0;
  }

  /**
   * The reasoning tokens of the answer: the server's {@code reasoning_tokens} when it gave
   * them, else one per reasoning chunk (a server streams a token per chunk unless it merges
   * them, so this is a lower bound then).
   */
  public int reasoningTokenCount() {
    return reasoningTokens >= 0 ? reasoningTokens : reasoningChunks;
  }

  /** Time to the first tool-call chunk; meaningful when {@code toolCallNanos >= 0}. */
  public double toolCallMillis() {
    return toolCallNanos / 1_000_000.0;
  }

  /** Time spent between the scheduled arrival and the actual send (queueing, pacing). */
  public long waitNanos() {
    return startNanos - scheduledNanos;
  }

  /** {@link #clientQueueNanos()} in milliseconds. */
  public double clientQueueMillis() {
    return clientQueueNanos / 1_000_000.0;
  }

  /** A builder of a record of request {@code name}; see {@link Builder} for its defaults. */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** A builder holding this record's values. */
  public Builder toBuilder() {
    return new Builder(name).scheduledNanos(scheduledNanos).startNanos(startNanos)
        .ttftNanos(ttftNanos).latencyNanos(latencyNanos).endNanos(endNanos)
        .chunkMicros(chunkMicros).promptTokens(promptTokens).usagePromptTokens(usagePromptTokens)
        .outputTokens(outputTokens).httpStatus(httpStatus).success(success).error(error)
        .generatedText(generatedText).requestId(requestId).ttfcNanos(ttfcNanos)
        .reasoningChunks(reasoningChunks).turn(turn).clientQueueNanos(clientQueueNanos)
        .requestClass(requestClass).cachedTokens(cachedTokens)
        .inputAudioSeconds(inputAudioSeconds).reasoningTokens(reasoningTokens)
        .toolCallNanos(toolCallNanos).toolCalls(toolCalls).toolCallsParsed(toolCallsParsed)
        .schemaCheck(schemaCheck).connectionReused(connectionReused).dnsNanos(dnsNanos)
        .connectNanos(connectNanos).tlsNanos(tlsNanos).writtenNanos(writtenNanos)
        .headNanos(headNanos).cancelled(cancelled).target(target);
  }

  /**
   * Names each value of a record where it is made. What is not set is what was not measured:
   * no content (TTFT, latency and TTFC -1, no chunk), token counts -1, no response head
   * (status 0), failed, no error, text or request id, no reasoning chunk, no client queue, no
   * cached tokens (-1), no audio (0), no reasoning count from the server, no tool call, no
   * schema asked, a new connection with no phase measured (all -1), not cancelled; the
   * scheduled time
   * and the end default to the start (nothing paced or queued it; over as it started).
   * Mutable, unlike the DSL's builders: the client makes one per request on the event loop,
   * where one object is all a record may cost beyond itself (no allocation per call).
   */
  public static final class Builder {

    private static final int[] NO_CHUNKS = new int[0];

    private final String name;
    private long scheduledNanos;
    private boolean scheduledSet;
    private long startNanos;
    private long ttftNanos = -1;
    private long latencyNanos = -1;
    private long endNanos;
    private boolean endSet;
    private int[] chunkMicros = NO_CHUNKS;
    private int promptTokens = -1;
    private int usagePromptTokens = -1;
    private int outputTokens = -1;
    private int httpStatus;
    private boolean success;
    private String error;
    private String generatedText;
    private String requestId;
    private long ttfcNanos = -1;
    private int reasoningChunks;
    private int turn;
    private long clientQueueNanos;
    private String requestClass;
    private int cachedTokens = -1;
    private double inputAudioSeconds;
    private int reasoningTokens = -1;
    private long toolCallNanos = -1;
    private int toolCalls;
    private int toolCallsParsed;
    private int schemaCheck = SCHEMA_NOT_ASKED;
    private boolean connectionReused;
    private long dnsNanos = -1;
    private long connectNanos = -1;
    private long tlsNanos = -1;
    private long writtenNanos = -1;
    private long headNanos = -1;
    private boolean cancelled;
    private int target;

    private Builder(String name) {
      this.name = name;
    }

    /** When the arrival profile wanted it sent; the start when not set. */
    public Builder scheduledNanos(long nanos) {
      scheduledNanos = nanos;
      scheduledSet = true;
      return this;
    }

    /** Right before the request bytes were written. */
    public Builder startNanos(long nanos) {
      startNanos = nanos;
      return this;
    }

    /** First content chunk minus start. */
    public Builder ttftNanos(long nanos) {
      ttftNanos = nanos;
      return this;
    }

    /** Last content chunk minus start. */
    public Builder latencyNanos(long nanos) {
      latencyNanos = nanos;
      return this;
    }

    /** When the request was over; the start when not set. */
    public Builder endNanos(long nanos) {
      endNanos = nanos;
      endSet = true;
      return this;
    }

    /** Arrival of every content chunk, microseconds after start; kept, not copied. */
    public Builder chunkMicros(int[] micros) {
      chunkMicros = micros;
      return this;
    }

    /** Prompt length from the dataset. */
    public Builder promptTokens(int tokens) {
      promptTokens = tokens;
      return this;
    }

    /** {@code usage.prompt_tokens} reported by the server. */
    public Builder usagePromptTokens(int tokens) {
      usagePromptTokens = tokens;
      return this;
    }

    /** {@code usage.completion_tokens} reported by the server. */
    public Builder outputTokens(int tokens) {
      outputTokens = tokens;
      return this;
    }

    public Builder httpStatus(int status) {
      httpStatus = status;
      return this;
    }

    public Builder success(boolean ok) {
      success = ok;
      return this;
    }

    /** Why it failed (full text). */
    public Builder error(String message) {
      error = message;
      return this;
    }

    /** Concatenated text of all content chunks. */
    public Builder generatedText(String text) {
      generatedText = text;
      return this;
    }

    /** The {@code x-request-id} it was sent with. */
    public Builder requestId(String id) {
      requestId = id;
      return this;
    }

    /** First chunk carrying answer text (not reasoning) minus start. */
    public Builder ttfcNanos(long nanos) {
      ttfcNanos = nanos;
      return this;
    }

    /** Content chunks that carried reasoning text. */
    public Builder reasoningChunks(int chunks) {
      reasoningChunks = chunks;
      return this;
    }

    /** 1-based index of the conversation turn it sent. */
    public Builder turn(int index) {
      turn = index;
      return this;
    }

    /** How long it waited for a concurrency permit (not negative). */
    public Builder clientQueueNanos(long nanos) {
      clientQueueNanos = nanos;
      return this;
    }

    /** The class the dataset gave the request; null for none. */
    public Builder requestClass(String name) {
      requestClass = name;
      return this;
    }

    /** {@code usage.prompt_tokens_details.cached_tokens}; -1 when absent. */
    public Builder cachedTokens(int tokens) {
      cachedTokens = tokens;
      return this;
    }

    /** The length of the audio clip sent, in seconds; 0 for none. */
    public Builder inputAudioSeconds(double seconds) {
      inputAudioSeconds = seconds;
      return this;
    }

    /** {@code usage.completion_tokens_details.reasoning_tokens} reported by the server. */
    public Builder reasoningTokens(int tokens) {
      reasoningTokens = tokens;
      return this;
    }

    /** First chunk carrying a tool call minus start. */
    public Builder toolCallNanos(long nanos) {
      toolCallNanos = nanos;
      return this;
    }

    /** Tool calls in the answer. */
    public Builder toolCalls(int calls) {
      toolCalls = calls;
      return this;
    }

    /** Tool calls whose arguments parse as JSON. */
    public Builder toolCallsParsed(int calls) {
      toolCallsParsed = calls;
      return this;
    }

    /** {@link #SCHEMA_VALID}, {@link #SCHEMA_INVALID} or {@link #SCHEMA_NOT_ASKED}. */
    public Builder schemaCheck(int verdict) {
      schemaCheck = verdict;
      return this;
    }

    /** It went out on a pooled connection that had served an earlier request. */
    public Builder connectionReused(boolean reused) {
      connectionReused = reused;
      return this;
    }

    /** Name resolution of its new connection. */
    public Builder dnsNanos(long nanos) {
      dnsNanos = nanos;
      return this;
    }

    /** TCP connect of its new connection. */
    public Builder connectNanos(long nanos) {
      connectNanos = nanos;
      return this;
    }

    /** TLS handshake of its new connection. */
    public Builder tlsNanos(long nanos) {
      tlsNanos = nanos;
      return this;
    }

    /** Its last byte flushed, minus start. */
    public Builder writtenNanos(long nanos) {
      writtenNanos = nanos;
      return this;
    }

    /** Its response head read, minus start. */
    public Builder headNanos(long nanos) {
      headNanos = nanos;
      return this;
    }

    /** The client cancelled it on purpose. */
    public Builder cancelled(boolean isCancelled) {
      cancelled = isCancelled;
      return this;
    }

    /** Which of the run's base URLs it went to (0-based). */
    public Builder target(int index) {
      target = index;
      return this;
    }

    public RequestRecord build() {
      return new RequestRecord(name, scheduledSet ? scheduledNanos : startNanos, startNanos,
          ttftNanos, latencyNanos, endSet ? endNanos : startNanos, chunkMicros, promptTokens,
          usagePromptTokens, outputTokens, httpStatus, success, error, generatedText, requestId,
          ttfcNanos, reasoningChunks, turn, clientQueueNanos, requestClass, cachedTokens,
          inputAudioSeconds, reasoningTokens, toolCallNanos, toolCalls, toolCallsParsed,
          schemaCheck, connectionReused, dnsNanos, connectNanos, tlsNanos, writtenNanos,
          headNanos, cancelled, target);
    }
  }

  /** This record with another generated text (null drops it), everything else shared. */
  public RequestRecord withGeneratedText(String text) {
    return new RequestRecord(name, scheduledNanos, startNanos, ttftNanos, latencyNanos, endNanos,
        chunkMicros, promptTokens, usagePromptTokens, outputTokens, httpStatus, success, error, text,
        requestId, ttfcNanos, reasoningChunks, turn, clientQueueNanos, requestClass,
        cachedTokens, inputAudioSeconds, reasoningTokens, toolCallNanos, toolCalls,
        toolCallsParsed, schemaCheck, connectionReused, dnsNanos, connectNanos, tlsNanos,
        writtenNanos, headNanos, cancelled, target);
  }

  /** This record sent to base URL {@code index}, everything else shared. */
  public RequestRecord withTarget(int index) {
    return new RequestRecord(name, scheduledNanos, startNanos, ttftNanos, latencyNanos, endNanos,
        chunkMicros, promptTokens, usagePromptTokens, outputTokens, httpStatus, success, error,
        generatedText, requestId, ttfcNanos, reasoningChunks, turn, clientQueueNanos,
        requestClass, cachedTokens, inputAudioSeconds, reasoningTokens, toolCallNanos, toolCalls,
        toolCallsParsed, schemaCheck, connectionReused, dnsNanos, connectNanos, tlsNanos,
        writtenNanos, headNanos, cancelled, index);
  }
}
