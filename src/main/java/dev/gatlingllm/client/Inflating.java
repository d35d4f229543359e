package dev.gatlingllm.client;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.compression.ZlibCodecFactory;
import io.netty.handler.codec.compression.ZlibWrapper;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Decompresses one response body that came with a {@code Content-Encoding} (gzip or deflate),
 * read by read, so that a compressed event stream is timed and framed like a plain one.
 *
 * <p>The client asks for no encoding, so only a misbehaving server or proxy sends one. It is
 * set up per response, when the head says so, instead of a decompressor in every pipeline:
 * that would add a handler hop to every chunk of every plain stream. Each read is inflated as
 * it arrives (the chunks keep their read time) and inflated output is handed over in pieces
 * of at most {@value #MAX_PIECE} bytes, so a compression bomb costs time, not memory: the
 * SSE framing's own limits apply to what comes out.
 *
 * <p>Not thread-safe: one per response, on its event loop.
 */
final class Inflating implements AutoCloseable {

  static final int MAX_PIECE = 64 * 1024;

  private final EmbeddedChannel channel;

  private Inflating(ZlibWrapper wrapper) {
    this.channel = new EmbeddedChannel(ZlibCodecFactory.newZlibDecoder(wrapper, MAX_PIECE));
  }

  /** The decoder for a {@code Content-Encoding} value, or null when it is not one we read. */
  static Inflating forEncoding(String encoding) {
    return switch (encoding.toLowerCase(Locale.ROOT)) {
      case "gzip", "x-gzip" -> new Inflating(ZlibWrapper.GZIP);
      case "deflate" -> new Inflating(ZlibWrapper.ZLIB_OR_NONE);
      default -> null;
    };
  }

  /**
   * Inflates {@code compressed} (not released: the caller owns it) and hands each piece of
   * output to {@code sink}, which must not keep it.
   */
  void inflate(ByteBuf compressed, Consumer<ByteBuf> sink) {
    channel.writeInbound(compressed.retain());
    for (ByteBuf piece = channel.readInbound(); piece != null; piece = channel.readInbound()) {
      try {
        sink.accept(piece);
      } finally {
        piece.release();
      }
    }
  }

  /**
   * Never throws. Finishing the decoder reports a body that was cut or broken (a gzip stream
   * without its trailer, bytes that are not gzip) by throwing; by then the exchange has its
   * outcome, and an exception here, thrown from inside its completion, once left the request
   * finished but never reported: a virtual user that never came back and a run that never
   * ended (found by ResponsePathFuzzTest).
   */
  @Override
  public void close() {
    try {
      channel.finishAndReleaseAll();
    } catch (RuntimeException brokenOrCutBody) {
      // already counted: the exchange failed (or ended) before closing us
    }
  }
}
