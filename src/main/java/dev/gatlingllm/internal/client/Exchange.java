package dev.gatlingllm.internal.client;

import dev.gatlingllm.internal.metrics.RequestRecord;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;

/**
 * The life of one request on one connection: response head, SSE events or a buffered body,
 * timeouts, and finally exactly one {@link RequestRecord}. Every method runs on the channel's
 * event loop.
 *
 * <p>Timing follows the reference client: a content chunk is an event with a non-empty
 * {@code choices}; its time is the read time of the bytes that completed it; latency is the
 * last content chunk minus start, not the {@code [DONE]} time.
 *
 * <p>A request written on a reused connection that closes (or is reset) before any byte of
 * its response arrived is stale, not failed: the server closed an idle connection while the
 * request was on its way, and never read it. The client sends it once more on a new
 * connection ({@link Completion#resend}) with the same exchange, its clock restarted.
 */
final class Exchange implements SseDecoder.Listener, ChunkedBody.Sink {

  /**
   * Longest body buffered: error messages are short, and a non-streamed completion of
   * thousands of tokens is still far below this.
   */
  private static final int MAX_BODY_BYTES = 1024 * 1024;
  private static final String REQUEST_ID = "x-request-id";

  interface Completion {
    /** Called once; {@code reusable} says whether the connection can serve another request. */
    void done(Exchange exchange, RequestRecord record, boolean reusable);

    /**
     * The reused connection of {@code exchange} closed before its response began: send the
     * request again on a new connection ({@link #restart} first). False when it cannot be,
     * and the exchange fails as usual.
     */
    default boolean resend(Exchange exchange) {
      return false;
    }
  }

  private final LlmRequest request;
  private long startNanos;
  private final ClientConfig config;
  private final Completion completion;
  private final ChunkFields fields = new ChunkFields();
  private final StringBuilder text = new StringBuilder();

  private Channel channel;
  /** The request went out on a reused connection and was not sent again yet. */
  private boolean mayResend;
  /** An interim (1xx) response arrived: the server read the request. */
  private boolean interimSeen;
  private int status;
  private boolean keepAlive;
  private boolean streaming;
  private SseDecoder sse;
  private String contentType = "";
  private String location;
  /** Non-null while a compressed body is being read. */
  private Inflating inflater;
  private ByteArrayOutputStream body;
  private int[] chunkMicros = new int[32];
  private int chunkCount;
  private long firstNanos = -1;
  private long lastChunkNanos = -1;
  private long firstAnswerNanos = -1;
  private int reasoningChunks;
  private int reasoningTokens = -1;
  private long firstToolCallNanos = -1;
  private long lastReadNanos;
  private int completionTokens = -1;
  private int promptTokens = -1;
  private int cachedTokens = -1;
  private boolean finished;
  private ScheduledFuture<?> firstTokenTimer;
  private ScheduledFuture<?> idleTimer;
  private ScheduledFuture<?> requestTimer;
  /** The timer of a cancel by time, armed when the request is written; null otherwise. */
  private ScheduledFuture<?> cancelTimer;
  /** The handler of the connection the request went out on, which timed its opening. */
  private ResponseHandler connection;
  private boolean reusedConnection;
  /** When the request's last byte was flushed and when its response head was read; or -1. */
  private long writtenNanos = -1;
  private long headNanos = -1;
  private boolean cancelled;

  Exchange(LlmRequest request, long startNanos, ClientConfig config, Completion completion) {
    this.request = request;
    this.startNanos = startNanos;
    this.config = config;
    this.completion = completion;
  }

  /** The connection the request went out on; null when it never got one. */
  Channel channel() {
    return channel;
  }

  /** When the request's clock started. */
  long startNanos() {
    return startNanos;
  }

  boolean isFinished() {
    return finished;
  }

  /** The request was written on a new {@code channel}; arm the timeouts. */
  void started(Channel ch) {
    attach(ch, false, null);
    armTimers();
  }

