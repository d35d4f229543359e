package dev.gatlingllm.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/** The random-rerank and random-mm datasets, built from vLLM's flags. */
class RandomRerankAndMultiModalTest {

  @Test
  void rerankBatchesDocumentsBehindOneQueryAndCountsTheQueryPerDocument() {
    Samples s = Datasets.fromArgs("--dataset-name", "random-rerank", "--random-input-len", "40",
        "--random-batch-size", "3", "--num-prompts", "7", "--seed", "5").sample(Gpt2.TOKENIZER);
    assertEquals(3, s.size(), "7 documents in batches of 3: 3 + 3 + 1");
    String query = s.requests().get(0).prompt();
    int queryTokens = Gpt2.TOKENIZER.count(query);
    assertEquals(19, queryTokens, "40 / 2 - 1 separator");
    int[] sizes = {3, 3, 1};
    for (int i = 0; i < 3; i++) {
      SampleRequest r = s.requests().get(i);
      assertEquals(query, r.prompt());
      @SuppressWarnings("unchecked")
      List<String> docs = (List<String>) r.extras().get(RandomRerankDataset.DOCUMENTS);
      assertEquals(sizes[i], docs.size());
      int expected = (queryTokens + 1) * docs.size();
      for (String d : docs) {
        int n = Gpt2.TOKENIZER.count(d);
        assertEquals(40 - 19 - 1, n, "each document fills the rest of the input length");
        expected += n;
        assertNotEquals(query, d);
      }
      assertEquals(expected, r.promptLen());
      assertEquals("" + i, r.requestId());
    }
  }

  @Test
  void withoutARerankerOneDocumentPerBatchMakesRoomForTheQuery() {
    Samples s = Datasets.fromArgs("--dataset-name", "random-rerank", "--random-input-len", "12",
        "--random-batch-size", "3", "--num-prompts", "5", "--no-reranker")
        .sample(Gpt2.TOKENIZER);
    // 4 documents in batches of 2; the full-length query counts once per request
    assertEquals(2, s.size());
    SampleRequest first = s.requests().get(0);
    assertEquals(12, Gpt2.TOKENIZER.count(first.prompt()));
    assertEquals(12 + 12 + 12, first.promptLen());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Datasets.fromArgs("--dataset-name", "random-rerank", "--no-reranker",
            "--num-prompts", "4").sample(Gpt2.TOKENIZER));
    assertTrue(e.getMessage().contains("--random-batch-size > 1"), e.getMessage());
  }

  @Test
  void randomMmSendsSeededJpegImagesOfTheBucketSize() throws Exception {
    String[] args = {"--dataset-name", "random-mm", "--random-input-len", "16",
        "--random-output-len", "4", "--num-prompts", "3", "--seed", "9",
        "--random-mm-base-items-per-request", "2",
        "--random-mm-bucket-config", "{(32, 48, 1): 1.0, (64, 64, 16): 0.0}"};
    Samples s = Datasets.fromArgs(args).sample(Gpt2.TOKENIZER);
    assertEquals(3, s.size());
    for (SampleRequest r : s.requests()) {
      assertEquals(16, r.promptLen());
      assertEquals(4, r.expectedOutputLen());
      @SuppressWarnings("unchecked")
      List<Map<String, Object>> parts =
          (List<Map<String, Object>>) r.extras().get(RandomMultiModalDataset.MM_CONTENT);
      assertEquals(2, parts.size());
      for (Map<String, Object> part : parts) {
        assertEquals(List.of("type", "image_url"), List.copyOf(part.keySet()));
        String url = (String) ((Map<?, ?>) part.get("image_url")).get("url");
        assertTrue(url.startsWith("data:image/jpeg;base64,"), url.substring(0, 30));
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(
            Base64.getDecoder().decode(url.substring(url.indexOf(',') + 1))));
        assertEquals(48, image.getWidth(), "width, as in vLLM's (height, width, frames)");
        assertEquals(32, image.getHeight());
      }
    }
    Samples again = Datasets.fromArgs(args).sample(Gpt2.TOKENIZER);
    assertEquals(s.requests(), again.requests(), "the same seed gives the same images");
    args[9] = "10";
    assertNotEquals(s.requests().get(0).extras(),
        Datasets.fromArgs(args).sample(Gpt2.TOKENIZER).requests().get(0).extras());
  }

  @Test
  void randomMmLimitsAndVideoAreCheckedWithTheReason() {
    Samples capped = Datasets.fromArgs("--dataset-name", "random-mm", "--random-input-len", "8",
        "--num-prompts", "20", "--random-mm-base-items-per-request", "2",
        "--random-mm-num-mm-items-range-ratio", "0.5",
        "--random-mm-limit-mm-per-prompt", "{\"image\": 2, \"video\": 0}",
        "--random-mm-bucket-config", "{(8, 8, 1): 1}").sample(Gpt2.TOKENIZER);
    // 1..3 items drawn, at most 2 images allowed
    int most = 0;
    for (SampleRequest r : capped.requests()) {
      int n = ((List<?>) r.extras().get(RandomMultiModalDataset.MM_CONTENT)).size();
      assertTrue(n >= 1 && n <= 2, "items: " + n);
      most = Math.max(most, n);
    }
    assertEquals(2, most);
    IllegalArgumentException tooMany = assertThrows(IllegalArgumentException.class,
        () -> Datasets.fromArgs("--dataset-name", "random-mm", "--random-input-len", "8",
            "--num-prompts", "1", "--random-mm-base-items-per-request", "4",
            "--random-mm-limit-mm-per-prompt", "{\"image\": 1}").sample(Gpt2.TOKENIZER));
    assertTrue(tooMany.getMessage().contains("allow only 1"), tooMany.getMessage());
    IllegalArgumentException video = assertThrows(IllegalArgumentException.class,
        () -> Datasets.fromArgs("--dataset-name", "random-mm",
            "--random-mm-bucket-config", "{(8, 8, 4): 1.0}"));
    assertTrue(video.getMessage().contains("MP4"), video.getMessage());
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
        () -> Datasets.fromArgs("--dataset-name", "random-mm", "--random-mm-bucket-config", "x"));
    assertTrue(bad.getMessage().contains("--random-mm-bucket-config"), bad.getMessage());
  }
}
