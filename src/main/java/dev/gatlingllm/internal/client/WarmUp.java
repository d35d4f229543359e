package dev.gatlingllm.internal.client;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Runs the response path once before the load starts. In a fresh JVM the first requests pay
 * for class loading and interpretation (tens of milliseconds), on the event loops that also
 * timestamp everyone else's tokens: that would show up as TTFT. Called from the thread that
 * builds the simulation, never from an event loop.
 */
public final class WarmUp {

  private static final String RESPONSE = "HTTP/1.1 200 OK\r\n"
      + "content-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n"
      + chunk("data: {\"choices\":[{\"index\":0,\"text\":\" a\",\"delta\":{\"content\":\"b\"}}]}\n\n")
      + chunk(": keep-alive\r\n\r\ndata: {\"choices\":[{\"index\":0,\"text\":\" c\"}]}\n\n")
      + chunk("data: {\"choices\":[],\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":2}}\n\n")
      + chunk("data: [DONE]\n\n") + "0\r\n\r\n";

  private static final int ROUNDS = 200;

  private WarmUp() {}

  /** Decodes a canned streamed response through the real pipeline, without network. */
  public static void pipeline() {
    ClientConfig config = new ClientConfig(Target.parse("http://127.0.0.1:1"),
        Duration.ofSeconds(1), Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO);
    LlmRequest request = new LlmRequest("warm-up", "/v1/completions", new DefaultHttpHeaders(),
        new byte[0], 1, LlmRequest.NOT_SCHEDULED);
    byte[] bytes = RESPONSE.getBytes(StandardCharsets.US_ASCII);
    for (int i = 0; i < ROUNDS; i++) {
      ResponseHandler handler = new ResponseHandler();
      EmbeddedChannel channel = new EmbeddedChannel(handler.handlers());
      Exchange exchange = new Exchange(request, System.nanoTime(), config,
          (ex, record, reusable) -> handler.end());
      handler.begin(exchange);
      exchange.started(channel);
      channel.writeInbound(Unpooled.wrappedBuffer(bytes));
      channel.finishAndReleaseAll();
    }
  }

  /**
   * Opens and closes one connection to the target, which loads the transport classes and
   * tells early when the server cannot be reached.
   *
   * @return null when the connection worked, else why it did not
   */
  public static String connect(LlmClient client, EventLoop loop) {
    return connect(client, loop, 0);
  }

  /** {@link #connect(LlmClient, EventLoop)} to server {@code target} of the client's. */
  public static String connect(LlmClient client, EventLoop loop, int target) {
    Target server = client.config().targets().get(target);
    ChannelFuture future = client.bootstrap(loop, new ChannelInboundHandlerAdapter())
        .connect(server.host(), server.port());
    long waitMillis = client.config().connectTimeout().toMillis() + 1_000;
    if (!future.awaitUninterruptibly(waitMillis, TimeUnit.MILLISECONDS)) {
      future.cancel(false);
      return "connect failed: timeout";
    }
    if (!future.isSuccess()) {
      return Connector.connectError(future.cause());
    }
    Channel ch = future.channel();
    ch.close().awaitUninterruptibly(waitMillis);
    return null;
  }

  private static String chunk(String s) {
    return Integer.toHexString(s.length()) + "\r\n" + s + "\r\n";
  }
}