  /**
   * The request goes out on {@code ch}, a connection that served an earlier request when
   * {@code reused}; its timeouts are armed by {@link #armTimers()}. {@code handler} timed
   * the connection's opening (null when unknown): the record takes its phases when the
   * connection is new.
   */
  void attach(Channel ch, boolean reused, ResponseHandler handler) {
    this.channel = ch;
    this.mayResend = reused;
    this.reusedConnection = reused;
    this.connection = handler;
    this.lastReadNanos = System.nanoTime();
  }

  /**
   * The request's last byte was flushed at {@code nanos}. A cancel by time counts from here,
   * as AIPerf's does: the server has the whole request, whatever the connect took.
   */
  void written(long nanos) {
    writtenNanos = nanos;
    long millis = request.cancel().millis();
    if (millis >= 0 && !finished && channel != null) {
      cancelTimer = channel.eventLoop().schedule(() -> cancel(System.nanoTime()),
          millis, TimeUnit.MILLISECONDS);
    }
  }

  /**
   * The request is sent again from now on: its clock restarts at {@code nanos}, and it is on
   * no connection until the next {@link #attach}. Only for an exchange that received nothing.
   */
  void restart(long nanos) {
    this.startNanos = nanos;
    this.channel = null;
    this.writtenNanos = -1;
    cancel(cancelTimer);
  }

  /**
   * Arms the timeouts, counted from the request's clock start: the first token's (unless it
   * came already), the whole request's and the idle one. Nothing once the exchange is over.
   * The client arms them just after a batch of sends rather than between them: each is a
   * scheduled task on the loop, and the next send due should not wait for three of them.
   */
  void armTimers() {
    if (finished || channel == null) {
      return; // over, or between a stale connection and the new one
    }
    // A request sent again may find the timers of its first write still armed.
    cancel(firstTokenTimer);
    cancel(requestTimer);
    cancel(idleTimer);
    long elapsed = System.nanoTime() - startNanos;
    if (firstNanos < 0) {
      firstTokenTimer = schedule(config.firstTokenTimeout(), elapsed,
          () -> fail("first token timeout (" + pretty(config.firstTokenTimeout()) + ")"));
    }
    requestTimer = schedule(config.requestTimeout(), elapsed,
        () -> fail("request timeout (" + pretty(config.requestTimeout()) + ")"));
    armIdle(Math.max(0, config.idleTimeout().toNanos() - (System.nanoTime() - lastReadNanos)));
  }

  void onResponseHead(HttpResponse response, long readNanos) {
    lastReadNanos = readNanos;
    if (headNanos < 0) {
      headNanos = readNanos;
    }
    status = response.status().code();
    keepAlive = HttpUtil.isKeepAlive(response);
    contentType = response.headers().get(HttpHeaderNames.CONTENT_TYPE, "");
    location = response.headers().get(HttpHeaderNames.LOCATION);
    streaming = status == 200 && contentType.startsWith("text/event-stream");
    if (streaming) {
      sse = new SseDecoder(this);
    } else {
      body = new ByteArrayOutputStream();
    }
    String encoding = response.headers().get(HttpHeaderNames.CONTENT_ENCODING, "identity").trim();
    if (!encoding.equalsIgnoreCase("identity")) {
      inflater = Inflating.forEncoding(encoding);
      if (inflater == null) {
        fail("unsupported content-encoding: " + encoding);
      }
    }
  }

  /**
   * Whether the body, if chunked, may be read by the connection's handler and handed over as
   * raw chunk data ({@link #data}): an event stream without content coding, still running.
   */
  boolean readsEventStream() {
    return streaming && inflater == null && !finished;
  }

  /** A piece of an event stream's chunk data, read at {@code readNanos}. */
  @Override
  public void data(byte[] bytes, int offset, int length, long readNanos) {
    if (finished) {
      return;
    }
    lastReadNanos = readNanos;
    try {
      sse.feed(bytes, offset, length, readNanos);
    } catch (RuntimeException e) {
      fail("malformed stream: " + e.getMessage());
    }
  }

  /**
   * The chunked body read by the connection's handler ended; {@code clean} is false when
   * bytes followed it, which no response of ours owns: the connection is not reused.
   */
  void onEndOfChunkedBody(long readNanos, boolean clean) {
    if (finished) {
      return;
    }
    lastReadNanos = readNanos;
    if (!clean) {
      keepAlive = false;
    }
    onEnd(readNanos);
  }

