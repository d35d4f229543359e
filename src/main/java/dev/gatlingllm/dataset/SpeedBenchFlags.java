package dev.gatlingllm.dataset;

import java.util.Optional;

/**
 * vLLM's Rust client {@code vllm-bench} spells SPEED-Bench its own way: the dataset
 * {@code speed-bench} and its subset {@code --speed-bench-config}; both mean what vLLM's
 * {@code speed_bench} and {@code --speed-bench-dataset-subset} mean.
 */
final class SpeedBenchFlags {

  private SpeedBenchFlags() {}

  /** The dataset name, with vllm-bench's {@code speed-bench} read as {@code speed_bench}. */
  static String datasetName(String name) {
    return name.equals("speed-bench") ? "speed_bench" : name;
  }

  /**
   * The subset from either flag (null when neither is given).
   *
   * @throws IllegalArgumentException when both are given with different subsets
   */
  static Optional<String> subset(String vllmSubset, String rustConfig) {
    if (vllmSubset != null && rustConfig != null && !vllmSubset.equals(rustConfig)) {
      throw new IllegalArgumentException("--speed-bench-dataset-subset " + vllmSubset
          + " and --speed-bench-config " + rustConfig + " name different subsets; "
          + "--speed-bench-config is vllm-bench's name of the same flag: give one");
    }
    return Optional.ofNullable(vllmSubset != null ? vllmSubset : rustConfig);
  }
}
