package dev.gatlingllm.client;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderResultProvider;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.util.ReferenceCountUtil;

/**
 * Per-connection handler feeding the current {@link Exchange}. Its companion
 * {@link #readStamp()} sits in front of the HTTP codec and stamps every socket read with
 * {@link System#nanoTime()} before any decoding, so chunk times are arrival times.
 */
final class ResponseHandler extends ChannelInboundHandlerAdapter {

  private Exchange exchange;
  private long readNanos;
  private long idleSince = System.nanoTime();
  private boolean interim;

  ChannelInboundHandlerAdapter readStamp() {
    return new ChannelInboundHandlerAdapter() {
      @Override
      public void channelRead(ChannelHandlerContext ctx, Object msg) {
        readNanos = System.nanoTime();
        ctx.fireChannelRead(msg);
      }
    };
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

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    try {
      Exchange current = exchange;
      if (current == null || current.isFinished()) {
        return; // leftovers of a response we stopped listening to
      }
      if (msg instanceof DecoderResultProvider decoded && decoded.decoderResult().isFailure()) {
        // The codec gave up on this connection (bad chunk size, bad header): whatever it
        // says next is garbage, so the request fails and the connection is not reused.
        current.onMalformedResponse();
        return;
      }
      if (msg instanceof HttpResponse response) {
        int code = response.status().code();
        if (code >= 100 && code < 200 && code != 101) {
          interim = true; // 1xx (e.g. 103 Early Hints): the real head follows
          return;
        }
        interim = false;
        current.onResponseHead(response, readNanos);
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

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
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
