package dev.gatlingllm.internal.client;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells whether the server lets connections be reused. Some servers close every connection
 * right after its response while announcing keep-alive (llama.cpp's server says
 * {@code Keep-Alive: timeout=5, max=100} and closes anyway): reusing their connections only
 * races their close, and each lost race costs a request sent twice. When the last
 * {@link #CLOSES_IN_A_ROW} connections were each closed by the server within
 * {@link #SOON_NANOS} of their first response, with no connection kept open for a second
 * response in between, the client stops reusing connections for the rest of the run and
 * says so once.
 *
 * <p>Called from every event loop, on connection events only (never per chunk): a close, or
 * the release of a connection that served more than one response. Thread-safe.
 */
final class ReuseWatch {

  private static final Logger LOG = LoggerFactory.getLogger(LlmClient.class);

  /** Closes in a row that stop the reuse: a few, so that one restart of the server does not. */
  static final int CLOSES_IN_A_ROW = 4;
  /**
   * A close this soon after the response counts: no server's idle timeout is this short (uvicorn
   * 5 s, Node 5 s, nginx 75 s), while a server that closes after each response does it at once.
   */
  static final long SOON_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final AtomicInteger closesInARow = new AtomicInteger();
  private final AtomicBoolean stopped = new AtomicBoolean();

  /** Whether connections are still reused. */
  boolean reusing() {
    return !stopped.get();
  }

  /** The server closed a connection {@code nanosAfterResponse} after the end of its response. */
  void closedByServer(long nanosAfterResponse) {
    if (nanosAfterResponse >= SOON_NANOS) {
      return;
    }
    if (closesInARow.incrementAndGet() >= CLOSES_IN_A_ROW && stopped.compareAndSet(false, true)) {
      LOG.warn("the server closed the last {} connections right after their response, without "
          + "saying so (no Connection: close): from now on every request opens a new "
          + "connection, as the server wants (its connect time is in the TTFT)",
          CLOSES_IN_A_ROW);
    }
  }

  /** A connection served a second response: the server does keep connections open. */
  void keptOpen() {
    if (closesInARow.get() != 0) {
      closesInARow.set(0);
    }
  }
}