  void onContent(HttpContent content, long readNanos) {
    if (finished) {
      return;
    }
    lastReadNanos = readNanos;
    if (inflater == null) {
      consume(content.content(), readNanos);
    } else {
      try {
        inflater.inflate(content.content(), buf -> consume(buf, readNanos));
      } catch (RuntimeException e) {
        fail("malformed compressed body: " + e.getMessage());
        return;
      }
    }
    if (!finished && content instanceof LastHttpContent) {
      onEnd(readNanos);
    }
  }

  /** The (decompressed) bytes of one read. */
  private void consume(ByteBuf buf, long readNanos) {
    if (finished) {
      return;
    }
    if (streaming) {
      try {
        sse.feed(buf, readNanos);
      } catch (RuntimeException e) {
        fail("malformed stream: " + e.getMessage());
        return;
      }
    } else if (body.size() < MAX_BODY_BYTES) {
      int n = Math.min(buf.readableBytes(), MAX_BODY_BYTES - body.size());
      byte[] bytes = new byte[n];
      buf.readBytes(bytes);
      body.write(bytes, 0, n);
    }
  }

  @Override
  public void onEvent(byte[] data, int length, long readNanos) {
    if (finished) {
      return;
    }
    if (isDone(data, length)) {
      return; // the end of the HTTP response closes the exchange
    }
    try {
      request.reader().read(data, length, fields);
    } catch (Exception e) {
      fail("malformed JSON chunk: " + JsonErrors.describe(e));
      return;
    }
    if (fields.error != null) {
      fail("error event: " + fields.error);
      return;
    }
    if (fields.hasChoices) {
      contentChunk(readNanos);
    }
    usage();
  }

  /** A 1xx response: the real one follows. */
  void onInterimResponse() {
    interimSeen = true;
  }

  void onInactive() {
    if (finished) {
      return;
    }
    if (status == 0) {
      if (!resendStale()) {
        fail("connection closed before response");
      }
    } else if (chunkCount > 0) {
      fail("connection closed mid-stream");
    } else {
      fail("connection closed before end of response");
    }
  }

  void onException(Throwable cause) {
    if (finished) {
      return;
    }
    SSLException tls = tlsCause(cause);
    if (tls == null && status == 0 && cause instanceof IOException && resendStale()) {
      return; // a reset or a failed write on a stale connection
    }
    if (tls != null) {
      // the KO message of every route: the flag first, as the drop-in's users type it
      fail(dev.gatlingllm.internal.http.AuxHttpException.untrustedCertificate(tls)
          ? "TLS handshake failed: " + dev.gatlingllm.internal.http.AuxHttp.UNTRUSTED + ": --insecure "
              + "(llm().insecureTls() in a simulation) accepts it"
          : "TLS handshake failed: " + tls.getMessage());
      return;
    }
    String message = cause.getMessage();
    fail("I/O error: " + cause.getClass().getSimpleName() + (message == null ? "" : ": " + message));
  }

  /**
   * Sends the request again when its connection was reused and nothing of the response came:
   * the connection was stale. Once per request; a new connection that closes fails it.
   */
  private boolean resendStale() {
    if (!mayResend || interimSeen || status != 0) {
      return false;
    }
    mayResend = false;
    cancel(firstTokenTimer);
    cancel(idleTimer);
    cancel(requestTimer);
    return completion.resend(this);
  }

  private static SSLException tlsCause(Throwable cause) {
    for (Throwable t = cause; t != null; t = t.getCause()) {
      if (t instanceof SSLException ssl) {
        return ssl;
      }
    }
    return null;
  }

  /** The response is not HTTP/1.x ({@code what} says where); the connection is unusable. */
  void onMalformedResponse(String what) {
    fail("malformed response: " + what);
  }

  /** The request could not even be written (connect failure, write failure). */
  void failBeforeSend(String message) {
    fail(message);
  }

