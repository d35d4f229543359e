package dev.gatlingllm.cli;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gatlingllm.dataset.BfclDataset;
import dev.gatlingllm.flags.GivenValues;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BfclBackendTest {

  @Test
  void bfclNeedsTheChatBackendAsInVllm() {
    GivenValues hub = GivenValues.of(Map.of("dataset-name", "hf", "dataset-path", BfclDataset.HUB_ID));
    assertDoesNotThrow(() -> BfclBackend.check(hub, "openai-chat"));
    assertEquals("BFCL dataset requires the 'openai-chat' backend because its questions carry "
        + "tools, which only chat requests send; got --backend vllm",
        assertThrows(IllegalArgumentException.class, () -> BfclBackend.check(hub, "vllm"))
            .getMessage());
    // a local folder named by --hf-name is BFCL too; another hf dataset is not
    assertThrows(IllegalArgumentException.class, () -> BfclBackend.check(GivenValues.of(Map.of(
        "dataset-name", "hf", "dataset-path", "datasets/hf/bfcl", "hf-name",
        BfclDataset.HUB_ID)), "openai"));
    assertDoesNotThrow(() -> BfclBackend.check(GivenValues.of(Map.of("dataset-name", "hf",
        "dataset-path", "likaixin/InstructCoder")), "vllm"));
  }
}
