package dev.gatlingllm.internal.cli;

import dev.gatlingllm.action.Backends.Backend;
import dev.gatlingllm.dataset.BfclDataset;
import dev.gatlingllm.internal.flags.FlagValues;

/**
 * vLLM sends BFCL's tools with chat requests only, and refuses the dataset otherwise; the
 * structured-output dataset's {@code response_format} is a chat field too.
 */
final class BfclBackend {

  private BfclBackend() {}

  /**
   * @throws IllegalArgumentException when the dataset flags name BFCL and the backend's
   *                                  requests are no chat messages (only {@code openai-chat}'s
   *                                  are)
   */
  static void check(FlagValues datasetFlags, Backend backend) {
    boolean bfcl = "hf".equals(datasetFlags.value("dataset-name").orElse(null))
        && (BfclDataset.isBfcl(datasetFlags.value("dataset-path").orElse(null))
            || BfclDataset.isBfcl(datasetFlags.value("hf-name").orElse(null)));
    if (bfcl && !backend.chatTemplate()) {
      throw new IllegalArgumentException("BFCL dataset requires the 'openai-chat' backend "
          + "because its questions carry tools, which only chat requests send; got --backend "
          + backend.name());
    }
    if ("structured_output".equals(datasetFlags.value("dataset-name").orElse(null))
        && !backend.chatTemplate()) {
      throw new IllegalArgumentException("structured_output dataset requires the 'openai-chat' "
          + "backend because its requests ask for a JSON schema with response_format, which "
          + "only chat requests send; got --backend " + backend.name());
    }
  }
}
