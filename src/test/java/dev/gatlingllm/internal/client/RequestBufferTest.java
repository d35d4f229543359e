package dev.gatlingllm.internal.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** A connection's request buffer: direct, reused request after request, never shared. */
class RequestBufferTest {

  private static byte[] request(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /** Writes {@code buf} and returns what the transport got, as it would be given back. */
  private static byte[] writeAndDrain(EmbeddedChannel ch, ByteBuf buf) {
    ch.writeAndFlush(buf);
    ByteBuf sent = ch.readOutbound();
    byte[] bytes = ByteBufUtil.getBytes(sent);
    sent.release(); // what the transport does once the bytes are out
    return bytes;
  }

  @Test
  void oneDirectBufferCarriesEveryRequestOfAConnection() {
    ResponseHandler handler = new ResponseHandler();
    EmbeddedChannel ch = new EmbeddedChannel(handler.handlers());
    ByteBuf first = handler.outbound(ch.alloc(), request("POST /a HTTP/1.1\r\n\r\n{\"x\":1}"));
    assertTrue(first.isDirect(), "direct: the transport would copy a heap buffer");
    assertArrayEquals(request("POST /a HTTP/1.1\r\n\r\n{\"x\":1}"), writeAndDrain(ch, first));
    assertEquals(1, first.refCnt(), "the connection's own reference is left");

    ByteBuf second = handler.outbound(ch.alloc(), request("POST /b HTTP/1.1\r\n\r\n"));
    assertSame(first, second, "reused, not allocated again");
    assertArrayEquals(request("POST /b HTTP/1.1\r\n\r\n"), writeAndDrain(ch, second),
        "nothing of the longer request before it is left");
    ch.finishAndReleaseAll();
  }

  @Test
  void aWriteStillHoldingTheBufferIsNeverOverwritten() {
    ResponseHandler handler = new ResponseHandler();
    EmbeddedChannel ch = new EmbeddedChannel(handler.handlers());
    ByteBuf first = handler.outbound(ch.alloc(), request("first"));
    ch.writeAndFlush(first); // not drained: the transport still holds it
    ByteBuf second = handler.outbound(ch.alloc(), request("second"));
    assertNotSame(first, second);
    ByteBuf held = ch.readOutbound();
    assertEquals("first", held.toString(StandardCharsets.US_ASCII));
    held.release();
    second.release();
    ch.finishAndReleaseAll();
  }

  @Test
  void aLargeRequestGetsABufferOfItsOwn() {
    ResponseHandler handler = new ResponseHandler();
    EmbeddedChannel ch = new EmbeddedChannel(handler.handlers());
    byte[] large = new byte[ResponseHandler.REUSED_OUT_MAX + 1];
    Arrays.fill(large, (byte) 'a');
    ByteBuf big = handler.outbound(ch.alloc(), large);
    assertArrayEquals(large, writeAndDrain(ch, big));
    ByteBuf small = handler.outbound(ch.alloc(), request("small"));
    assertNotSame(big, small);
    assertTrue(small.capacity() <= ResponseHandler.REUSED_OUT_MAX,
        "the kept buffer stays small: " + small.capacity());
    assertArrayEquals(request("small"), writeAndDrain(ch, small));
    ch.finishAndReleaseAll();
  }

  @Test
  void theBufferIsGivenBackWhenTheConnectionCloses() {
    ResponseHandler handler = new ResponseHandler();
    EmbeddedChannel ch = new EmbeddedChannel(handler.handlers());
    ByteBuf buf = handler.outbound(ch.alloc(), request("POST / HTTP/1.1\r\n\r\n"));
    writeAndDrain(ch, buf);
    assertEquals(1, buf.refCnt());
    ch.close();
    ch.runPendingTasks();
    assertEquals(0, buf.refCnt(), "released with the connection");
    assertFalse(ch.isOpen());
  }

  @Test
  void aWriteInFlightWhenTheConnectionClosesKeepsItsReferenceUntilDone() {
    ResponseHandler handler = new ResponseHandler();
    EmbeddedChannel ch = new EmbeddedChannel(handler.handlers());
    ByteBuf buf = handler.outbound(ch.alloc(), request("in flight"));
    ch.writeAndFlush(buf);
    ByteBuf held = ch.readOutbound();
    ch.close();
    ch.runPendingTasks();
    assertEquals(1, held.refCnt(), "the transport's reference outlives the connection's");
    assertEquals("in flight", held.toString(StandardCharsets.US_ASCII));
    held.release();
    assertEquals(0, buf.refCnt());
  }
}
