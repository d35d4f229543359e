package dev.gatlingllm.internal.sweep;

import dev.gatlingllm.sweep.SlaVariable;
import dev.gatlingllm.sweep.Sweep;
import dev.gatlingllm.sweep.SweepConfig;
import dev.gatlingllm.sweep.SweepOutcome;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * vLLM's {@code serve_workload}, the even load scan, for each combination: the serial end
 * (concurrency 1, the variable 1), the batch end (concurrency and the variable = the number
 * of prompts), then the loads {@link WorkloadScan#points} places between the two ends'
 * estimates. Each load's runs go to {@code <combination>-WL-<variable>=<value>}, the ends'
 * combination holding their concurrency, as vLLM names them.
 */
public final class ServeWorkloadSweep {

  private final SweepRunner runner;
  private final PrintStream out;
  private final SlaVariable variable;
  private final int iters;

  private ServeWorkloadSweep(SweepRunner runner, SlaVariable variable, int iters) {
    this.runner = runner;
    this.out = runner.config().out();
    this.variable = variable;
    this.iters = iters;
  }

  public static SweepOutcome run(SweepConfig config, SlaVariable variable, int iters) {
    SweepRunner runner = new SweepRunner(config, false);
    WorkloadScan.checkIters(iters);
    variable.refuseIn(config.benchParams(), "workload mode");
    ServeWorkloadSweep mode = new ServeWorkloadSweep(runner, variable, iters);
    runner.eachPoint(base -> !Files.exists(mode.workloadFile(base)),
        (server, serve, bench, base) -> mode.scan(server, serve, bench, base));
    return runner.finish(variable);
  }

  /** Every run of one scan, beside its runs' folders: it marks the scan done for --resume. */
  private Path workloadFile(Path base) {
    return base.resolveSibling(base.getFileName() + "-WL-" + variable.key() + ".json");
  }

  private void scan(CombinationServer server, Map<String, Object> serve,
      Map<String, Object> bench, Path base) {
    out.println("[WL START]");
    out.println("Serve parameters: " + (serve.isEmpty() ? "(None)" : serve));
    out.println("Bench parameters: " + (bench.isEmpty() ? "(None)" : bench));
    out.println("Number of workload iterations: " + iters);
    int datasetSize = runner.runArgs().numPrompts(bench);
    out.println("Dataset size: " + datasetSize);
    Map<String, Object> serialBench = new LinkedHashMap<>(bench);
    serialBench.put("max_concurrency", 1);
    List<Map<String, Object>> serial = runLoad(server, serve, serialBench, 1);
    Map<String, Object> batchBench = new LinkedHashMap<>(bench);
    batchBench.put("max_concurrency", datasetSize);
    List<Map<String, Object>> batch = runLoad(server, serve, batchBench, datasetSize);
    if (serial == null || batch == null) {
      out.println("Omitting intermediate Workload iterations.");
      out.println("[WL END]");
      return;
    }
    int serialValue = (int) Math.ceil(variable.meanEstimate(serial));
    out.println("Serial inference: " + variable.key() + "=" + serialValue);
    int batchValue = (int) Math.floor(variable.meanEstimate(batch));
    out.println("Batch inference: " + variable.key() + "=" + batchValue);
    List<Map<String, Object>> all = new ArrayList<>(serial);
    for (int load : WorkloadScan.points(serialValue, batchValue, iters)) {
      out.println("Exploring: " + variable.key() + "=" + load);
      all.addAll(runLoad(server, serve, bench, load));
    }
    all.addAll(batch);
    SweepRunner.write(workloadFile(base), all);
    out.println("[WL END]");
  }

  /** One load of a scan: the combination with the variable set, in its WL- folder. */
  private List<Map<String, Object>> runLoad(CombinationServer server, Map<String, Object> serve,
      Map<String, Object> bench, int value) {
    Map<String, Object> overrides = new LinkedHashMap<>(bench);
    overrides.put(variable.key(), value);
    Path point = runner.root().resolve(Params.folderName(serve, bench)
        + Params.sanitize("-WL-" + variable.key() + "=" + value));
    return SweepRunner.measured(runner.runPoint(server, serve, overrides, point), overrides);
  }

  @Command(name = "serve_workload", aliases = "workload", usageHelpWidth = 100,
      description = "a serial run (concurrency 1), a batch run (concurrency = --num-prompts), "
          + "then evenly spaced loads between what they reached (vLLM's newest name; workload "
          + "works too)")
  static final class SubCommand extends SweepCommand.RunStep {

    @Option(names = "--workload-var", paramLabel = "V", defaultValue = "request_rate",
        description = "request_rate (default) or max_concurrency")
    String workloadVar;

    @Option(names = "--workload-iters", paramLabel = "N", defaultValue = "10",
        description = "load levels, the serial and the batch runs included, at least 2 "
            + "(default ${DEFAULT-VALUE})")
    int workloadIters;

    @Override
    void sweep(SweepConfig config) {
      Sweep.workload(config, SlaVariable.of(workloadVar), workloadIters);
    }
  }
}