  private void onEnd(long readNanos) {
    if (streaming) {
      sse.endOfStream(readNanos);
      if (finished) {
        return;
      }
      if (chunkCount == 0) {
        finish(false, "stream ended without content", readNanos, true);
      } else {
        finish(true, null, readNanos, true);
      }
      return;
    }
    byte[] bytes = body.toByteArray();
    if (status >= 300 && status < 400) {
      finish(false, "HTTP " + status + " redirect to " + (location == null ? "nowhere" : location)
          + ", not followed: point the base URL at the final address", readNanos, true);
      return;
    }
    if (status != 200) {
      finish(false, "HTTP " + status + ": " + ErrorBodies.message(bytes), readNanos, true);
      return;
    }
    if (!contentType.isEmpty() && !contentType.contains("json")) {
      finish(false, "HTTP 200 with content-type " + contentType + ", neither an event stream "
          + "nor JSON: " + ErrorBodies.message(bytes), readNanos, true);
      return;
    }
    try {
      request.reader().read(bytes, bytes.length, fields);
    } catch (Exception e) {
      finish(false, "malformed JSON response: " + JsonErrors.describe(e), readNanos, true);
      return;
    }
    if (fields.error != null) {
      finish(false, "error response: " + fields.error, readNanos, true);
      return;
    }
    if (request.pooling()) {
      // A pooling answer (embeddings, scores) as vLLM times it: TTFT and latency are both the
      // time the whole body was read, success is HTTP 200 with a JSON body, the input length
      // is usage.prompt_tokens; it has no text, whatever its fields are called.
      fields.text = null;
    } else if (!fields.hasChoices) {
      finish(false, "response without choices", readNanos, true);
      return;
    }
    contentChunk(readNanos);
    usage();
    finish(true, null, readNanos, true);
  }

  private void contentChunk(long nanos) {
    if (firstNanos < 0) {
      firstNanos = nanos;
      cancel(firstTokenTimer);
    }
    lastChunkNanos = nanos;
    if (fields.reasoning) {
      reasoningChunks++;
    }
    if (fields.toolCall && firstToolCallNanos < 0) {
      firstToolCallNanos = nanos;
    }
    if (fields.text != null) {
      text.append(fields.text);
      if (firstAnswerNanos < 0 && !fields.text.isEmpty()) {
        firstAnswerNanos = nanos;
      }
    }
    if (chunkCount == chunkMicros.length) {
      chunkMicros = Arrays.copyOf(chunkMicros, chunkCount * 2);
    }
    long micros = (nanos - startNanos) / 1_000;
    chunkMicros[chunkCount++] = (int) Math.min(micros, Integer.MAX_VALUE);
    if (streaming && chunkCount == request.cancel().chunks()) {
      cancel(nanos); // the user has read enough and leaves
    }
  }

  /**
   * The client cancels the request on purpose at {@code nanos}: it is over, neither a success
   * nor a failure, and its connection is closed, as a browser closes the tab's (HTTP/1.1 has
   * no other way to tell the server). A request whose answer was whole first is not cancelled.
   */
  private void cancel(long nanos) {
    if (finished) {
      return;
    }
    cancelled = true;
    finish(false, null, nanos, false);
  }

  private void usage() {
    if (fields.completionTokens >= 0) {
      completionTokens = fields.completionTokens;
    }
    if (fields.promptTokens >= 0) {
      promptTokens = fields.promptTokens;
    }
    if (fields.cachedTokens >= 0) {
      cachedTokens = fields.cachedTokens;
    }
    if (fields.reasoningTokens >= 0) {
      reasoningTokens = fields.reasoningTokens;
    }
  }

  private void fail(String error) {
    finish(false, error, System.nanoTime(), false);
  }

