package dev.gatlingllm.internal.cli;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gatlingllm.action.Backends;
import dev.gatlingllm.dataset.BfclDataset;
import dev.gatlingllm.internal.flags.GivenValues;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BfclBackendTest {

  @Test
  void bfclNeedsTheChatBackendAsInVllm() {
    GivenValues hub = GivenValues.of(Map.of("dataset-name", "hf", "dataset-path",
        BfclDataset.HUB_ID));
    assertDoesNotThrow(() -> BfclBackend.check(hub, Backends.resolve("openai-chat")));
    assertEquals("BFCL dataset requires the 'openai-chat' backend because its questions carry "
        + "tools, which only chat requests send; got --backend vllm",
        assertThrows(IllegalArgumentException.class,
            () -> BfclBackend.check(hub, Backends.resolve("vllm"))).getMessage());
    // the Responses API takes messages too, but vLLM sends the tools with chat requests only
    assertThrows(IllegalArgumentException.class,
        () -> BfclBackend.check(hub, Backends.resolve("openai-responses")));
    // a local folder named by --hf-name is BFCL too; another hf dataset is not
    assertThrows(IllegalArgumentException.class, () -> BfclBackend.check(GivenValues.of(Map.of(
        "dataset-name", "hf", "dataset-path", "datasets/hf/bfcl", "hf-name",
        BfclDataset.HUB_ID)), Backends.resolve("openai")));
    assertDoesNotThrow(() -> BfclBackend.check(GivenValues.of(Map.of("dataset-name", "hf",
        "dataset-path", "likaixin/InstructCoder")), Backends.resolve("vllm")));
  }

  /** Only openai-chat sends BFCL: a hand-written list, so a capability set wrong fails. */
  @Test
  void everyOtherServedBackendRefusesBfcl() {
    GivenValues hub = GivenValues.of(Map.of("dataset-name", "hf", "dataset-path",
        BfclDataset.HUB_ID));
    for (String name : Backends.servedNames()) {
      if (name.equals("openai-chat")) {
        continue;
      }
      assertThrows(IllegalArgumentException.class,
          () -> BfclBackend.check(hub, Backends.resolve(name)), name);
    }
  }

  /** The structured-output dataset's response_format is a chat field: openai-chat only. */
  @Test
  void theStructuredOutputDatasetNeedsTheChatBackendToo() {
    GivenValues structured = GivenValues.of(Map.of("dataset-name", "structured_output"));
    assertDoesNotThrow(() -> BfclBackend.check(structured, Backends.resolve("openai-chat")));
    for (String name : Backends.servedNames()) {
      if (name.equals("openai-chat")) {
        continue;
      }
      assertEquals("structured_output dataset requires the 'openai-chat' backend because its "
          + "requests ask for a JSON schema with response_format, which only chat requests "
          + "send; got --backend " + name, assertThrows(IllegalArgumentException.class,
              () -> BfclBackend.check(structured, Backends.resolve(name))).getMessage());
    }
  }
}
