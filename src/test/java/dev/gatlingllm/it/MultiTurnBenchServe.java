package dev.gatlingllm.it;

import dev.gatlingllm.cli.BenchServe;

/** {@link BenchServe} that keeps its run's records for the test before writing results. */
public class MultiTurnBenchServe extends BenchServe {

  @Override
  public void after() {
    GatlingRunner.capture();
    super.after();
  }
}
