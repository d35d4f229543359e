package dev.gatlingllm.internal.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/**
 * What a compressed body inflates to depends on its bytes only, not on where the reads end,
 * and comes out in bounded pieces whatever one read inflates to.
 */
class InflatingTest {

  private static final byte[] TEXT = ("data: {\"choices\":[{\"text\":\"hello\"}]}\n\n".repeat(40)
      + "data: [DONE]\n\n").getBytes(StandardCharsets.UTF_8);

  /** Everything {@code inflater} gave for {@code body} read with reads ending at {@code cuts}. */
  private static byte[] inflate(Inflating inflater, byte[] body, int... cuts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int from = 0;
    int[] ends = Arrays.copyOf(cuts, cuts.length + 1);
    ends[cuts.length] = body.length;
    for (int to : ends) {
      inflater.inflate(Unpooled.wrappedBuffer(body, from, to - from), piece -> {
        assertTrue(piece.readableBytes() <= Inflating.MAX_PIECE, "a piece above the bound");
        byte[] bytes = new byte[piece.readableBytes()];
        piece.readBytes(bytes);
        out.writeBytes(bytes);
      });
      from = to;
    }
    inflater.close();
    return out.toByteArray();
  }

  private static int[] everyByte(int length) {
    int[] cuts = new int[length - 1];
    for (int i = 0; i < cuts.length; i++) {
      cuts[i] = i + 1;
    }
    return cuts;
  }

  @Test
  void aGzipBodyInflatesToTheSameBytesWhereverTheReadsEnd() throws IOException {
    byte[] zipped = gzip(TEXT);
    assertArrayEquals(TEXT, inflate(Inflating.forEncoding("gzip"), zipped));
    for (int cut = 1; cut < zipped.length; cut++) {
      assertArrayEquals(TEXT, inflate(Inflating.forEncoding("gzip"), zipped, cut), "cut " + cut);
    }
    assertArrayEquals(TEXT, inflate(Inflating.forEncoding("x-gzip"), zipped,
        everyByte(zipped.length)));
  }

  @Test
  void aCutGzipBodyGivesTheSameBytesWhereverTheReadsEnd() throws IOException {
    // The regression: Netty's decoder left output inside the inflater when a read's input ran
    // out, so a body cut before its end gave more or less text depending on the reads.
    byte[] text = "data: {\"choices\":[{\"text\":\"hello\"}]}\n\n".repeat(40)
        .getBytes(StandardCharsets.UTF_8);
    byte[] zipped = gzip(text);
    byte[] cut = Arrays.copyOf(zipped, zipped.length - 12);
    byte[] whole = inflate(Inflating.forEncoding("gzip"), cut);
    assertTrue(whole.length > text.length / 2, "most of the body inflates: " + whole.length);
    assertArrayEquals(Arrays.copyOf(text, whole.length), whole, "a prefix of the text");
    for (int at = 1; at < cut.length; at++) {
      assertArrayEquals(whole, inflate(Inflating.forEncoding("gzip"), cut, at), "cut at " + at);
    }
    assertArrayEquals(whole, inflate(Inflating.forEncoding("gzip"), cut, everyByte(cut.length)));
  }

  @Test
  void oneReadThatInflatesToMegabytesComesOutInPieces() throws IOException {
    // The regression: Netty's decoder, bounded to 64 KiB, failed such a read ("Decompression
    // buffer has reached maximum size") where the same bytes in small reads passed.
    byte[] big = new byte[10 * 1024 * 1024];
    Arrays.fill(big, (byte) 'a');
    byte[] zipped = gzip(big);
    assertTrue(zipped.length < 64 * 1024, "the test needs a body that fits one read");
    assertArrayEquals(big, inflate(Inflating.forEncoding("gzip"), zipped));
  }

  @Test
  void aSinkThatClosesTheInflaterStopsItQuietly() throws IOException {
    // The exchange closes the inflater when a piece ends the request (a malformed event):
    // the rest of the read is dropped, not inflated into a closed inflater.
    byte[] big = new byte[3 * Inflating.MAX_PIECE];
    Arrays.fill(big, (byte) 'e');
    Inflating inflater = Inflating.forEncoding("gzip");
    int[] pieces = {0};
    inflater.inflate(Unpooled.wrappedBuffer(gzip(big)), piece -> {
      pieces[0]++;
      inflater.close();
    });
    assertEquals(1, pieces[0]);
    inflater.inflate(Unpooled.wrappedBuffer(TEXT), piece -> pieces[0]++);
    assertEquals(1, pieces[0], "nothing comes out of a closed inflater");
  }

