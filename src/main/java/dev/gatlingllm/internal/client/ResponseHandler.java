package dev.gatlingllm.internal.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.DecoderResultProvider;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.AsciiString;
import io.netty.util.ReferenceCountUtil;
import java.net.SocketAddress;
import java.util.Arrays;

/**
 * Per-connection handler feeding the current {@link Exchange}. Its companion
 * {@link #readStamp()} sits in front of the HTTP decoder and stamps every socket read with
 * {@link System#nanoTime()} before any decoding, so chunk times are arrival times.
 *
 * <p>The stamp also defers the decoding. An event loop reads every ready connection of an
 * epoll batch one after another; had each read been decoded at once (HTTP chunking, SSE
 * framing, JSON, then the user's next action), the 500th stream of a burst would be stamped
 * only after 499 others were decoded: milliseconds of error at high concurrency that are the
 * client's own. So the stamp handler only stamps and queues; the decoding runs from one task
 * per connection that the loop runs right after the batch's reads. Events keep their order
 * per connection: a close or an error first delivers what is queued, then itself.
 *
 * <p>The body of an event stream sent with chunked coding (every LLM server's) skips Netty's
 * HTTP decoder: once the head is read the handler takes the decoder out of the pipeline and
 * reads the chunks itself ({@link ChunkedBody}), handing their bytes straight to the SSE
 * decoder; a new HTTP decoder goes back in when the body ends, for the next response on the
 * connection. Heads, other bodies and compressed streams go through Netty's decoder.
 *
 * <p>The handler also keeps what the client needs to decide whether the connection may carry
 * another request: how many responses it carried, the limits its server announced in a
 * {@code Keep-Alive} header (read once per response head), and when it closed.
 */
final class ResponseHandler extends ChannelInboundHandlerAdapter {

  /** Bytes of a read copied into the array at a time: bounds each connection's memory. */
  private static final int PIECE = 8 * 1024;

  private Exchange exchange;
  private long readNanos;
  private long idleSince = System.nanoTime();
  private boolean interim;
  /** Netty's response decoder, or null while this handler reads a chunked event stream. */
  private HttpResponseDecoder decoder = new HttpResponseDecoder();
  private final ChunkedBody chunked = new ChunkedBody();
  private byte[] scratch;
  /**
   * Requests up to this size are written from {@link #out}; a bigger one gets a buffer of its
   * own, so that a connection never keeps more than this much direct memory.
   */
  static final int REUSED_OUT_MAX = 16 * 1024;
  /** This connection's direct buffer for requests, reused from one to the next; or null. */
  private ByteBuf out;
  /**
   * Share of a server's announced keep-alive timeout that the connection may stay idle and
   * still be reused: the server's clock starts at its last write, ours when we have read the
   * response, so reusing up to the limit would race the server's close. 80 % of uvicorn's
   * 5 s is the client's own default of 4 s.
   */
  static final long IDLE_NANOS_PER_TIMEOUT_SECOND = 800_000_000L;
  /** The header's name (Netty's constant for it is deprecated). */
  private static final AsciiString KEEP_ALIVE = AsciiString.cached("keep-alive");
  /** Final response heads read on this connection. */
  private int responses;
  /** Most responses the server will send on this connection, as it announced. */
  private long maxResponses = Long.MAX_VALUE;
  /** Longest idle time after which the server's announced timeout still lets us reuse it. */
  private long idleCapNanos = Long.MAX_VALUE;
  /** When the connection closed; -1 while open. */
  private long closedNanos = -1;
  /**
   * How the connection was opened ({@link System#nanoTime()}, -1 until known): asked for,
   * its address resolved (Netty hands the connect down the pipeline once its resolver is
   * done), connected, and the read that completed the TLS handshake.
   */
  private long askedNanos = -1;
  private long resolvedNanos = -1;
  private long connectedNanos = -1;
  private long handshakeNanos = -1;

  ChannelDuplexHandler readStamp() {
    return new ReadStamp();
  }

  /** The connection is being asked for now, before Netty resolves its address. */
  void asked(long nanos) {
    askedNanos = nanos;
  }

  /** The connection is connected (its connect future succeeded). */
  void connected(long nanos) {
    connectedNanos = nanos;
  }

