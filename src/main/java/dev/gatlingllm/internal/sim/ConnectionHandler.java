package dev.gatlingllm.internal.sim;

import dev.gatlingllm.sim.Fault;
import dev.gatlingllm.sim.RecordedRequest;
import dev.gatlingllm.sim.SimulatorConfig;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DateFormatter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes the requests of one HTTP/1.1 connection. Requests on a connection are answered
 * in order: a pipelined request waits until the generation before it has been written.
 * A request whose prompt a real tokenizer counts is parsed on the counting thread, then goes
 * on here: milliseconds of counting on the event loop would delay every stream it serves.
 */
public final class ConnectionHandler extends ChannelInboundHandlerAdapter {

  private static final Logger LOG = LoggerFactory.getLogger(ConnectionHandler.class);
  /** Pipelined requests held per connection; a client sending more is cut off. */
  private static final int MAX_PENDING = 64;

  private final SimulatorConfig config;
  private final ServerState state;
  private final TimerLateness lateness;
  /** Null unless the chunk log is on. */
  private final ChunkLog chunkLog;
  private final long startedEpochSeconds;
  /** Null unless requests are recorded. */
  private final Queue<RecordedRequest> recorded;
  private final SimTokenizer tokens;
  /** Where costly prompt counting runs; null when the tokenizer counts on the event loop. */
  private final Executor counting;
  /** True while a request of this connection is parsed on the counting thread. */
  private boolean parsing;
  private final ArrayDeque<FullHttpRequest> pending = new ArrayDeque<>();
  /** Arrival time of each pending request, in the same order, when the chunk log is on. */
  private final ArrayDeque<Long> pendingNanos = new ArrayDeque<>();
  private Generation current;
  /** The pending answer of a pooling request; null when none is being handled. */
  private ScheduledFuture<?> pooling;
  /** When the request being handled arrived (chunk log only). */
  private long receivedNanos;
  private boolean draining;
  private boolean closing;
  /** Responses begun on this connection, for {@link SimulatorConfig#keepAliveMax()}. */
  private int responses;

  public ConnectionHandler(SimulatorConfig config, ServerState state, TimerLateness lateness,
      ChunkLog chunkLog, long startedEpochSeconds, Queue<RecordedRequest> recorded,
      SimTokenizer tokens, Executor counting) {
    this.recorded = recorded;
    this.tokens = tokens;
    this.counting = tokens.costly() ? counting : null;
    this.config = config;
    this.state = state;
    this.lateness = lateness;
    this.chunkLog = chunkLog;
    this.startedEpochSeconds = startedEpochSeconds;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (!(msg instanceof FullHttpRequest request) || closing) {
      ReferenceCountUtil.release(msg);
      return;
    }
    if (pending.size() >= MAX_PENDING) {
      request.release();
      ctx.close();
      return;
    }
    if (recorded != null) {
      recorded.add(record(request));
    }
    pending.add(request);
    if (chunkLog != null) {
      pendingNanos.add(System.nanoTime());
    }
    drain(ctx);
  }

