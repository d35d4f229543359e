package dev.gatlingllm.internal.sweep;

import dev.gatlingllm.sweep.Sweep;
import dev.gatlingllm.sweep.SweepConfig;
import dev.gatlingllm.sweep.SweepOutcome;
import picocli.CommandLine.Command;

/**
 * vLLM's {@code serve}: the grid, every server combination × benchmark combination (filtered
 * by {@code --link-vars}), {@code --num-runs} runs each.
 */
public final class ServeSweep {

  private ServeSweep() {}

  public static SweepOutcome run(SweepConfig config) {
    SweepRunner runner = new SweepRunner(config, false);
    runner.eachPoint(runner::missingRuns, runner::runPoint);
    return runner.finish(null);
  }

  @Command(name = "serve", usageHelpWidth = 100,
      description = "every --serve-params x --bench-params combination, --num-runs times")
  static final class SubCommand extends SweepCommand.RunStep {

    @Override
    void sweep(SweepConfig config) {
      Sweep.serve(config);
    }
  }
}
