package dev.gatlingllm.dataset;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.dataset.DatasetException;
import dev.gatlingllm.internal.hub.FakeHub.Response;
import dev.gatlingllm.internal.hub.FakeHub;
import dev.gatlingllm.internal.hub.HubClient;
import dev.gatlingllm.tokenizer.Tokenizer;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import javax.imageio.ImageIO;
import javax.sound.sampled.AudioSystem;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The named Hugging Face datasets of vLLM, each read from its shipped sample. */
class HfNamedDatasetsTest {

  static final Tokenizer GPT2 = Gpt2.TOKENIZER;
  static final Path HF = Path.of("datasets/hf");

  @TempDir Path dir;

  static List<Map<String, Object>> parquet(Path file) {
    List<Map<String, Object>> rows = new ArrayList<>();
    ParquetRows.read(file, List.of(), rows::add);
    return rows;
  }

  /** Source rows by the prompt the dataset should make of them. */
  static Map<String, Map<String, Object>> byPrompt(List<Map<String, Object>> rows,
      java.util.function.Function<Map<String, Object>, String> prompt) {
    Map<String, Map<String, Object>> out = new HashMap<>();
    rows.forEach(r -> out.put(prompt.apply(r), r));
    return out;
  }

  static Samples fromArgs(String... args) {
    return Datasets.fromArgs(args).sample(GPT2);
  }

  static BufferedImage dataUrlImage(Map<?, ?> part, String type) throws IOException {
    assertEquals(type, part.get("type"));
    String url = (String) ((Map<?, ?>) part.get(type)).get("url");
    assertTrue(url.startsWith("data:image/jpeg;base64,"), url.substring(0, 30));
    byte[] jpeg = Base64.getDecoder().decode(url.substring(url.indexOf(',') + 1));
    assertEquals(0xFF, jpeg[0] & 0xFF);
    assertEquals(0xD8, jpeg[1] & 0xFF);
    return ImageIO.read(new ByteArrayInputStream(jpeg));
  }

  static List<?> mmContent(SampleRequest r) {
    return assertInstanceOf(List.class, r.toFeederRecord().get("mm_content"));
  }

  @Test
  void visionArenaSendsTheFirstMessageWithItsFirstImageAsJpeg() throws IOException {
    Path file = HF.resolve("visionarena_sample.parquet");
    List<Map<String, Object>> rows = parquet(file);
    Samples samples = fromArgs("--dataset-name", "hf", "--dataset-path", file.toString(),
        "--hf-name", "lmarena-ai/VisionArena-Chat", "--num-prompts", "12", "--no-oversample",
        "--disable-shuffle");
    assertEquals(12, samples.size());
    for (int i = 0; i < rows.size(); i++) {
      SampleRequest r = samples.requests().get(i);
      Map<String, Object> row = rows.get(i);
      assertEquals(((Map<?, ?>) ((List<?>) ((List<?>) row.get("conversation")).get(0)).get(0))
          .get("content"), r.prompt());
      assertEquals(128, r.expectedOutputLen(), "vLLM's VisionArena default");
      assertEquals(GPT2.countWithSpecialTokens(r.prompt()), r.promptLen(), "text only");
      List<?> parts = mmContent(r);
      assertEquals(1, parts.size());
      BufferedImage sent = dataUrlImage((Map<?, ?>) parts.get(0), "image_url");
      byte[] original = (byte[]) ((Map<?, ?>) ((List<?>) row.get("images")).get(0))
          .get("bytes");
      BufferedImage source = ImageIO.read(new ByteArrayInputStream(original));
      assertEquals(source.getWidth(), sent.getWidth());
      assertEquals(source.getHeight(), sent.getHeight());
    }
    samples = fromArgs("--dataset-name", "hf", "--dataset-path", file.toString(),
        "--hf-name", "lmarena-ai/VisionArena-Chat", "--num-prompts", "12", "--no-oversample");
    // the columns alone identify the shape too
    assertEquals(samples.requests(), fromArgs("--dataset-name", "hf", "--dataset-path",
        file.toString(), "--num-prompts", "12", "--no-oversample").requests());
  }