  /** Name resolution of this connection; -1 when not seen. */
  long dnsNanos() {
    return askedNanos < 0 || resolvedNanos < 0 ? -1 : resolvedNanos - askedNanos;
  }

  /** TCP connect of this connection, from its resolved address; -1 when not seen. */
  long connectNanos() {
    return resolvedNanos < 0 || connectedNanos < 0 ? -1 : connectedNanos - resolvedNanos;
  }

  /** TLS handshake of this connection; -1 for plain HTTP or when not done. */
  long tlsNanos() {
    return connectedNanos < 0 || handshakeNanos < 0 ? -1 : handshakeNanos - connectedNanos;
  }

  /**
   * A connection's whole pipeline in order: the read stamp, the response decoder, this
   * handler. TLS, when used, goes right after the stamp. Requests are written already encoded
   * ({@link EncodedRequest}), so there is no request encoder.
   */
  ChannelHandler[] handlers() {
    return new ChannelHandler[] {readStamp(), decoder, this};
  }

  void begin(Exchange next) {
    this.exchange = next;
    this.interim = false;
  }

  void end() {
    this.exchange = null;
    this.idleSince = System.nanoTime();
  }

  long idleSince() {
    return idleSince;
  }

  /** Final response heads read on this connection so far. */
  int responses() {
    return responses;
  }

  /** Whether the server's {@code Keep-Alive: max} leaves room for another response. */
  boolean mayServeAnother() {
    return responses < maxResponses;
  }

  /** How long the connection may stay idle and be reused: {@code clientLimit} or less. */
  long idleLimitNanos(long clientLimit) {
    return Math.min(clientLimit, idleCapNanos);
  }

  /** When the connection closed ({@link System#nanoTime()}), or -1 while it is open. */
  long closedNanos() {
    return closedNanos;
  }

  /**
   * A final response head: one more response on this connection, and the server's word on
   * the next ones. {@code max=N} counts from the response that says it (a server counting
   * down, as Apache does, says the same total each time); {@code timeout=T} caps the idle
   * time at 80 % of T. The lowest figures seen hold.
   */
  private void onFinalHead(HttpResponse head) {
    responses++;
    String keepAlive = head.headers().get(KEEP_ALIVE);
    if (keepAlive == null) {
      return;
    }
    long max = KeepAliveHeader.param(keepAlive, "max");
    if (max >= 0) {
      maxResponses = Math.min(maxResponses, responses - 1 + max);
    }
    long timeout = KeepAliveHeader.param(keepAlive, "timeout");
    if (timeout >= 0) {
      idleCapNanos = Math.min(idleCapNanos, timeout * IDLE_NANOS_PER_TIMEOUT_SECOND);
    }
  }

  /**
   * {@code bytes} in a direct buffer, ready for one write on this connection. A heap buffer
   * would be copied into a new pooled direct buffer by the transport on every write: in a
   * profile at 100 req/s that allocation was a fifth of a send's CPU, all of it between the
   * request's clock start and its bytes leaving and between one due send and the next. The
   * connection keeps one buffer for its requests instead (one request at a time on HTTP/1.1):
   * the write takes a reference, which the transport gives back once the bytes are written.
   * A request bigger than {@link #REUSED_OUT_MAX}, or one written while the last write still
   * holds the buffer, goes as before.
   */
  ByteBuf outbound(ByteBufAllocator alloc, byte[] bytes) {
    if (bytes.length > REUSED_OUT_MAX || out != null && out.refCnt() != 1) {
      return Unpooled.wrappedBuffer(bytes);
    }
    if (out == null) {
      out = alloc.directBuffer(Math.max(1024, bytes.length), REUSED_OUT_MAX);
    }
    out.clear().writeBytes(bytes);
    return out.retain();
  }

  /**
   * {@code head} then {@code rest} in one buffer, as {@link #outbound(ByteBufAllocator, byte[])}
   * puts one array: a request encoded for several servers, whose head names this
   * connection's server.
   */
  ByteBuf outbound(ByteBufAllocator alloc, byte[] head, byte[] rest) {
    int size = head.length + rest.length;
    if (size > REUSED_OUT_MAX || out != null && out.refCnt() != 1) {
      return Unpooled.wrappedBuffer(head, rest);
    }
    if (out == null) {
      out = alloc.directBuffer(Math.max(1024, size), REUSED_OUT_MAX);
    }
    out.clear().writeBytes(head).writeBytes(rest);
    return out.retain();
  }

