package dev.gatlingllm.internal.sweep;

import dev.gatlingllm.sweep.SlaCriterion;
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
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * vLLM's {@code serve_sla}: for each combination and each set of SLA constraints, the largest
 * request rate or concurrency ({@link SlaVariable}) whose runs meet every constraint. A first
 * run without a limit gives the estimate the search starts from ({@link SlaSearch}); each load
 * tried has its runs in {@code <combination>/<variable>=<value>/}, and each search its
 * {@code SLA-<constraints>.json} beside them.
 */
public final class ServeSlaSweep {

  /** The value that stands for an unlimited rate or concurrency in the SLA search (vLLM's). */
  static final int SLA_INF_VALUE = 65536;

  private final SweepRunner runner;
  private final PrintStream out;
  private final SlaVariable variable;

  private ServeSlaSweep(SweepRunner runner, SlaVariable variable) {
    this.runner = runner;
    this.out = runner.config().out();
    this.variable = variable;
  }

  public static SweepOutcome run(SweepConfig config, List<Map<String, SlaCriterion>> slas,
      SlaVariable variable) {
    SweepRunner runner = new SweepRunner(config, false);
    ServeSlaSweep mode = new ServeSlaSweep(runner, variable);
    variable.refuseIn(config.benchParams(), "SLA mode");
    runner.eachPoint(base -> slas.stream().anyMatch(sla -> !Files.exists(slaFile(base, sla))),
        (server, serve, bench, base) -> {
          for (Map<String, SlaCriterion> sla : slas) {
            mode.search(server, serve, bench, sla, base);
          }
        });
    return runner.finish(variable);
  }

  private static Path slaFile(Path base, Map<String, SlaCriterion> sla) {
    return base.resolve(Params.sanitize("SLA-" + SlaCriterion.format(sla)) + ".json");
  }

  private void search(CombinationServer server, Map<String, Object> serve,
      Map<String, Object> bench, Map<String, SlaCriterion> sla, Path base) {
    out.println("[SLA START]");
    List<String> conditions = new ArrayList<>();
    sla.forEach((k, c) -> conditions.add(c.format(k)));
    out.println("SLA criteria: " + String.join(", ", conditions));
    List<Map<String, Object>> all = new ArrayList<>();
    List<Map<String, Object>> first = runLoad(server, serve, bench, SLA_INF_VALUE, base);
    if (first == null) {
      out.println("Omitting SLA search.");
      out.println("[SLA END]");
      return;
    }
    all.addAll(first);
    int init = (int) Math.max(1, Math.ceil(variable.meanEstimate(first)));
    out.println("Initial " + variable.key() + " to search: " + init + " " + unit() + ".");
    List<Map<String, Object>> tested = new ArrayList<>();
    SlaSearch.Result result = SlaSearch.search(init, SLA_INF_VALUE, value -> {
      out.println("Testing " + variable.key() + ": " + value + " " + unit());
      List<Map<String, Object>> data = runLoad(server, serve, bench, value, base);
      all.addAll(data);
      Map<String, Object> step = new LinkedHashMap<>();
      step.put("value", value);
      boolean ok = true;
      for (Map.Entry<String, SlaCriterion> c : sla.entrySet()) {
        double mean = SlaVariable.meanOf(data, c.getKey());
        boolean holds = c.getValue().holds(mean);
        out.println("Validating SLA: " + c.getValue().format(c.getKey() + " = "
            + String.format(Locale.ROOT, "%.2f", mean)) + " | " + (holds ? "PASSED" : "FAILED"));
        step.put(c.getKey(), mean);
        ok &= holds;
      }
      out.println(ok ? "SLA criteria are met." : "SLA criteria are not met.");
      step.put("passed", ok);
      tested.add(step);
      return ok;
    });
    out.println("Range of " + variable.key() + " to search: [" + result.lowerBound() + ", "
        + result.upperBound() + "] " + unit() + ".");
    if (result.value() == 0) {
      out.println("No " + variable.key() + " meets the SLA (not even 1).");
    } else {
      out.println("Maximum " + variable.key() + " for SLA: " + result.value() + " "
          + unit() + "." + (result.capped() ? " (the SLA held up to the largest value "
          + "tried, " + SLA_INF_VALUE + ", which stands for unlimited)" : ""));
    }
    SweepRunner.write(slaFile(base, sla), all);
    runner.answer(new SweepOutcome.SlaAnswer(runner.root().relativize(base).toString(),
        SlaCriterion.format(sla), variable.key(), result.value(), result.capped(), tested));
    out.println("[SLA END]");
  }

  private String unit() {
    return variable == SlaVariable.REQUEST_RATE ? "req/s" : "concurrent requests";
  }

  private List<Map<String, Object>> runLoad(CombinationServer server, Map<String, Object> serve,
      Map<String, Object> bench, Object value, Path base) {
    Map<String, Object> overrides = new LinkedHashMap<>(bench);
    overrides.put(variable.key(), value);
    return SweepRunner.measured(runner.runPoint(server, serve, overrides,
        base.resolve(variable.key() + "=" + Params.text(value))), overrides);
  }

  @Command(name = "serve_sla", usageHelpWidth = 100,
      description = "the highest --sla-variable meeting --sla-params, per combination "
          + "(vLLM's up to 0.29; its newest sweep replaced it with serve_workload, kept here)")
  static final class SubCommand extends SweepCommand.RunStep {

    @Option(names = "--sla-params", required = true, paramLabel = "FILE|JSON",
        description = "[{\"p99_e2el_ms\": \"<=500\"}, ...]; operators <= < >= >")
    String slaParams;

    @Option(names = "--sla-variable", paramLabel = "V", defaultValue = "request_rate",
        description = "request_rate (default) or max_concurrency")
    String slaVariable;

    @Override
    void sweep(SweepConfig config) {
      Sweep.serveSla(config, SlaCriterion.parseAll(SweepCommand.jsonArgument(slaParams)),
          SlaVariable.of(slaVariable));
    }
  }
}
