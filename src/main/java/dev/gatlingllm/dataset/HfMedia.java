package dev.gatlingllm.dataset;

import dev.gatlingllm.internal.dataset.DatasetException;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import javax.sound.sampled.AudioFileFormat;
import javax.sound.sampled.AudioFormat;
import javax.sound.sampled.AudioInputStream;
import javax.sound.sampled.AudioSystem;
import javax.sound.sampled.UnsupportedAudioFileException;

/**
 * Turns the image, video and audio cells of Hugging Face rows into what vLLM sends for them:
 * OpenAI chat content parts for images and videos, a WAV file for audio. Hugging Face stores
 * an {@code Image} or {@code Audio} feature as a struct {@code {bytes, path}}; a plain string
 * is a URL or a local path.
 */
final class HfMedia {

  private HfMedia() {}

  /**
   * An {@code image_url} part. Embedded bytes are decoded and re-encoded as an RGB JPEG data
   * URL, as vLLM does; a string is passed on as a URL ({@code file://} added to a bare path).
   */
  static Map<String, Object> imagePart(Object cell, String where) {
    if (cell instanceof String url) {
      return part("image_url", url(url));
    }
    byte[] bytes = bytes(cell, where, "image");
    BufferedImage image;
    try {
      image = ImageIO.read(new ByteArrayInputStream(bytes));
    } catch (IOException e) {
      throw new DatasetException(where + ": the image cannot be decoded: " + e.getMessage(), e);
    }
    if (image == null) {
      throw new DatasetException(where + ": the image is in a format this JVM cannot decode "
          + "(it reads JPEG, PNG, GIF and BMP; starts with " + head(bytes) + ")");
    }
    BufferedImage rgb = new BufferedImage(image.getWidth(), image.getHeight(),
        BufferedImage.TYPE_INT_RGB);
    Graphics2D g = rgb.createGraphics();
    try {
      g.drawImage(image, 0, 0, null);
    } finally {
      g.dispose();
    }
    ByteArrayOutputStream jpeg = new ByteArrayOutputStream();
    try {
      if (!ImageIO.write(rgb, "jpeg", jpeg)) {
        throw new IllegalStateException("this JVM has no JPEG writer");
      }
    } catch (IOException e) {
      throw new DatasetException(where + ": cannot encode the image as JPEG: " + e, e);
    }
    return part("image_url", "data:image/jpeg;base64,"
        + Base64.getEncoder().encodeToString(jpeg.toByteArray()));
  }

  /**
   * A {@code video_url} part: embedded bytes become an MP4 data URL as they are (vLLM does not
   * re-encode videos); a string is passed on as a URL.
   */
  static Map<String, Object> videoPart(Object cell, String where) {
    if (cell instanceof String url) {
      return part("video_url", url(url));
    }
    return part("video_url", "data:video/mp4;base64,"
        + Base64.getEncoder().encodeToString(bytes(cell, where, "video")));
  }

  /** An audio clip as a WAV file, and its length. */
  record Audio(byte[] wav, double seconds) {}

  /**
   * The audio of an ASR row as a WAV file: embedded WAV, AIFF or AU bytes (what the JDK
   * decodes), or a decoded {@code {array, sampling_rate}} (JSON exports), written as 16-bit
   * PCM like vLLM's upload. Compressed formats (FLAC, MP3, Ogg) are refused by name: the JDK
   * has no decoder for them.
   */
  static Audio audio(Object cell, String where) {
    if (cell instanceof Map<?, ?> map && map.get("array") instanceof List<?> samples
        && map.get("sampling_rate") instanceof Number rate) {
      return pcm16(samples, rate.intValue(), where);
    }
    byte[] bytes = bytes(cell, where, "audio");
    try {
      AudioFileFormat file = AudioSystem.getAudioFileFormat(new ByteArrayInputStream(bytes));
      AudioFormat format = file.getFormat();
      long frames = file.getFrameLength();
      if (frames == AudioSystem.NOT_SPECIFIED || format.getFrameRate() <= 0) {
        throw new DatasetException(where + ": the audio does not say how long it is");
      }
      double seconds = frames / (double) format.getFrameRate();
      if (file.getType() == AudioFileFormat.Type.WAVE) {
        return new Audio(bytes, seconds);
      }
      try (AudioInputStream in = AudioSystem.getAudioInputStream(
          new ByteArrayInputStream(bytes))) {
        ByteArrayOutputStream wav = new ByteArrayOutputStream();
        AudioSystem.write(in, AudioFileFormat.Type.WAVE, wav);
        return new Audio(wav.toByteArray(), seconds);
      }
    } catch (UnsupportedAudioFileException e) {
      throw new DatasetException(where + ": the audio is " + audioKind(bytes) + ", which the "
          + "JDK cannot decode; only WAV, AIFF and AU files (or decoded {array, sampling_rate} "
          + "cells) are supported. Convert the dataset's audio to WAV first", e);
    } catch (IOException e) {
      throw new DatasetException(where + ": cannot read the audio: " + e.getMessage(), e);
    }
  }