  @Test
  void visionArenaBenchReadsTurnsAndUrlImagesPassThrough() throws IOException {
    Path file = dir.resolve("bench.parquet");
    ParquetTestFiles.write(file, List.of(
        HfSamples.row("question_id", "q1", "turns", List.of(List.of(
            HfSamples.row("role", "user", "content", "What breed is this dog?"))),
            "images", List.of("https://example.org/dog.png"))), CompressionCodecName.SNAPPY);
    SampleRequest r = Datasets.hf(file.toString()).hfName("lmarena-ai/vision-arena-bench-v0.1")
        .numPrompts(1).sample(GPT2).requests().get(0);
    assertEquals("What breed is this dog?", r.prompt());
    assertEquals(List.of(Map.of("type", "image_url", "image_url",
        Map.of("url", "https://example.org/dog.png"))), mmContent(r));
  }

  @Test
  void mmvuJoinsQuestionAndLetteredChoicesAndSendsTheVideoUrl() {
    Path file = HF.resolve("mmvu_sample.parquet");
    List<Map<String, Object>> rows = parquet(file);
    Map<String, Map<String, Object>> source = new HashMap<>();
    for (Map<String, Object> row : rows) {
      StringBuilder p = new StringBuilder((String) row.get("question"));
      ((Map<?, ?>) row.get("choices")).forEach((k, v) -> p.append(' ').append(k).append('.')
          .append(v));
      source.put(p.toString(), row);
    }
    Samples samples = fromArgs("--dataset-name", "hf", "--dataset-path", file.toString(),
        "--hf-name", "yale-nlp/MMVU", "--hf-output-len", "40", "--num-prompts", "10");
    for (SampleRequest r : samples.requests()) {
      Map<String, Object> row = source.get(r.prompt());
      assertTrue(row != null && r.prompt().contains(" A.") && r.prompt().contains(" E."),
          r.toString());
      assertEquals(40, r.expectedOutputLen());
      assertEquals(List.of(Map.of("type", "video_url", "video_url",
          Map.of("url", row.get("video")))), mmContent(r));
    }
  }

  @Test
  void mmStarKeepsTheQuestionBeforeItsOptions() throws IOException {
    Path file = HF.resolve("mmstar_sample.parquet");
    Samples samples = fromArgs("--dataset-name", "hf", "--dataset-path", file.toString(),
        "--hf-name", "Lin-Chen/MMStar", "--num-prompts", "10");
    List<String> questions = parquet(file).stream().map(r -> (String) r.get("question"))
        .toList();
    for (SampleRequest r : samples.requests()) {
      assertTrue(questions.stream().anyMatch(q -> q.startsWith(r.prompt() + "\nOptions:")),
          r.prompt());
      assertTrue(!r.prompt().contains("Options"));
      assertEquals(128, r.expectedOutputLen());
      dataUrlImage((Map<?, ?>) mmContent(r).get(0), "image_url");
    }
  }

  @Test
  void asrSendsEachClipAsWavWithWhispersPreambleAsPrompt() throws Exception {
    Path file = HF.resolve("asr_sample.parquet");
    List<byte[]> clips = parquet(file).stream()
        .map(r -> (byte[]) ((Map<?, ?>) r.get("audio")).get("bytes")).toList();
    Samples samples = fromArgs("--dataset-name", "hf", "--dataset-path", file.toString(),
        "--hf-name", "openslr/librispeech_asr", "--num-prompts", "6", "--no-oversample");
    assertEquals(6, samples.size());
    int preamble = GPT2.countWithSpecialTokens(HfKind.WHISPER_PREAMBLE);
    List<byte[]> sent = new ArrayList<>();
    for (SampleRequest r : samples.requests()) {
      assertEquals(HfKind.WHISPER_PREAMBLE, r.prompt());
      assertEquals(preamble, r.promptLen());
      assertEquals(128, r.expectedOutputLen());
      byte[] wav = (byte[]) r.toFeederRecord().get("audio");
      assertEquals(AudioSystem.getAudioFileFormat(new ByteArrayInputStream(wav)).getType()
          .toString(), "WAVE");
      sent.add(wav);
    }
    for (byte[] clip : clips) {
      assertTrue(sent.stream().anyMatch(w -> java.util.Arrays.equals(w, clip)));
    }
  }

