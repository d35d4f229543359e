package dev.gatlingllm.dataset;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import javax.imageio.ImageIO;
import javax.sound.sampled.AudioFileFormat;
import javax.sound.sampled.AudioFormat;
import javax.sound.sampled.AudioInputStream;
import javax.sound.sampled.AudioSystem;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Writes the shipped samples of the Hugging Face datasets whose rows carry images, video or
 * audio, in the column layout of the hub's Parquet exports, plus the Parquet forms of the
 * MLPerf and zeta JSONL samples. Everything is synthetic and seeded: drawn shapes, sine
 * tones, sentences from word lists; rerunning gives the same rows.
 *
 * <p>Run by {@code datasets/hf/make_parquet.sh}.
 */
public final class HfSamples {

  static final Path HF = Path.of("datasets/hf");

  private HfSamples() {}

  public static void main(String[] args) throws IOException {
    Random rng = new Random(20261123);
    ParquetTestFiles.write(HF.resolve("visionarena_sample.parquet"), visionArena(rng),
        CompressionCodecName.SNAPPY);
    ParquetTestFiles.write(HF.resolve("mmvu_sample.parquet"), mmvu(rng),
        CompressionCodecName.SNAPPY);
    ParquetTestFiles.write(HF.resolve("mmstar_sample.parquet"), mmstar(rng),
        CompressionCodecName.SNAPPY);
    ParquetTestFiles.write(HF.resolve("asr_sample.parquet"), asr(rng),
        CompressionCodecName.SNAPPY);
    for (String name : List.of("mlperf", "zeta")) {
      List<Map<String, Object>> rows = new ArrayList<>();
      DataFiles.jsonLines(HF.resolve(name + "_sample.jsonl"), "input",
          (n, node) -> rows.add(ParquetTestFiles.toMap(node)));
      ParquetTestFiles.write(HF.resolve(name + "_sample.parquet"), rows,
          CompressionCodecName.SNAPPY);
    }
    System.out.println("Wrote the multimodal, MLPerf and zeta samples under " + HF);
  }

  static final String[] SUBJECTS = {"a red circle", "two blue squares", "a green triangle",
      "a yellow line", "three grey dots", "an orange frame"};
  static final String[] ASKS = {"What is shown in this picture?", "Count the shapes here.",
      "Describe the colours of this image.", "Which shape is largest?",
      "Is anything in this image symmetrical?", "Write a caption for this image."};

  /** lmarena-ai/VisionArena-Chat: conversation list<list<{role, content}>>, images. */
  static List<Map<String, Object>> visionArena(Random rng) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      String ask = ASKS[rng.nextInt(ASKS.length)];
      String subject = SUBJECTS[rng.nextInt(SUBJECTS.length)];
      List<Object> conversation = List.of(
          List.of(message("user", ask), message("assistant", "The image shows " + subject
              + ".")));
      rows.add(row("conversation_id", "va-" + i, "model", "model-" + (i % 3),
          "conversation", conversation,
          "images", List.of(imageCell(rng, i % 2 == 0 ? "png" : "jpeg", "va-" + i)),
          "num_turns", 1L, "language", "English"));
    }
    return rows;
  }

  /** yale-nlp/MMVU: question, choices {A..E}, answer, video (a URL). */
  static List<Map<String, Object>> mmvu(Random rng) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      Map<String, Object> choices = new LinkedHashMap<>();
      for (String letter : List.of("A", "B", "C", "D", "E")) {
        choices.put(letter, SUBJECTS[rng.nextInt(SUBJECTS.length)]);
      }
      rows.add(row("id", "mmvu-" + i, "question", "Which object appears first in the video?",
          "choices", choices, "answer", "ABCDE".substring(i % 5, i % 5 + 1),
          "video", "https://example.org/mmvu/videos/clip-" + i + ".mp4",
          "question_type", "multiple-choice"));
    }
    return rows;
  }

  /** Lin-Chen/MMStar: index, question (with an "Options:" list), image, answer. */
  static List<Map<String, Object>> mmstar(Random rng) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      String question = ASKS[rng.nextInt(ASKS.length)] + "\nOptions: A: "
          + SUBJECTS[rng.nextInt(SUBJECTS.length)] + ", B: "
          + SUBJECTS[rng.nextInt(SUBJECTS.length)];
      rows.add(row("index", (long) i, "question", question,
          "image", imageCell(rng, "png", null), "answer", i % 2 == 0 ? "A" : "B",
          "category", "coarse perception"));
    }
    return rows;
  }

  /** openslr/librispeech_asr: file, audio {bytes, path}, text, speaker_id, chapter_id, id. */
  static List<Map<String, Object>> asr(Random rng) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      String id = "1000-" + i;
      double seconds = 0.25 + 0.25 * rng.nextInt(4);
      rows.add(row("file", id + ".wav",
          "audio", row("bytes", tone(200 + 50 * i, seconds, 8000), "path", id + ".wav"),
          "text", SUBJECTS[rng.nextInt(SUBJECTS.length)].toUpperCase(java.util.Locale.ROOT),
          "speaker_id", 1000L, "chapter_id", (long) i, "id", id));
    }
    return rows;
  }

  static Map<String, Object> message(String role, String content) {
    return row("role", role, "content", content);
  }

  /** A Hugging Face Image cell: {bytes, path} with a small drawing in {@code format}. */
  static Map<String, Object> imageCell(Random rng, String format, String path) {
    BufferedImage image = new BufferedImage(48 + 8 * rng.nextInt(4), 32 + 8 * rng.nextInt(4),
        BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, image.getWidth(), image.getHeight());
    for (int k = 0; k < 3; k++) {
      g.setColor(new Color(rng.nextInt(1 << 24)));
      g.fillOval(rng.nextInt(32), rng.nextInt(20), 8 + rng.nextInt(16), 8 + rng.nextInt(16));
    }
    g.dispose();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      ImageIO.write(image, format, out);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return row("bytes", out.toByteArray(), "path", path);
  }

  /** A WAV file of a sine tone: 16-bit mono PCM. */
  static byte[] tone(double hz, double seconds, int rate) {
    int frames = (int) Math.round(seconds * rate);
    byte[] pcm = new byte[frames * 2];
    for (int i = 0; i < frames; i++) {
      int v = (int) Math.round(Math.sin(2 * Math.PI * hz * i / rate) * 12000);
      pcm[2 * i] = (byte) v;
      pcm[2 * i + 1] = (byte) (v >> 8);
    }
    AudioFormat format = new AudioFormat(rate, 16, 1, true, false);
    ByteArrayOutputStream wav = new ByteArrayOutputStream();
    try (AudioInputStream in = new AudioInputStream(new ByteArrayInputStream(pcm), format,
        frames)) {
      AudioSystem.write(in, AudioFileFormat.Type.WAVE, wav);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return wav.toByteArray();
  }

  static Map<String, Object> row(Object... pairs) {
    Map<String, Object> row = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      row.put((String) pairs[i], pairs[i + 1]);
    }
    return row;
  }
}
