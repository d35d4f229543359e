package dev.gatlingllm.sim;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
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
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes the requests of one HTTP/1.1 connection. Requests on a connection are answered
 * in order: a pipelined request waits until the generation before it has been written.
 */
final class ConnectionHandler extends ChannelInboundHandlerAdapter {

  private static final Logger LOG = LoggerFactory.getLogger(ConnectionHandler.class);
  /** Pipelined requests held per connection; a client sending more is cut off. */
  private static final int MAX_PENDING = 64;

  private final SimulatorConfig config;
  private final ServerState state;
  private final TimerLateness lateness;
  /** Null unless the chunk log is on. */
  private final ChunkLog chunkLog;
  private final long startedEpochSeconds;
  private final ArrayDeque<FullHttpRequest> pending = new ArrayDeque<>();
  /** Arrival time of each pending request, in the same order, when the chunk log is on. */
  private final ArrayDeque<Long> pendingNanos = new ArrayDeque<>();
  private Generation current;
  /** When the request being handled arrived (chunk log only). */
  private long receivedNanos;
  private boolean draining;
  private boolean closing;

  ConnectionHandler(SimulatorConfig config, ServerState state, TimerLateness lateness,
      ChunkLog chunkLog, long startedEpochSeconds) {
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
    pending.add(request);
    if (chunkLog != null) {
      pendingNanos.add(System.nanoTime());
    }
    drain(ctx);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    closing = true;
    if (current != null) {
      current.abort();
      current = null;
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
      while (current == null && !closing && !pending.isEmpty()) {
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
    boolean keepAlive = HttpUtil.isKeepAlive(request);
    if (request.decoderResult().isFailure()) {
      sendError(ctx, HttpResponseStatus.BAD_REQUEST, "BadRequestError",
          "Malformed HTTP request", false);
      return;
    }
    String path = new QueryStringDecoder(request.uri()).path();
    HttpMethod method = request.method();
    switch (path) {
      case "/v1/completions", "/v1/chat/completions" -> {
        if (method.equals(HttpMethod.POST)) {
          generate(ctx, request, path.equals("/v1/chat/completions"), keepAlive);
        } else {
          sendDetail(ctx, HttpResponseStatus.METHOD_NOT_ALLOWED, keepAlive);
        }
      }
      case "/debug/chunk-log" -> {
        if (chunkLog != null && method.equals(HttpMethod.GET)) {
          send(ctx, HttpResponseStatus.OK, "text/plain; charset=utf-8", chunkLog.drain(),
              keepAlive);
        } else {
          sendDetail(ctx, HttpResponseStatus.NOT_FOUND, keepAlive);
        }
      }
      case "/start_profile", "/stop_profile" -> {
        // vLLM's server answers 200 when started with a profiler directory; nothing to do here
        if (method.equals(HttpMethod.POST)) {
          state.profilerCall(path);
          send(ctx, HttpResponseStatus.OK, null, "", keepAlive);
        } else {
          sendDetail(ctx, HttpResponseStatus.METHOD_NOT_ALLOWED, keepAlive);
        }
      }
      case "/v1/models", "/health", "/metrics" -> {
        if (method.equals(HttpMethod.GET)) {
          sendInfo(ctx, path, keepAlive);
        } else {
          sendDetail(ctx, HttpResponseStatus.METHOD_NOT_ALLOWED, keepAlive);
        }
      }
      default -> sendDetail(ctx, HttpResponseStatus.NOT_FOUND, keepAlive);
    }
  }

  private void generate(ChannelHandlerContext ctx, FullHttpRequest http, boolean chat,
      boolean keepAlive) {
    GenerationRequest request;
    try {
      request = GenerationRequest.parse(chat, http.content(), config.model(),
          config.defaultMaxTokens());
    } catch (ApiError e) {
      sendError(ctx, e.status(), e.type(), e.getMessage(), keepAlive);
      return;
    }
    long number = state.arrive();
    Set<Fault> faults = config.faultsFor(number);
    if (faults.contains(Fault.HTTP_ERROR)) {
      state.countFault(Fault.HTTP_ERROR);
      state.depart();
      sendError(ctx, HttpResponseStatus.INTERNAL_SERVER_ERROR, "InternalServerError",
          "Simulated internal server error (fault injection)", keepAlive);
      return;
    }
    String requestId = http.headers().get("x-request-id");
    ChunkLog.Entry logEntry = chunkLog == null || !request.stream()
        ? null : new ChunkLog.Entry(requestId, receivedNanos);
    current = new Generation(ctx, config, state, lateness, request, number, faults, requestId,
        keepAlive, () -> generationDone(ctx, keepAlive, logEntry));
    current.logTo(logEntry);
    current.begin();
  }

  private void generationDone(ChannelHandlerContext ctx, boolean keepAlive,
      ChunkLog.Entry logEntry) {
    current = null;
    if (logEntry != null) {
      chunkLog.add(logEntry);
    }
    if (keepAlive) {
      drain(ctx);
    } else {
      closing = true;
    }
  }

  private void sendInfo(ChannelHandlerContext ctx, String path, boolean keepAlive) {
    switch (path) {
      case "/v1/models" -> send(ctx, HttpResponseStatus.OK, HttpHeaderValues.APPLICATION_JSON.toString(),
          ResponseText.models(config.model(), startedEpochSeconds), keepAlive);
      case "/metrics" -> send(ctx, HttpResponseStatus.OK, "text/plain; version=0.0.4; charset=utf-8",
          MetricsText.render(config.model(), state.snapshot(), lateness), keepAlive);
      default -> send(ctx, HttpResponseStatus.OK, null, "", keepAlive);
    }
  }

  /** FastAPI's body for routing errors, which vLLM's server returns for them. */
  private void sendDetail(ChannelHandlerContext ctx, HttpResponseStatus status, boolean keepAlive) {
    send(ctx, status, HttpHeaderValues.APPLICATION_JSON.toString(),
        "{\"detail\":" + ResponseText.quote(status.reasonPhrase()) + "}", keepAlive);
  }

  private void sendError(ChannelHandlerContext ctx, HttpResponseStatus status, String type,
      String message, boolean keepAlive) {
    send(ctx, status, HttpHeaderValues.APPLICATION_JSON.toString(),
        ResponseText.error(message, type, status.code()), keepAlive);
  }

  private void send(ChannelHandlerContext ctx, HttpResponseStatus status, String contentType,
      String body, boolean keepAlive) {
    ByteBuf buf = ByteBufUtil.writeUtf8(ctx.alloc(), body);
    FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, buf);
    if (contentType != null) {
      response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
    }
    HttpUtil.setContentLength(response, buf.readableBytes());
    if (!keepAlive) {
      response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
      closing = true;
    }
    ChannelFuture written = ctx.writeAndFlush(response);
    written.addListener(keepAlive ? ChannelFutureListener.CLOSE_ON_FAILURE : ChannelFutureListener.CLOSE);
  }
}
