package dev.gatlingllm.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.LlmDsl;
import dev.gatlingllm.dataset.DatasetSpec;
import dev.gatlingllm.dataset.Datasets;
import dev.gatlingllm.dataset.PromptTokenIds;
import dev.gatlingllm.internal.action.RequestPreview;
import dev.gatlingllm.internal.dataset.DatasetException;
import dev.gatlingllm.tokenizer.Tokenizer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code promptTokenIds(...)}: a completions prompt sent as token ids, and its limits. */
class PromptTokenIdsRequestTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  private static String prompt(Object ids) throws Exception {
    RequestPreview.Rendered r = RequestPreview.render(LlmDsl.completions("c").fromDataset()
        .promptTokenIds("#{ids}"), Map.of("prompt", "text", "prompt_len", 1, "output_len", 2,
        "ids", ids), "m");
    return JSON.readTree(r.body()).get("prompt").toString();
  }

  @Test
  void aListOrAnArrayOfIdsIsTheBodysPrompt() throws Exception {
    assertEquals("[1,2,3]", prompt(List.of(1, 2, 3)));
    assertEquals("[7,0]", prompt(new int[] {7, 0}));
    assertEquals("[9]", prompt(List.of(9L)));
  }

  @Test
  void anythingButWholeNonNegativeIdsFailsTheRequestNamingIt() {
    assertEquals("request 'c': promptTokenIds: the prompt has no token id",
        assertThrows(IllegalArgumentException.class, () -> prompt(List.of())).getMessage());
    assertEquals("request 'c': promptTokenIds: token ids are whole numbers >= 0, got -4",
        assertThrows(IllegalArgumentException.class, () -> prompt(List.of(1, -4)))
            .getMessage());
    assertEquals("request 'c': promptTokenIds: token ids are whole numbers >= 0, got 1.5",
        assertThrows(IllegalArgumentException.class, () -> prompt(List.of(1.5))).getMessage());
    assertEquals("request 'c': promptTokenIds: expected a list of token ids, got String",
        assertThrows(IllegalArgumentException.class, () -> prompt("1 2")).getMessage());
  }

  @Test
  void onlyACompletionsRequestTakesTokenIds() {
    assertEquals("promptTokenIds(...) is only for completions requests: chat and Responses "
        + "requests send messages, which the server tokenizes",
        assertThrows(IllegalArgumentException.class,
            () -> LlmDsl.chat("c").promptTokenIds("#{ids}")).getMessage());
  }

  @Test
  void theDatasetsIdsAreTheTokenizersAndCountAsThePromptLength() throws Exception {
    Path file = dir.resolve("custom.jsonl");
    Files.writeString(file, "{\"prompt\": \"Hello there, general Kenobi\"}\n"
        + "{\"prompt\": \"\"}\n");
    DatasetSpec one = Datasets.custom(file).numPrompts(1).disableShuffle(true);
    try (Tokenizer gpt2 = Tokenizer.gpt2()) {
      var r = PromptTokenIds.of(one).sample(gpt2).requests().get(0);
      int[] expected = gpt2.encode("Hello there, general Kenobi");
      assertEquals(Arrays.stream(expected).boxed().toList(),
          r.extras().get(PromptTokenIds.FEEDER_KEY));
      assertEquals(expected.length, r.promptLen());
      DatasetSpec both = Datasets.custom(file).numPrompts(2).disableShuffle(true);
      DatasetException e = assertThrows(DatasetException.class,
          () -> PromptTokenIds.of(both).sample(gpt2));
      assertEquals("--prompt-token-ids: request 1 has an empty prompt, which has no token id "
          + "to send", e.getMessage());
    }
  }
}
