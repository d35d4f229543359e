package dev.gatlingllm.internal.action;

/**
 * The length in seconds of a WAV clip, read from its header (the {@code fmt } chunk's byte
 * rate and the {@code data} chunk's size), for vLLM's {@code input_audio_duration} behind
 * {@code rtfx}. vLLM decodes every format with librosa; clips here are sent as they are, so
 * a clip in another format (FLAC, MP3, ...) counts 0 seconds rather than a guess.
 */
final class WavLength {

  private WavLength() {}

  /** The clip's seconds; 0 when it is not a WAV file this can read. */
  static double seconds(byte[] clip) {
    if (clip.length < 12 || !tag(clip, 0, "RIFF") || !tag(clip, 8, "WAVE")) {
      return 0;
    }
    long byteRate = 0;
    long dataBytes = -1;
    int at = 12;
    while (at + 8 <= clip.length) {
      long size = u32(clip, at + 4);
      if (tag(clip, at, "fmt ") && size >= 12 && at + 20 <= clip.length) {
        byteRate = u32(clip, at + 16);
      } else if (tag(clip, at, "data")) {
        // a streamed WAV may leave the size unset (0 or all ones): the bytes that are there
        dataBytes = size == 0 || size == 0xFFFFFFFFL || at + 8 + size > clip.length
            ? clip.length - (at + 8) : size;
        break;
      }
      at += 8 + (int) Math.min(size + (size & 1), Integer.MAX_VALUE - at - 8);
    }
    return byteRate > 0 && dataBytes >= 0 ? (double) dataBytes / byteRate : 0;
  }

  private static boolean tag(byte[] b, int at, String name) {
    for (int i = 0; i < 4; i++) {
      if (b[at + i] != name.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  private static long u32(byte[] b, int at) {
    return (b[at] & 0xFFL) | (b[at + 1] & 0xFFL) << 8 | (b[at + 2] & 0xFFL) << 16
        | (b[at + 3] & 0xFFL) << 24;
  }
}