  @Test
  void asrKeepsClipsWithinTheLengthFiltersAndConvertsOtherJdkFormats() throws Exception {
    Path file = dir.resolve("asr.parquet");
    // a 31 s clip at 1 kHz and a 0.5 s clip at 8 kHz: the rate says which one was sent
    byte[] longClip = HfSamples.tone(100, 31, 1000);
    ParquetTestFiles.write(file, List.of(
        HfSamples.row("audio", HfSamples.row("bytes", longClip, "path", "long.wav")),
        HfSamples.row("audio", HfSamples.row("bytes", HfSamples.tone(300, 0.5, 8000),
            "path", "short.wav"))), CompressionCodecName.SNAPPY);
    Samples samples = Datasets.hf(file.toString()).hfName("facebook/voxpopuli").numPrompts(4)
        .asrMaxAudioLenSec(30).sample(GPT2);
    assertEquals(4, samples.size(), "the one short clip, repeated");
    samples.requests().forEach(r -> assertEquals(8000, wavRate(r)));
    // vLLM's defaults, 0 and inf, keep both
    Samples both = fromArgs("--dataset-name", "hf", "--dataset-path", file.toString(),
        "--hf-name", "facebook/voxpopuli", "--num-prompts", "2", "--no-oversample",
        "--asr-max-audio-len-sec", "inf");
    assertEquals(java.util.Set.of(1000, 8000), both.requests().stream()
        .map(HfNamedDatasetsTest::wavRate).collect(java.util.stream.Collectors.toSet()));
    // at least 1 s: only the long clip
    Samples longOnes = fromArgs("--dataset-name", "hf", "--dataset-path", file.toString(),
        "--hf-name", "facebook/voxpopuli", "--num-prompts", "3", "--asr-min-audio-len-sec",
        "1");
    assertEquals(3, longOnes.size());
    longOnes.requests().forEach(r -> assertEquals(1000, wavRate(r)));
    assertEquals("asr-min-audio-len-sec 40.0 is larger than asr-max-audio-len-sec 30.0",
        assertThrows(IllegalArgumentException.class, () -> Datasets.hf(file.toString())
            .hfName("facebook/voxpopuli").asrMinAudioLenSec(40).asrMaxAudioLenSec(30)
            .sample(GPT2)).getMessage());
    assertEquals("asr-max-audio-len-sec must be a number of seconds >= 0, got -1.0",
        assertThrows(IllegalArgumentException.class,
            () -> Datasets.hf("x").asrMaxAudioLenSec(-1)).getMessage());

    // decoded audio in a JSON export: {array, sampling_rate}
    Path json = Files.writeString(dir.resolve("asr.jsonl"), "{\"audio\": {\"array\": "
        + "[0.0, 0.5, -0.5, 1.0], \"sampling_rate\": 16000}}\n");
    SampleRequest r = Datasets.hf(json.toString()).hfName("LIUM/tedlium").numPrompts(1)
        .sample(GPT2).requests().get(0);
    assertEquals(16000, wavRate(r));
    assertEquals(4, AudioSystem.getAudioFileFormat(new ByteArrayInputStream(
        (byte[]) r.toFeederRecord().get("audio"))).getFrameLength());
  }

