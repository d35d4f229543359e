package dev.gatlingllm.dataset;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.LlmDsl;
import dev.gatlingllm.internal.dataset.DatasetException;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CustomMediaDatasetTest {

  static final Path IMAGES = Path.of("datasets/custom_media/custom_image_sample.jsonl");
  static final Path AUDIO = Path.of("datasets/custom_media/custom_audio_sample.jsonl");

  @TempDir Path dir;

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> parts(SampleRequest r) {
    return (List<Map<String, Object>>) r.extras().get(RandomMultiModalDataset.MM_CONTENT);
  }

  @SuppressWarnings("unchecked")
  private static String url(Map<String, Object> part) {
    return ((Map<String, String>) part.get("image_url")).get("url");
  }

  private static SampleRequest byPrompt(Samples samples, String prompt) {
    return samples.requests().stream().filter(r -> r.prompt().equals(prompt)).findFirst()
        .orElseThrow();
  }

  @Test
  void everyImageOfALineIsSentAsAFileUrlByDefault() {
    Samples samples = Datasets.fromArgs("--dataset-name", "custom_image", "--dataset-path",
        IMAGES.toString(), "--num-prompts", "0").sample(Gpt2.TOKENIZER);
    assertEquals(3, samples.size());
    SampleRequest two = byPrompt(samples, "Compare the two pictures.");
    String red = Path.of("datasets/custom_media/red.png").toAbsolutePath().toUri().toString();
    String blue = Path.of("datasets/custom_media/blue.png").toAbsolutePath().toUri().toString();
    assertEquals(List.of(red, blue), parts(two).stream().map(CustomMediaDatasetTest::url)
        .toList());
    assertEquals(16, two.expectedOutputLen(), "the line's own output_len");
    assertEquals(256, byPrompt(samples, "Describe the image.").expectedOutputLen(),
        "vLLM's --custom-output-len default");
    assertEquals(Gpt2.TOKENIZER.countWithSpecialTokens("Describe the image."),
        byPrompt(samples, "Describe the image.").promptLen());
    assertEquals(DatasetContent.VISUAL, DatasetContent.of(samples));
  }

  @Test
  void clientSideDataSendsTheImagesAsJpegDataUrls() throws Exception {
    Samples samples = Datasets.fromArgs("--dataset-name", "custom_image", "--dataset-path",
        IMAGES.toString(), "--custom-ensure-client-side-data", "--custom-output-len", "5",
        "--num-prompts", "3").sample(Gpt2.TOKENIZER);
    String url = url(parts(byPrompt(samples, "What colour is this square?")).get(0));
    assertTrue(url.startsWith("data:image/jpeg;base64,"), url);
    var image = ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode(
        url.substring("data:image/jpeg;base64,".length()))));
    // red.png is 16 x 12
    assertEquals(List.of(16, 12), List.of(image.getWidth(), image.getHeight()));
    samples.requests().forEach(r -> assertEquals(5, r.expectedOutputLen()));
  }

  @Test
  @SuppressWarnings("unchecked")
  void audioClipsAreReadAndSentAsInputAudioParts() throws Exception {
    Samples samples = LlmDsl.customAudio(AUDIO.toString()).allPrompts().sample(Gpt2.TOKENIZER);
    assertEquals(2, samples.size());
    List<Map<String, Object>> parts = parts(byPrompt(samples, "Are these two tones the same?"));
    assertEquals(2, parts.size());
    Map<String, Object> second = (Map<String, Object>) parts.get(1).get("input_audio");
    assertEquals("input_audio", parts.get(1).get("type"));
    assertEquals("wav", second.get("format"));
    assertArrayEquals(Files.readAllBytes(Path.of("datasets/custom_media/tone_b.wav")),
        Base64.getDecoder().decode((String) second.get("data")));
  }

  @Test
  void badLinesAndFilesAreRefusedByName() throws Exception {
    Path noFiles = Files.writeString(dir.resolve("a.jsonl"), "{\"prompt\": \"hi\"}\n");
    assertEquals("custom_image file " + noFiles + " line 1 has no \"image_files\" (a list of "
        + "file paths or URLs)", assertThrows(DatasetException.class,
            () -> Datasets.customImage(noFiles).sample(Gpt2.TOKENIZER)).getMessage());
    Path missing = Files.writeString(dir.resolve("b.jsonl"),
        "{\"prompt\": \"hi\", \"audio_files\": [\"nowhere.wav\"]}\n");
    DatasetException e = assertThrows(DatasetException.class,
        () -> Datasets.customAudio(missing).numPrompts(1).sample(Gpt2.TOKENIZER));
    assertTrue(e.getMessage().startsWith("custom_audio dataset file " + missing
        + ": nowhere.wav does not exist"), e.getMessage());
    assertEquals("--dataset-name is custom_audio but these flags belong to other datasets: "
            + "--custom-ensure-client-side-data (custom_image dataset)",
        assertThrows(IllegalArgumentException.class, () -> Datasets.fromArgs("--dataset-name",
            "custom_audio", "--dataset-path", "x", "--custom-ensure-client-side-data"))
            .getMessage());
  }
}
