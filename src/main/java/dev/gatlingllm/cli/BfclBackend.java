package dev.gatlingllm.cli;

import dev.gatlingllm.dataset.BfclDataset;
import java.util.Map;

/** vLLM sends BFCL's tools with chat requests only, and refuses the dataset otherwise. */
final class BfclBackend {

  private BfclBackend() {}

  /**
   * @throws IllegalArgumentException when the dataset flags name BFCL and the backend is not
   *                                  {@code openai-chat}
   */
  static void check(Map<String, String> datasetFlags, String backend) {
    boolean bfcl = "hf".equals(datasetFlags.get("dataset-name"))
        && (BfclDataset.isBfcl(datasetFlags.get("dataset-path"))
            || BfclDataset.isBfcl(datasetFlags.get("hf-name")));
    if (bfcl && !backend.equals("openai-chat")) {
      throw new IllegalArgumentException("BFCL dataset requires the 'openai-chat' backend "
          + "because its questions carry tools, which only chat requests send; got --backend "
          + backend);
    }
  }
}