  static int wavRate(SampleRequest r) {
    try {
      return (int) AudioSystem.getAudioFileFormat(new ByteArrayInputStream(
          (byte[]) r.toFeederRecord().get("audio"))).getFormat().getSampleRate();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void mediaTheJdkCannotDecodeIsRefusedWithTheRowAndTheFormat() throws IOException {
    Path flac = dir.resolve("flac.parquet");
    ParquetTestFiles.write(flac, List.of(HfSamples.row("audio", HfSamples.row("bytes",
        "fLaC\0\0\0\"rest".getBytes(StandardCharsets.ISO_8859_1), "path", "a.flac"))),
        CompressionCodecName.SNAPPY);
    DatasetException e = assertThrows(DatasetException.class, () -> Datasets.hf(flac.toString())
        .hfName("openslr/librispeech_asr").sample(GPT2));
    assertTrue(e.getMessage().contains(flac + " row 1") && e.getMessage().contains("FLAC")
        && e.getMessage().contains("WAV"), e.getMessage());

    Path webp = dir.resolve("webp.parquet");
    ParquetTestFiles.write(webp, List.of(HfSamples.row("question", "What is it?", "image",
        HfSamples.row("bytes", "RIFF\0\0\0\0WEBPVP8 ".getBytes(StandardCharsets.ISO_8859_1),
            "path", "x.webp"))), CompressionCodecName.SNAPPY);
    DatasetException image = assertThrows(DatasetException.class,
        () -> Datasets.hf(webp.toString()).hfName("Lin-Chen/MMStar").sample(GPT2));
    assertTrue(image.getMessage().contains("row 1")
        && image.getMessage().contains("cannot decode"), image.getMessage());

    Path pathOnly = dir.resolve("path.parquet");
    ParquetTestFiles.write(pathOnly, List.of(HfSamples.row("audio",
        HfSamples.row("path", "/data/a.wav"))), CompressionCodecName.SNAPPY);
    DatasetException notEmbedded = assertThrows(DatasetException.class,
        () -> Datasets.hf(pathOnly.toString()).hfName("openslr/librispeech_asr").sample(GPT2));
    assertTrue(notEmbedded.getMessage().contains("not embedded"), notEmbedded.getMessage());
  }

  @Test
  void mlperfJoinsSystemPromptAndQuestionAndCountsTheReferenceAnswer() throws IOException {
    Path file = HF.resolve("mlperf_sample.parquet");
    List<Map<String, Object>> rows = parquet(file);
    assertEquals(HfDatasetTest.rows(HF.resolve("mlperf_sample.jsonl")).size(), rows.size());
    Map<String, Map<String, Object>> source = byPrompt(rows,
        r -> r.get("system_prompt") + "\n\n" + r.get("question"));
    Samples samples = fromArgs("--dataset-name", "hf", "--dataset-path", file.toString(),
        "--hf-name", "mgoin/mlperf-inference-llama3.1-data", "--num-prompts", "20",
        "--no-oversample");
    int pruned = 0;
    for (Map<String, Object> row : rows) {
      int out = GPT2.count((String) row.get("output"));
      if (out < 4 || out + GPT2.countWithSpecialTokens(row.get("system_prompt") + "\n\n"
          + row.get("question")) > 2048) {
        pruned++;
      }
    }
    assertEquals(rows.size() - pruned, samples.size());
    for (SampleRequest r : samples.requests()) {
      assertEquals(GPT2.count((String) source.get(r.prompt()).get("output")),
          r.expectedOutputLen());
    }

    // an override replaces the reference length, and the check still applies to it
    Path tiny = dir.resolve("tiny.parquet");
    ParquetTestFiles.write(tiny, List.of(HfSamples.row("system_prompt", "Be brief.",
        "question", "What is the capital of France, and why?", "output", "Paris.")),
        CompressionCodecName.SNAPPY);
    DatasetException allPruned = assertThrows(DatasetException.class,
        () -> Datasets.hf(tiny.toString()).hfName("mgoin/mlperf-inference-llama2-data")
            .sample(GPT2));
    assertTrue(allPruned.getMessage().contains("reply under 4"), allPruned.getMessage());
    assertEquals(50, Datasets.hf(tiny.toString()).hfName("mgoin/mlperf-inference-llama2-data")
        .outputLen(50).numPrompts(1).sample(GPT2).requests().get(0).expectedOutputLen());
  }

  @Test
  void zetaPromptsCarryEditsAndExcerptAndTheRegionSetsTheOutput() {
    Path file = HF.resolve("zeta_sample.parquet");
    Samples samples = fromArgs("--dataset-name", "hf", "--dataset-path", file.toString(),
        "--hf-name", "zed-industries/zeta", "--num-prompts", "15");
    List<Map<String, Object>> rows = parquet(file);
    for (SampleRequest r : samples.requests()) {
      Map<String, Object> row = rows.stream().filter(x ->
          r.prompt().contains((String) x.get("input"))
              && r.prompt().contains((String) x.get("events"))).findFirst().orElseThrow();
      assertTrue(r.prompt().startsWith("### Instruction:")
          && r.prompt().endsWith("### Response:\n\n"), r.prompt());
      String output = (String) row.get("output");
      assertEquals(GPT2.countWithSpecialTokens(output.substring(
          output.indexOf("<|editable_region_start|>"))), r.expectedOutputLen());
    }
  }

  @Test
  void hubDownloadsUseEachDatasetsDefaultSplit() throws IOException {
    try (FakeHub hub = new FakeHub()) {
      hub.route("/api/datasets/yale-nlp/MMVU/parquet/default/validation",
              Response.ok("[\"/files/mmvu.parquet\"]".getBytes()))
          .route("/files/mmvu.parquet",
              Response.ok(Files.readAllBytes(HF.resolve("mmvu_sample.parquet"))))
          .route("/api/datasets/Lin-Chen/MMStar/parquet/default/val",
              Response.ok("[\"/files/mmstar.parquet\"]".getBytes()))
          .route("/files/mmstar.parquet",
              Response.ok(Files.readAllBytes(HF.resolve("mmstar_sample.parquet"))));
      HubClient client = HubClient.builder().endpoint(hub.url()).home(dir).build();
      assertEquals(3, Datasets.hf("yale-nlp/MMVU").hub(client).numPrompts(3).sample(GPT2)
          .size());
      assertEquals(3, Datasets.hf("Lin-Chen/MMStar").hub(client).numPrompts(3).sample(GPT2)
          .size());
    }
  }

  @Test
  void llavaConversationsCarryTheirImageAndArePrunedLikeShareGpt() throws IOException {
    String reply = "A small drawing of three coloured circles on a white background.";
    Path file = dir.resolve("llava.parquet");
    ParquetTestFiles.write(file, List.of(
        HfSamples.row("id", "a", "conversations", List.of(
            HfSamples.row("from", "human", "value", "<image>\nWhat is drawn here?"),
            HfSamples.row("from", "gpt", "value", reply)),
            "image", HfSamples.imageCell(new Random(3), "png", "a.png")),
        HfSamples.row("id", "b", "conversations", List.of(
            HfSamples.row("from", "human", "value", "<image>\nAnd here?"),
            HfSamples.row("from", "gpt", "value", "Dots.")),
            "image", HfSamples.imageCell(new Random(4), "png", "b.png"))),
        CompressionCodecName.SNAPPY);
    Samples samples = Datasets.hf(file.toString()).hfName("lmms-lab/LLaVA-OneVision-Data")
        .numPrompts(2).noOversample(true).sample(GPT2);
    assertEquals(1, samples.size(), "a two-token reply is pruned, as in ShareGPT");
    SampleRequest r = samples.requests().get(0);
    assertEquals("<image>\nWhat is drawn here?", r.prompt());
    assertEquals(GPT2.countWithSpecialTokens(reply), r.expectedOutputLen());
    dataUrlImage((Map<?, ?>) mmContent(r).get(0), "image_url");
    // the same file read by its columns alone
    assertEquals(samples.requests(), Datasets.hf(file.toString()).numPrompts(2)
        .noOversample(true).sample(GPT2).requests());
  }

  @Test
  void textColumnsWrittenWithoutTheStringAnnotationAreStillText() throws IOException {
    Path file = dir.resolve("raw.parquet");
    ParquetTestFiles.write(file, List.of(HfSamples.row(
        "turns", List.of("Quelle est la capitale du Pérou ?".getBytes(StandardCharsets.UTF_8)))),
        CompressionCodecName.SNAPPY);
    assertEquals("Quelle est la capitale du Pérou ?", Datasets.hf(file.toString())
        .hfName("philschmid/mt-bench").numPrompts(1).sample(GPT2).requests().get(0).prompt());
  }

  @Test
  void imageCellsOfEveryReadableFormatBecomeJpeg() throws IOException {
    for (String format : List.of("png", "gif", "bmp", "jpeg")) {
      Map<String, Object> cell = HfSamples.imageCell(new Random(1), format, "x." + format);
      BufferedImage sent = dataUrlImage(HfMedia.imagePart(cell, "test"), "image_url");
      BufferedImage source = ImageIO.read(new ByteArrayInputStream((byte[]) cell.get("bytes")));
      assertArrayEquals(new int[] {source.getWidth(), source.getHeight()},
          new int[] {sent.getWidth(), sent.getHeight()}, format);
    }
  }
}