  @Test
  void everyOptionalGzipHeaderFieldIsSkippedEvenWhenSplit() {
    Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
    deflater.setInput(TEXT);
    deflater.finish();
    byte[] raw = new byte[TEXT.length + 64];
    int rawLength = deflater.deflate(raw);
    deflater.end();
    CRC32 crc = new CRC32();
    crc.update(TEXT);
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    // magic, deflate, FHCRC | FEXTRA | FNAME | FCOMMENT, mtime, xfl, os
    body.writeBytes(new byte[] {0x1f, (byte) 0x8b, 8, 2 | 4 | 8 | 16, 1, 2, 3, 4, 0, 3});
    body.writeBytes(new byte[] {3, 0, 'x', 'y', 'z'});
    body.writeBytes("events.txt\0".getBytes(StandardCharsets.ISO_8859_1));
    body.writeBytes("a comment\0".getBytes(StandardCharsets.ISO_8859_1));
    CRC32 headerCrc = new CRC32();
    headerCrc.update(body.toByteArray());
    body.writeBytes(Arrays.copyOf(littleEndian(headerCrc.getValue()), 2));
    body.write(raw, 0, rawLength);
    body.writeBytes(littleEndian(crc.getValue()));
    body.writeBytes(littleEndian(TEXT.length));
    byte[] zipped = body.toByteArray();
    assertArrayEquals(TEXT, inflate(Inflating.forEncoding("gzip"), zipped));
    assertArrayEquals(TEXT, inflate(Inflating.forEncoding("gzip"), zipped,
        everyByte(zipped.length)));
    zipped[36] ^= 1; // the header CRC (after 10 + 5 + 11 + 10 bytes)
    assertEquals("gzip header CRC does not match the header", assertThrows(
        IllegalStateException.class, () -> inflate(Inflating.forEncoding("gzip"), zipped, 20))
        .getMessage());
  }

  @Test
  void deflateIsReadZlibWrappedOrRaw() {
    ByteArrayOutputStream zlib = new ByteArrayOutputStream();
    try (DeflaterOutputStream z = new DeflaterOutputStream(zlib)) {
      z.write(TEXT);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    byte[] wrapped = zlib.toByteArray();
    assertArrayEquals(TEXT, inflate(Inflating.forEncoding("deflate"), wrapped,
        everyByte(wrapped.length)));
    Deflater deflater = new Deflater(Deflater.BEST_SPEED, true);
    deflater.setInput(TEXT);
    deflater.finish();
    byte[] raw = new byte[TEXT.length + 64];
    raw = Arrays.copyOf(raw, deflater.deflate(raw));
    deflater.end();
    assertArrayEquals(TEXT, inflate(Inflating.forEncoding("DEFLATE"), raw, 1, 2, 3));
  }

  @Test
  void bytesAfterTheEndOfTheBodyAreIgnored() throws IOException {
    byte[] zipped = gzip(TEXT);
    byte[] trailing = Arrays.copyOf(zipped, zipped.length + 5);
    assertArrayEquals(TEXT, inflate(Inflating.forEncoding("gzip"), trailing));
    assertArrayEquals(TEXT, inflate(Inflating.forEncoding("gzip"), trailing, zipped.length - 3));
  }

  @Test
  void aBodyThatIsNotWhatItsEncodingSaysFailsWithTheReason() throws IOException {
    assertEquals("not in gzip format", assertThrows(IllegalStateException.class,
        () -> inflate(Inflating.forEncoding("gzip"), TEXT)).getMessage());
    byte[] zipped = gzip(TEXT);
    byte[] badCrc = zipped.clone();
    badCrc[badCrc.length - 8] ^= 1;
    assertEquals("gzip trailer does not match the data (CRC or length)",
        assertThrows(IllegalStateException.class,
            () -> inflate(Inflating.forEncoding("gzip"), badCrc, badCrc.length - 4)).getMessage());
    byte[] badData = zipped.clone();
    badData[10] = (byte) 0xff; // block type 3 does not exist
    String message = assertThrows(IllegalStateException.class,
        () -> inflate(Inflating.forEncoding("gzip"), badData)).getMessage();
    assertTrue(message.startsWith("invalid gzip data: "), message);
    assertEquals(null, Inflating.forEncoding("br"));
  }

  @Test
  void aNeverEndingGzipHeaderIsRefusedRatherThanHeld() {
    Inflating inflater = Inflating.forEncoding("gzip");
    byte[] header = {0x1f, (byte) 0x8b, 8, 8, 0, 0, 0, 0, 0, 3}; // FNAME, and it never ends
    inflater.inflate(Unpooled.wrappedBuffer(header), piece -> { });
    byte[] name = new byte[64 * 1024];
    Arrays.fill(name, (byte) 'n');
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> inflater.inflate(Unpooled.wrappedBuffer(name), piece -> { }));
    assertEquals("gzip header longer than 65536 bytes", e.getMessage());
    inflater.close();
  }

  private static byte[] gzip(byte[] data) throws IOException {
    ByteArrayOutputStream zipped = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(zipped)) {
      gz.write(data);
    }
    return zipped.toByteArray();
  }

  private static byte[] littleEndian(long value) {
    return new byte[] {(byte) value, (byte) (value >> 8), (byte) (value >> 16),
        (byte) (value >> 24)};
  }
}
