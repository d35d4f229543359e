package dev.gatlingllm.internal.cli;

import dev.gatlingllm.internal.action.RequestPreview;
import dev.gatlingllm.internal.client.ClientConfig;
import dev.gatlingllm.internal.client.LlmClient;
import dev.gatlingllm.internal.client.LlmRequest;
import dev.gatlingllm.internal.client.Target;
import dev.gatlingllm.internal.client.WarmUpRequests;
import io.gatling.netty.util.Transports;
import io.netty.channel.EventLoop;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * vLLM's ready check: sends the test request until one succeeds (the run's own rule: HTTP 200
 * and a content chunk, or for pooling requests a JSON answer) or the timeout passes, retrying every 5 s; a server that is
 * still starting refuses connections or answers 503 meanwhile. Runs before Gatling starts
 * any user, on a client of its own that is closed when it returns.
 */
public final class ReadyCheck {

  /** vLLM's retry interval. */
  public static final Duration RETRY_INTERVAL = Duration.ofSeconds(5);

  /**
   * What the check saw.
   *
   * @param ready     whether a test request succeeded
   * @param attempts  test requests sent
   * @param lastError the last failure's message; null when ready at once
   * @param elapsed   time spent
   */
  public record Outcome(boolean ready, int attempts, String lastError, Duration elapsed) {}

  private ReadyCheck() {}

  public static Outcome await(String baseUrl, HttpHeaders headers, RequestPreview.Rendered request,
      Duration timeout, Duration retryInterval, boolean insecureTls, PrintStream console) {
    long start = System.nanoTime();
    long deadline = start + timeout.toNanos();
    console.println("Waiting for endpoint to become up in " + timeout.toSeconds() + " seconds");
    MultiThreadIoEventLoopGroup group =
        new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    Duration connect = Duration.ofSeconds(Math.max(1, Math.min(10, timeout.toSeconds())));
    LlmClient client = new LlmClient(Transports.newSocketChannelFactory(false, false),
        new ClientConfig(Target.parse(baseUrl), connect, Duration.ZERO, timeout, timeout,
            Duration.ofSeconds(4), insecureTls));
    int attempts = 0;
    String lastError = null;
    try {
      EventLoop loop = group.next();
      while (true) {
        long remaining = deadline - System.nanoTime();
        if (remaining <= 0) {
          return new Outcome(false, attempts, lastError, elapsed(start));
        }
        attempts++;
        WarmUpRequests.Outcome out = WarmUpRequests.run(client, List.of(loop),
            i -> new LlmRequest("ready check", request.path(), headers(headers, request),
                request.body(), -1, LlmRequest.NOT_SCHEDULED, request.pooling(),
                request.reader()), 1, 1,
            Duration.ofNanos(remaining));
        if (out.finished() && out.failed() == 0) {
          return new Outcome(true, attempts, null, elapsed(start));
        }
        lastError = out.finished() ? out.firstError() : "no answer before the timeout";
        long left = deadline - System.nanoTime();
        console.printf(Locale.ROOT, "Endpoint not ready (%s): %.0f s elapsed, %.0f s remaining%n",
            lastError, elapsed(start).toMillis() / 1000.0, Math.max(0, left) / 1e9);
        long sleep = Math.min(retryInterval.toNanos(), left);
        if (sleep > 0) {
          Thread.sleep(sleep / 1_000_000, (int) (sleep % 1_000_000));
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Outcome(false, attempts, "interrupted (last error: " + lastError + ")",
          elapsed(start));
    } finally {
      client.close();
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
  }

  private static HttpHeaders headers(HttpHeaders user, RequestPreview.Rendered request) {
    HttpHeaders headers = new DefaultHttpHeaders().add(user);
    // an audio upload is a form; the client sends JSON unless told otherwise
    if (!request.contentType().equals("application/json")) {
      headers.set("content-type", request.contentType());
    }
    return headers;
  }

  private static Duration elapsed(long start) {
    return Duration.ofNanos(System.nanoTime() - start);
  }
}
