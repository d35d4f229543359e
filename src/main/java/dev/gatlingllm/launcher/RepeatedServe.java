package dev.gatlingllm.launcher;

import dev.gatlingllm.cli.BenchArgs;
import dev.gatlingllm.sweep.Sweep;
import dev.gatlingllm.sweep.SweepConfig;
import dev.gatlingllm.sweep.SweepFailure;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code gatling-llm bench serve --num-runs N} with N > 1: the sweep's engine runs the same
 * flags N times, each run a fresh Gatling run in a JVM of its own (as a sweep's runs are, so
 * that no run starts warmer than another), then prints and writes their statistics.
 */
final class RepeatedServe {

  private RepeatedServe() {}

  /**
   * @param results where the runs go when {@code --result-dir} does not say
   * @return 0, or 1 when a run failed (the runs before it stay, with their files)
   */
  static int run(BenchArgs args, int runs, Path results) {
    List<String> words = args.words().stream().filter(w -> !w.startsWith("--num-runs="))
        .toList();
    Path dir = args.value("result-dir").map(Path::of).orElse(results);
    SweepConfig config = SweepConfig.builder().benchArgs(words).numRuns(runs).outputDir(dir)
        .showStdout(true).out(System.out).build();
    try {
      Sweep.repeat(config);
      return 0;
    } catch (SweepFailure e) {
      System.err.println("gatling-llm bench serve: " + e.getMessage());
      return Sweep.FAILED_STATUS;
    }
  }
}