  private static Audio pcm16(List<?> samples, int rate, String where) {
    if (rate <= 0) {
      throw new DatasetException(where + ": sampling_rate must be positive, got " + rate);
    }
    byte[] pcm = new byte[samples.size() * 2];
    for (int i = 0; i < samples.size(); i++) {
      if (!(samples.get(i) instanceof Number n)) {
        throw new DatasetException(where + ": audio sample " + i + " is not a number");
      }
      int v = (int) Math.round(Math.max(-1.0, Math.min(1.0, n.doubleValue())) * 32767);
      pcm[2 * i] = (byte) v;
      pcm[2 * i + 1] = (byte) (v >> 8);
    }
    AudioFormat format = new AudioFormat(rate, 16, 1, true, false);
    ByteArrayOutputStream wav = new ByteArrayOutputStream();
    try (AudioInputStream in = new AudioInputStream(new ByteArrayInputStream(pcm), format,
        samples.size())) {
      AudioSystem.write(in, AudioFileFormat.Type.WAVE, wav);
    } catch (IOException e) {
      throw new DatasetException(where + ": cannot write the audio as WAV: " + e, e);
    }
    return new Audio(wav.toByteArray(), samples.size() / (double) rate);
  }

  private static byte[] bytes(Object cell, String where, String what) {
    if (cell instanceof byte[] raw) {
      return raw;
    }
    if (cell instanceof Map<?, ?> map) {
      if (map.get("bytes") instanceof byte[] raw) {
        return raw;
      }
      if (map.get("path") instanceof String path && !path.isBlank()) {
        throw new DatasetException(where + ": the " + what + " is not embedded, only its path "
            + path + " is given; use a dataset export with the " + what + " bytes");
      }
    }
    throw new DatasetException(where + ": no " + what + " (expected a {bytes, path} struct, "
        + "got " + (cell == null ? "nothing" : cell.getClass().getSimpleName()) + ")");
  }

  private static String url(String value) {
    return value.startsWith("http://") || value.startsWith("https://")
        || value.startsWith("file://") || value.startsWith("data:") ? value : "file://" + value;
  }

  private static Map<String, Object> part(String type, String url) {
    Map<String, Object> part = new LinkedHashMap<>(2);
    part.put("type", type);
    part.put(type, Map.of("url", url));
    return Collections.unmodifiableMap(part);
  }

  private static String audioKind(byte[] bytes) {
    String head = new String(bytes, 0, Math.min(4, bytes.length),
        java.nio.charset.StandardCharsets.ISO_8859_1);
    if (head.equals("fLaC")) {
      return "FLAC";
    }
    if (head.equals("OggS")) {
      return "Ogg";
    }
    if (head.startsWith("ID3") || bytes.length > 1 && (bytes[0] & 0xFF) == 0xFF
        && (bytes[1] & 0xE0) == 0xE0) {
      return "MP3";
    }
    return "in an unknown format (starts with " + head(bytes) + ")";
  }

  private static String head(byte[] bytes) {
    StringBuilder hex = new StringBuilder();
    for (int i = 0; i < Math.min(4, bytes.length); i++) {
      hex.append(String.format("%02x", bytes[i] & 0xFF));
    }
    return "0x" + hex;
  }
}
