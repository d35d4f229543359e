package dev.gatlingllm.cli;

import dev.gatlingllm.action.Backends.Backend;
import dev.gatlingllm.dataset.BfclDataset;
import java.util.Map;

/** vLLM sends BFCL's tools with chat requests only, and refuses the dataset otherwise. */
final class BfclBackend {

  private BfclBackend() {}

  /**
   * @throws IllegalArgumentException when the dataset flags name BFCL and the backend's
   *                                  requests are no chat messages (only {@code openai-chat}'s
   *                                  are)
   */
  static void check(Map<String, String> datasetFlags, Backend backend) {
    boolean bfcl = "hf".equals(datasetFlags.get("dataset-name"))
        && (BfclDataset.isBfcl(datasetFlags.get("dataset-path"))
            || BfclDataset.isBfcl(datasetFlags.get("hf-name")));
    if (bfcl && !backend.chatTemplate()) {
      throw new IllegalArgumentException("BFCL dataset requires the 'openai-chat' backend "
          + "because its questions carry tools, which only chat requests send; got --backend "
          + backend.name());
    }
  }
}