  private void finish(boolean success, String error, long endNanos, boolean responseComplete) {
    if (finished) {
      return;
    }
    finished = true;
    cancel(firstTokenTimer);
    cancel(idleTimer);
    cancel(requestTimer);
    cancel(cancelTimer);
    if (inflater != null) {
      inflater.close();
      inflater = null;
    }
    boolean hasContent = chunkCount > 0;
    String answer = text.toString();
    RequestRecord.Builder record = RequestRecord.builder(request.name())
        .startNanos(startNanos)
        .endNanos(endNanos - startNanos >= 0 ? endNanos : startNanos)
        .chunkMicros(Arrays.copyOf(chunkMicros, chunkCount))
        .promptTokens(request.promptTokens())
        .usagePromptTokens(promptTokens)
        .cachedTokens(cachedTokens)
        .outputTokens(completionTokens)
        .httpStatus(status)
        .success(success)
        .error(error)
        .generatedText(answer)
        .requestId(request.headers().get(REQUEST_ID))
        .reasoningChunks(reasoningChunks)
        .reasoningTokens(reasoningTokens)
        .cancelled(cancelled)
        .connectionReused(reusedConnection)
        .writtenNanos(writtenNanos < 0 ? -1 : writtenNanos - startNanos)
        .headNanos(headNanos < 0 ? -1 : headNanos - startNanos);
    if (!reusedConnection && connection != null) {
      record.dnsNanos(connection.dnsNanos()).connectNanos(connection.connectNanos())
          .tlsNanos(connection.tlsNanos());
    }
    answerKinds(record, success, answer);
    if (request.scheduledNanos() != LlmRequest.NOT_SCHEDULED) {
      record.scheduledNanos(request.scheduledNanos());
    }
    if (hasContent) {
      record.ttftNanos(firstNanos - startNanos).latencyNanos(lastChunkNanos - startNanos);
      if (firstAnswerNanos >= 0) {
        record.ttfcNanos(firstAnswerNanos - startNanos);
      }
    }
    // A fully read response leaves the connection clean whatever its status: reusing it
    // spares the next request a connect inside its TTFT.
    completion.done(this, record.build(), responseComplete && keepAlive);
  }

  /**
   * The tool calls the answer made (their arguments parsed now that they are whole) and, when
   * the request asked for a JSON schema, whether the answer of a successful request follows
   * it. Small answers, read once, on the loop that read them.
   */
  private void answerKinds(RequestRecord.Builder record, boolean success, String answer) {
    ToolCalls calls = fields.toolCalls;
    if (calls != null) {
      record.toolCalls(calls.count()).toolCallsParsed(calls.parsed());
      if (firstToolCallNanos >= 0) {
        record.toolCallNanos(firstToolCallNanos - startNanos);
      }
    }
    if (success && request.schema() != null) {
      record.schemaCheck(request.schema().accepts(answer)
          ? RequestRecord.SCHEMA_VALID : RequestRecord.SCHEMA_INVALID);
    }
  }

  private static boolean isDone(byte[] data, int length) {
    int start = 0;
    int end = length;
    while (start < end && data[start] == ' ') {
      start++;
    }
    while (end > start && (data[end - 1] == ' ')) {
      end--;
    }
    return end - start == 6
        && new String(data, start, 6, StandardCharsets.US_ASCII).equals("[DONE]");
  }

  private ScheduledFuture<?> schedule(Duration timeout, long elapsedNanos, Runnable onTimeout) {
    if (timeout.isZero()) {
      return null;
    }
    long delay = Math.max(0, timeout.toNanos() - elapsedNanos);
    return channel.eventLoop().schedule(onTimeout, delay, TimeUnit.NANOSECONDS);
  }

  /** One timer for the whole stream, re-armed from the last read rather than per chunk. */
  private void armIdle(long delayNanos) {
    if (config.idleTimeout().isZero()) {
      return;
    }
    idleTimer = channel.eventLoop().schedule(() -> {
      if (finished) {
        return;
      }
      long silent = System.nanoTime() - lastReadNanos;
      long limit = config.idleTimeout().toNanos();
      if (silent >= limit) {
        fail("idle timeout (" + pretty(config.idleTimeout()) + " without data)");
      } else {
        armIdle(limit - silent);
      }
    }, delayNanos, TimeUnit.NANOSECONDS);
  }

  private static void cancel(ScheduledFuture<?> timer) {
    if (timer != null) {
      timer.cancel(false);
    }
  }

  private static String pretty(Duration d) {
    long ms = d.toMillis();
    return ms % 1000 == 0 ? (ms / 1000) + " s" : ms + " ms";
  }
}
