package dev.gatlingllm.internal.action;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** A WAV clip's seconds from its header, for {@code rtfx}. */
class WavLengthTest {

  /**
   * A header written here: 16 kHz mono 16-bit (32,000 bytes a second), a {@code LIST} chunk
   * of odd length before the data (padded to even, as RIFF wants), then {@code dataBytes}.
   */
  private static byte[] wav(int dataBytes, int declaredData) {
    ByteBuffer b = ByteBuffer.allocate(12 + 24 + 8 + 4 + 8 + dataBytes)
        .order(ByteOrder.LITTLE_ENDIAN);
    b.put("RIFF".getBytes()).putInt(b.capacity() - 8).put("WAVE".getBytes());
    b.put("fmt ".getBytes()).putInt(16).putShort((short) 1).putShort((short) 1)
        .putInt(16_000).putInt(32_000).putShort((short) 2).putShort((short) 16);
    b.put("LIST".getBytes()).putInt(3).put(new byte[] {'a', 'b', 'c', 0});
    b.put("data".getBytes()).putInt(declaredData);
    return b.array();
  }

  @Test
  void theDataOverTheByteRate() {
    // 48,000 bytes at 32,000 a second: 1.5 s
    assertEquals(1.5, WavLength.seconds(wav(48_000, 48_000)));
    // a streamed clip's unset size (0): the bytes that are there, 8,000 = 0.25 s
    assertEquals(0.25, WavLength.seconds(wav(8_000, 0)));
  }

  @Test
  void notAWavClipCountsNothing() {
    assertEquals(0.0, WavLength.seconds("fLaC and more bytes".getBytes()));
    assertEquals(0.0, WavLength.seconds(new byte[3]));
  }

  @Test
  void aShippedToneReadsAsTheJdkReadsIt() throws IOException {
    // datasets/custom_media: the length the JDK's own audio reader finds
    byte[] tone = Files.readAllBytes(Path.of("datasets/custom_media/tone_a.wav"));
    javax.sound.sampled.AudioFileFormat f;
    try {
      f = javax.sound.sampled.AudioSystem.getAudioFileFormat(
          new java.io.ByteArrayInputStream(tone));
    } catch (javax.sound.sampled.UnsupportedAudioFileException e) {
      throw new AssertionError(e);
    }
    assertEquals(f.getFrameLength() / (double) f.getFormat().getFrameRate(),
        WavLength.seconds(tone), 1e-9);
  }
}