  /** The connection is gone: give its request buffer back (a write in flight keeps its own reference). */
  @Override
  public void handlerRemoved(ChannelHandlerContext ctx) {
    if (out != null) {
      out.release();
      out = null;
    }
  }

  /**
   * Whether the connection can carry another request: not while its last body is still
   * being read outside Netty's decoder. Connections are only pooled after a whole response,
   * which puts the decoder back; this keeps that true wherever the pool is read.
   */
  boolean readyForNext() {
    return decoder != null;
  }

  /**
   * Stamps each read and hands it, and every later event, to the rest of the pipeline later.
   * On the way out it only sees the connect (writes skip it: Netty's handler mask), which
   * Netty sends down once its resolver has the address: the end of the DNS phase.
   */
  private final class ReadStamp extends ChannelDuplexHandler implements Runnable {
    private static final Object READ_COMPLETE = new Object();

    private ChannelHandlerContext ctx;
    private Object[] events = new Object[4];
    private long[] stamps = new long[4];
    private int count;
    private boolean delivering;

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
      this.ctx = ctx;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      defer(msg, System.nanoTime());
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
      defer(READ_COMPLETE, 0);
    }

    @Override
    public void connect(ChannelHandlerContext ctx, SocketAddress remote, SocketAddress local,
        ChannelPromise promise) {
      resolvedNanos = System.nanoTime();
      ctx.connect(remote, local, promise);
    }

