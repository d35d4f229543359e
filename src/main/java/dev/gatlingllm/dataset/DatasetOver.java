package dev.gatlingllm.dataset;

/**
 * A dataset that changes another's samples ({@code --max-model-len}, {@code
 * --prompt-token-ids}): the same name, count and seed as the dataset it wraps, so the run's
 * JSON and its scale-out digest name the dataset the user chose.
 */
abstract class DatasetOver implements DatasetSpec {

  /** The wrapped dataset, sampled first. */
  protected final DatasetSpec spec;

  DatasetOver(DatasetSpec spec) {
    this.spec = spec;
  }

  @Override
  public String name() {
    return spec.name();
  }

  @Override
  public int numPrompts() {
    return spec.numPrompts();
  }

  @Override
  public long seed() {
    return spec.seed();
  }
}
