package dev.gatlingllm.internal.sim;

import dev.gatlingllm.sim.SimulatorConfig;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;

/**
 * What one response does with its connection (see {@link SimulatorConfig.ConnectionPolicy}):
 * the headers it carries about it, whether its body is chunked even when not streamed, and
 * whether the server closes the connection once the response is written.
 *
 * @param close           the server closes the connection after this response
 * @param sayClose        the response carries {@code Connection: close}
 * @param keepAliveHeader the {@code Keep-Alive} header's value, or null for none
 * @param chunkedAnswers  a non-streamed generation is sent chunked too
 */
record ResponseConnection(boolean close, boolean sayClose, String keepAliveHeader,
    boolean chunkedAnswers) {

  /** The connection stays open; nothing is said about it (vLLM). */
  static final ResponseConnection KEEP = new ResponseConnection(false, false, null, false);
  /** {@code Connection: close}, then the server closes. */
  static final ResponseConnection CLOSE = new ResponseConnection(true, true, null, false);
  /** llama.cpp's: chunked, a Keep-Alive header promising more, then closed without a word. */
  static final ResponseConnection CLOSE_UNANNOUNCED =
      new ResponseConnection(true, false, "timeout=5, max=100", true);

  /**
   * The {@code n}-th response (from 1) of a connection under {@code config}'s policy, to a
   * request that asked for the connection to be kept ({@code requestKeepAlive}) or not.
   */
  static ResponseConnection of(SimulatorConfig config, boolean requestKeepAlive, int n) {
    if (!requestKeepAlive) {
      return CLOSE;
    }
    return switch (config.connectionPolicy()) {
      case CLOSE_AFTER_RESPONSE -> CLOSE_UNANNOUNCED;
      case CONNECTION_CLOSE -> CLOSE;
      case KEEP_ALIVE -> config.keepAliveMax() == 0 ? KEEP : new ResponseConnection(
          n >= config.keepAliveMax(), false, "timeout=5, max=" + config.keepAliveMax(), false);
    };
  }

  /** Adds this response's connection headers to {@code response}. */
  void decorate(HttpResponse response) {
    if (sayClose) {
      response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    }
    if (keepAliveHeader != null) {
      response.headers().set("keep-alive", keepAliveHeader);
    }
  }
}