    // A close or an error is rare, and Netty tears the pipeline down right after it: deliver
    // what is queued now, then the event itself, in order.

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      deliverQueued();
      ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      deliverQueued();
      ctx.fireExceptionCaught(cause);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
      deliverQueued();
    }

    private void defer(Object event, long nanos) {
      if (count == events.length) {
        events = Arrays.copyOf(events, count * 2);
        stamps = Arrays.copyOf(stamps, count * 2);
      }
      events[count] = event;
      stamps[count] = nanos;
      if (count++ == 0) {
        ctx.executor().execute(this);
      }
    }

    /**
     * The deferred task: a send whose slot has come goes first ({@link UrgentWork}), then the
     * queued events. In a burst of reads this task runs once per connection, so a due send
     * waits for one connection's decoding at most.
     */
    @Override
    public void run() {
      if (!delivering) {
        UrgentWork.runDue();
      }
      deliverQueued();
    }

    /** Delivers the queued events in order; events queued meanwhile are delivered too. */
    private void deliverQueued() {
      if (delivering) {
        return; // an event raised while delivering: the loop below reaches it in order
      }
      delivering = true;
      try {
        deliver();
      } finally {
        delivering = false;
      }
    }

    private void deliver() {
      for (int i = 0; i < count; i++) {
        Object event = events[i];
        events[i] = null;
        if (event == READ_COMPLETE) {
          ctx.fireChannelReadComplete();
        } else {
          readNanos = stamps[i];
          ctx.fireChannelRead(event);
        }
      }
      count = 0;
    }
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    try {
      Exchange current = exchange;
      if (current == null || current.isFinished()) {
        return; // leftovers of a response we stopped listening to
      }
      if (decoder == null) {
        if (msg instanceof ByteBuf bytes) {
          chunkedBytes(ctx, current, bytes);
        }
        return;
      }
      if (msg instanceof HttpResponse head) {
        String notHttp = statusLineProblem(head);
        if (notHttp != null) {
          current.onMalformedResponse(notHttp);
          return;
        }
      }
      if (msg instanceof DecoderResultProvider decoded && decoded.decoderResult().isFailure()) {
        // The codec gave up on this connection (bad header, bad chunk size): whatever it
        // says next is garbage, so the request fails and the connection is not reused.
        current.onMalformedResponse(msg instanceof HttpResponse
            ? "invalid HTTP header" : "invalid chunked encoding");
        return;
      }
      if (msg instanceof HttpResponse response) {
        int code = response.status().code();
        if (code >= 100 && code < 200 && code != 101) {
          interim = true; // 1xx (e.g. 103 Early Hints): the real head follows
          current.onInterimResponse();
          return;
        }
        interim = false;
        onFinalHead(response);
        current.onResponseHead(response, readNanos);
        if (current.readsEventStream() && chunkedOnly(response)) {
          // Taking the decoder out hands this handler, at once and in order, the bytes it
          // holds beyond the head: they belong to the body.
          chunked.reset();
          HttpResponseDecoder netty = decoder;
          decoder = null;
          ctx.pipeline().remove(netty);
        }
      }
      if (msg instanceof HttpContent content) {
        if (interim) {
          return; // the empty end of an interim response
        }
        current.onContent(content, readNanos);
      }
    } finally {
      ReferenceCountUtil.release(msg);
    }
  }

  private static boolean chunkedOnly(HttpResponse head) {
    String coding = head.headers().get(HttpHeaderNames.TRANSFER_ENCODING);
    return coding != null && HttpHeaderValues.CHUNKED.contentEqualsIgnoreCase(coding.trim());
  }

  /** The bytes of one read of a chunked event stream's body. */
  private void chunkedBytes(ChannelHandlerContext ctx, Exchange current, ByteBuf bytes) {
    int from = bytes.readerIndex();
    int left = bytes.readableBytes();
    int wanted = Math.min(PIECE, left);
    if (scratch == null || scratch.length < wanted) {
      int grown = Math.min(PIECE, scratch == null ? 1024 : scratch.length * 2);
      scratch = new byte[Math.max(wanted, grown)];
    }
    while (left > 0) {
      int n = Math.min(left, scratch.length);
      bytes.getBytes(from, scratch, 0, n);
      from += n;
      left -= n;
      int end;
      try {
        end = chunked.feed(scratch, 0, n, readNanos, current);
      } catch (ChunkedBody.Malformed e) {
        current.onMalformedResponse(e.getMessage());
        return;
      }
      if (current.isFinished()) {
        return; // failed on its content (an error event, bad JSON): the connection closes
      }
      if (end != ChunkedBody.MORE) {
        // The body is whole: the next response on this connection needs a decoder again,
        // before the exchange ends (its completion may send the next request at once).
        decoder = new HttpResponseDecoder();
        ctx.pipeline().addBefore(ctx.name(), null, decoder);
        current.onEndOfChunkedBody(readNanos, end == n && left == 0);
        return;
      }
    }
  }

  /**
   * Why a response head is not an HTTP/1.x status line with a status in 100-599, or null when
   * it is one. Decided on the head alone, before any body, so that the outcome cannot depend
   * on how the rest of the response is split across reads (a status-0 response once failed
   * with its body's text, which depended on them). Netty's codec hands a first line it cannot
   * read at all (garbage, a status that is not a number, a line longer than 4 KiB) as a
   * placeholder full response whose decoding failed; a line it did read can still name
   * another protocol version ({@code HTTP/2.0}) or a status no HTTP server sends.
   */
  private static String statusLineProblem(HttpResponse head) {
    String problem = "status line is not HTTP/1.x";
    if (head instanceof FullHttpResponse && head.decoderResult().isFailure()) {
      return problem;
    }
    HttpVersion version = head.protocolVersion();
    if (version.majorVersion() != 1) {
      return problem + " (version " + version.text() + ")";
    }
    int code = head.status().code();
    if (code < 100 || code > 599) {
      return problem + " (status " + code + ", outside 100-599)";
    }
    return null;
  }

  /**
   * The TLS handshake is over: its time is that of the read that completed it (the handler
   * decodes that read now, later than it arrived), as a chunk's is.
   */
  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
    if (event instanceof SslHandshakeCompletionEvent done && done.isSuccess()) {
      handshakeNanos = readNanos >= connectedNanos ? readNanos : System.nanoTime();
    }
    ctx.fireUserEventTriggered(event);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    closedNanos = System.nanoTime();
    Exchange current = exchange;
    if (current != null) {
      current.onInactive();
    }
    ctx.fireChannelInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    Exchange current = exchange;
    if (current != null) {
      current.onException(cause);
    }
    ctx.close();
  }
}