  private static RecordedRequest record(FullHttpRequest request) {
    Map<String, List<String>> headers = new LinkedHashMap<>();
    for (Map.Entry<String, String> h : request.headers()) {
      headers.computeIfAbsent(h.getKey().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
          .add(h.getValue());
    }
    headers.replaceAll((k, v) -> List.copyOf(v));
    return new RecordedRequest(request.method().name(),
        new QueryStringDecoder(request.uri()).path(), Collections.unmodifiableMap(headers),
        ByteBufUtil.getBytes(request.content()), System.nanoTime());
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    closing = true;
    if (current != null) {
      current.abort();
      current = null;
    }
    if (pooling != null) {
      pooling.cancel(false);
      pooling = null;
      state.depart();
    }
    pending.forEach(FullHttpRequest::release);
    pending.clear();
    pendingNanos.clear();
    super.channelInactive(ctx);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    // Clients resetting connections is normal under load; anything else is a simulator bug.
    if (!(cause instanceof IOException)) {
      LOG.warn("Simulator connection failed, closing it", cause);
    }
    ctx.close();
  }

  private void drain(ChannelHandlerContext ctx) {
    if (draining) {
      return;
    }
    draining = true;
    try {
      while (current == null && pooling == null && !parsing && !closing && !pending.isEmpty()) {
        FullHttpRequest request = pending.poll();
        receivedNanos = chunkLog == null ? 0 : pendingNanos.poll();
        try {
          handle(ctx, request);
        } finally {
          request.release();
        }
      }
    } finally {
      draining = false;
    }
  }

  private void handle(ChannelHandlerContext ctx, FullHttpRequest request) {
    if (request.decoderResult().isFailure()) {
      sendError(ctx, HttpResponseStatus.BAD_REQUEST, "BadRequestError", null,
          "Malformed HTTP request", ResponseConnection.CLOSE);
      return;
    }
    ResponseConnection connection =
        ResponseConnection.of(config, HttpUtil.isKeepAlive(request), ++responses);
    String path = new QueryStringDecoder(request.uri()).path();
    Routes.Endpoint endpoint = Routes.find(path);
    if (endpoint == null || endpoint.route() == Routes.Served.CHUNK_LOG
        && (chunkLog == null || !request.method().equals(HttpMethod.GET))) {
      sendDetail(ctx, HttpResponseStatus.NOT_FOUND, connection);
    } else if (!request.method().equals(endpoint.method())) {
      sendDetail(ctx, HttpResponseStatus.METHOD_NOT_ALLOWED, connection);
    } else if (endpoint.route() instanceof Routes.Generate generate) {
      parsed(ctx, request, connection, () -> generate.reader().read(request, config, tokens),
          parsedRequest -> generate(ctx, request, parsedRequest, connection));
    } else if (endpoint.route() instanceof Routes.Pool pool) {
      parsed(ctx, request, connection, () -> pool.reader().read(request, config, tokens),
          parsedRequest -> pool(ctx, parsedRequest, pool.answer(), connection));
    } else if (endpoint.route() instanceof Routes.AtOnce atOnce) {
      parsed(ctx, request, connection, () -> atOnce.reader().read(request, config, tokens),
          body -> send(ctx, HttpResponseStatus.OK, HttpHeaderValues.APPLICATION_JSON.toString(),
              body, connection));
    } else {
      serve(ctx, (Routes.Served) endpoint.route(), path, connection);
    }
  }

  /** What a request is read into; its prompt counted by the simulator's tokenizer. */
  @FunctionalInterface
  private interface Parser<T> {
    T parse() throws ApiError;
  }

  /**
   * Parses {@code http} with {@code parser}, then hands the result to {@code then} on this
   * connection's event loop, or answers the parser's error. With a costly tokenizer the parse
   * runs on the counting thread meanwhile, and this connection takes no other request.
   */
  private <T> void parsed(ChannelHandlerContext ctx, FullHttpRequest http,
      ResponseConnection connection, Parser<T> parser, Consumer<T> then) {
    if (counting == null) {
      T parsedRequest;
      try {
        parsedRequest = parser.parse();
      } catch (ApiError e) {
        sendError(ctx, e, connection);
        return;
      }
      then.accept(parsedRequest);
      return;
    }
    parsing = true;
    http.retain();
    try {
      counting.execute(() -> parseThere(ctx, http, connection, parser, then));
    } catch (RejectedExecutionException e) {
      // the simulator is closing
      parsing = false;
      http.release();
      ctx.close();
    }
  }

  /** On the counting thread: parses, then goes back to the connection's event loop. */
  private <T> void parseThere(ChannelHandlerContext ctx, FullHttpRequest http,
      ResponseConnection connection, Parser<T> parser, Consumer<T> then) {
    Object outcome;
    try {
      outcome = parser.parse();
    } catch (ApiError | RuntimeException e) {
      outcome = e;
    }
    Object result = outcome;
    try {
      ctx.executor().execute(() -> answerParsed(ctx, http, connection, then, result));
    } catch (RejectedExecutionException e) {
      // the simulator is closing
      http.release();
    }
  }

  /** Back on the connection's event loop: goes on with the parsed request, then the next. */
  private <T> void answerParsed(ChannelHandlerContext ctx, FullHttpRequest http,
      ResponseConnection connection, Consumer<T> then, Object result) {
    parsing = false;
    try {
      if (closing) {
        return;
      }
      if (result instanceof ApiError e) {
        sendError(ctx, e, connection);
      } else if (result instanceof RuntimeException e) {
        exceptionCaught(ctx, e);
      } else {
        @SuppressWarnings("unchecked")
        T request = (T) result;
        then.accept(request);
      }
    } finally {
      http.release();
    }
    drain(ctx);
  }

  private void generate(ChannelHandlerContext ctx, FullHttpRequest http,
      GenerationRequest request, ResponseConnection connection) {
    long number = state.arrive();
    Set<Fault> faults = config.faultsFor(number);
    if (faults.contains(Fault.HTTP_ERROR)) {
      state.countFault(Fault.HTTP_ERROR);
      state.depart();
      sendError(ctx, HttpResponseStatus.INTERNAL_SERVER_ERROR, "InternalServerError", null,
          "Simulated internal server error (fault injection)", connection);
      return;
    }
    long prefixHit = state.lookUpPrefix(request);
    String requestId = http.headers().get("x-request-id");
    ChunkLog.Entry logEntry = chunkLog == null || !request.stream()
        ? null : new ChunkLog.Entry(requestId, receivedNanos);
    current = new Generation(ctx, config, state, lateness, request, number, faults, requestId,
        connection, () -> generationDone(ctx, connection, logEntry));
    if (config.sessionCache()) {
      current.reusePrefix(state.lookUpSession(http.headers().get("x-session-id"), request));
    }
    current.prefixHit(prefixHit);
    current.logTo(logEntry);
    current.begin();
  }

  /**
   * An embeddings or rerank request: one JSON answer after the TTFT (plus the prefill cost of
   * its tokens), no slot of the generation queue. The connection answers nothing else
   * meanwhile, as for a generation.
   */
  private void pool(ChannelHandlerContext ctx, PoolingRequest request, Routes.PoolAnswer answer,
      ResponseConnection connection) {
    long number = state.arrive();
    if (config.faultsFor(number).contains(Fault.HTTP_ERROR)) {
      state.countFault(Fault.HTTP_ERROR);
      state.depart();
      sendError(ctx, HttpResponseStatus.INTERNAL_SERVER_ERROR, "InternalServerError", null,
          "Simulated internal server error (fault injection)", connection);
      return;
    }
    String body = answer.text(number, config.model(), request);
    long delay = Jitter.of(config, number).apply(config.ttft().toNanos()
        + config.prefillPerToken().toNanos() * request.promptTokens());
    pooling = ctx.executor().schedule(() -> {
      pooling = null;
      state.depart();
      send(ctx, HttpResponseStatus.OK, HttpHeaderValues.APPLICATION_JSON.toString(), body,
          connection);
      if (!connection.close()) {
        drain(ctx);
      }
    }, delay, TimeUnit.NANOSECONDS);
  }

  private void generationDone(ChannelHandlerContext ctx, ResponseConnection connection,
      ChunkLog.Entry logEntry) {
    current = null;
    if (logEntry != null) {
      chunkLog.add(logEntry);
    }
    if (!connection.close()) {
      drain(ctx);
    } else {
      closing = true;
    }
  }

  /** The server's own endpoints: its models, health, metrics, profiler and chunk log. */
  private void serve(ChannelHandlerContext ctx, Routes.Served served, String path,
      ResponseConnection connection) {
    String json = HttpHeaderValues.APPLICATION_JSON.toString();
    switch (served) {
      case MODELS -> send(ctx, HttpResponseStatus.OK, json,
          ResponseText.models(config.models(), startedEpochSeconds), connection);
      case METRICS -> send(ctx, HttpResponseStatus.OK, "text/plain; version=0.0.4; charset=utf-8",
          MetricsText.render(config.model(), state.snapshot(), lateness,
              config.specDecodeTokens()), connection);
      case HEALTH -> send(ctx, HttpResponseStatus.OK, null, "", connection);
      case CACHE_RESET -> {
        state.resetCache(path);
        send(ctx, HttpResponseStatus.OK, null, "", connection);
      }
      case PROFILER -> {
        state.profilerCall(path);
        send(ctx, HttpResponseStatus.OK, null, "", connection);
      }
      case CHUNK_LOG -> send(ctx, HttpResponseStatus.OK, "text/plain; charset=utf-8",
          chunkLog.drain(), connection);
      case GPU_METRICS -> {
        String gpus = state.gpuExposition();
        if (gpus == null) {
          sendDetail(ctx, HttpResponseStatus.NOT_FOUND, connection);
        } else {
          send(ctx, HttpResponseStatus.OK, "text/plain; version=0.0.4; charset=utf-8", gpus,
              connection);
        }
      }
      default -> throw new AssertionError(served);
    }
  }

  /** FastAPI's body for routing errors, which vLLM's server returns for them. */
  private void sendDetail(ChannelHandlerContext ctx, HttpResponseStatus status,
      ResponseConnection connection) {
    send(ctx, status, HttpHeaderValues.APPLICATION_JSON.toString(),
        "{\"detail\":" + ResponseText.quote(status.reasonPhrase()) + "}", connection);
  }

  /** A refused request, answered with the error's status and body. */
  private void sendError(ChannelHandlerContext ctx, ApiError error,
      ResponseConnection connection) {
    send(ctx, error.status(), HttpHeaderValues.APPLICATION_JSON.toString(), error.body(),
        connection);
  }

  private void sendError(ChannelHandlerContext ctx, HttpResponseStatus status, String type,
      String param, String message, ResponseConnection connection) {
    send(ctx, status, HttpHeaderValues.APPLICATION_JSON.toString(),
        ResponseText.error(message, type, param, status.code()), connection);
  }

  private void send(ChannelHandlerContext ctx, HttpResponseStatus status, String contentType,
      String body, ResponseConnection connection) {
    ByteBuf buf = ByteBufUtil.writeUtf8(ctx.alloc(), body);
    FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, buf);
    if (contentType != null) {
      response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
    }
    HttpUtil.setContentLength(response, buf.readableBytes());
    // as uvicorn under vLLM: injectors of a scaled-out run measure their clocks against it
    response.headers().set(HttpHeaderNames.DATE, DateFormatter.format(new Date()));
    connection.decorate(response);
    if (connection.close()) {
      closing = true;
    }
    ChannelFuture written = ctx.writeAndFlush(response);
    written.addListener(connection.close()
        ? ChannelFutureListener.CLOSE : ChannelFutureListener.CLOSE_ON_FAILURE);
  }
}
