package dev.gatlingllm.internal.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.LlmDsl;
import dev.gatlingllm.action.EmbeddingsVariant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RequestPreviewTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void rendersTheBodyTheRunWouldSendForARecord() throws Exception {
    RequestPreview.Rendered r = RequestPreview.render(
        LlmDsl.embeddings("e").variant(EmbeddingsVariant.OPENAI_CLIP).fromDataset()
            .multiModal("#{mm_content}"),
        Map.of("prompt", "a cat", "prompt_len", 2, "mm_content", List.of(Map.of("type",
            "image_url", "image_url", Map.of("url", "data:image/png;base64,AA==")))), "m");
    assertEquals("/v1/embeddings", r.path());
    assertEquals("application/json", r.contentType());
    assertTrue(r.pooling());
    JsonNode content = JSON.readTree(r.body()).get("messages").get(0).get("content");
    assertEquals("", content.get(0).get("text").asText(), "CLIP: no text with an image");
    assertEquals("image_url", content.get(1).get("type").asText());
  }

  @Test
  void noMediaPartsMeansATextRequest() throws Exception {
    // vLLM tests the content for truth: an empty list is no media
    RequestPreview.Rendered r = RequestPreview.render(
        LlmDsl.embeddings("e").variant(EmbeddingsVariant.OPENAI_CLIP).fromDataset()
            .multiModal(s -> List.of()), Map.of("prompt", "a cat", "prompt_len", 2), "m");
    JsonNode content = JSON.readTree(r.body()).get("messages").get(0).get("content");
    assertEquals(1, content.size());
    assertEquals("a cat", content.get(0).get("text").asText());
  }

  @Test
  void audioIsAFormAndGenerationIsStreamed() {
    RequestPreview.Rendered audio = RequestPreview.render(LlmDsl.audio("a").fromDataset(),
        Map.of("audio", new byte[] {1, 2}, "prompt_len", 1, "output_len", 3), "m");
    assertTrue(audio.contentType().startsWith("multipart/form-data; boundary="));
    assertFalse(audio.pooling());
    assertEquals("/v1/audio/transcriptions", audio.path());
  }

  @Test
  void aMissingAttributeOrAForeignBuilderIsRefusedByName() {
    IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
        () -> RequestPreview.render(LlmDsl.rerank("r").fromDataset(), Map.of("prompt", "q"),
            "m"));
    assertTrue(missing.getMessage().startsWith("request 'r': documents: "),
        missing.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> RequestPreview.render(LlmDsl.awaitArrival(), Map.of(), "m"));
  }
}
