package dev.gatlingllm.internal.protocol;

import dev.gatlingllm.internal.metrics.OverSaturation;
import dev.gatlingllm.internal.metrics.RecordStore;
import dev.gatlingllm.internal.report.ReportAccess;
import dev.gatlingllm.internal.selfcheck.SelfCheckReport;
import dev.gatlingllm.internal.servermetrics.GpuSeries;
import dev.gatlingllm.internal.servermetrics.ServerSeries;
import dev.gatlingllm.internal.metrics.SpecDecodeStats;
import dev.gatlingllm.options.ResultOptions;
import dev.gatlingllm.internal.report.ProbeReport;
import dev.gatlingllm.internal.report.RecordLog;
import dev.gatlingllm.report.ReportOutcome;
import dev.gatlingllm.internal.report.RunInfo;
import dev.gatlingllm.internal.report.RunReporter;
import dev.gatlingllm.internal.report.RunSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the results of the run that just ended into its Gatling run folder. Called from
 * {@code Simulation.after()}, where throwing would cost the HTML report: it never throws.
 * When the results could not be written it fails the build later instead: once Gatling has
 * written its report and the JVM exits, the exit status becomes {@value #RESULTS_FAILED_STATUS}
 * (unless {@code -D}{@value #FAIL_ON_RESULT_ERROR_PROPERTY}{@code =false}).
 */
public final class RunResults {

  /** System property naming the folder Gatling writes its run folders into. */
  public static final String RESULTS_FOLDER_PROPERTY = "llm.resultsFolder";
  /** Result JSON key of the client's measurement of its own distortion. */
  public static final String SELF_CHECK_KEY = "client_self_check";
  /** Result JSON key of the run's model checked against the server's {@code /v1/models}. */
  public static final String MODEL_CHECK_KEY = "model_check";
  /** System property: {@code false} keeps the exit status when the results were not written. */
  public static final String FAIL_ON_RESULT_ERROR_PROPERTY = "llm.failOnResultError";
  /** The JVM's exit status when the results were not written (Gatling uses 1 and 2). */
  public static final int RESULTS_FAILED_STATUS = 3;
  /** The JVM's exit status when no request succeeded (the results are written). */
  public static final int NO_REQUEST_SUCCEEDED_STATUS = 4;

  private static final Logger LOG = LoggerFactory.getLogger(RunResults.class);
  private static final AtomicReference<String> PENDING_SUMMARY = new AtomicReference<>();
  private static final AtomicReference<String> RESULTS_FAILURE = new AtomicReference<>();
  /** The exit status the last reported run asks for at exit; 0 when none. */
  private static final AtomicInteger PENDING_STATUS = new AtomicInteger();
  private static final AtomicBoolean EXIT_HOOK_INSTALLED = new AtomicBoolean();

  private RunResults() {}

  /**
   * Reports the current run of {@code simulationClass}: vLLM summary on the console, result
   * JSON in the run folder (or the configured result directory).
   */
  public static ReportOutcome write(Class<?> simulationClass) {
    Optional<LlmComponents> current = LlmRun.current();
    if (current.isEmpty()) {
      LOG.warn("no gatling-llm run to report: did the simulation use the llm protocol?");
      return failBuildAtExit(ReportAccess.failed("no run"));
    }
    Path runFolder = current.get().runFolder().orElse(null);
    if (runFolder == null) {
      LOG.warn("Gatling run folder of {} not found (set -D{}=<results folder>); "
          + "writing results to the working directory", simulationClass.getSimpleName(),
          RESULTS_FOLDER_PROPERTY);
    }
    return writeRun(current.get(), runFolder, true, true);
  }

  /**
   * Writes the results of a run whose simulation did not call {@code LlmDsl.writeResults}
   * (it need not):
   * when the next run starts in this JVM, or at exit, into the run's own folder
   * ({@link GatlingRunFolder}). A failure is logged; it does not change the exit status,
   * since nobody asked for the file.
   */
  static void writeForgotten(LlmComponents run, boolean atExit) {
    if (run.parts().requests().store().size() == 0) {
      release(run);
      return; // nothing was ever sent: nothing to lose
    }
    Path folder = run.runFolder().orElse(null);
    if (folder == null) {
      // Not a Gatling run this plugin can place (a harness, or results in an unknown folder):
      // writing into the working directory would litter a project with files nobody asked for.
      String warning = "the run's Gatling run folder was not found (set -D"
          + RESULTS_FOLDER_PROPERTY + " or call writeResults(this) in after()): results not "
          + "written";
      if (atExit) {
        System.err.println("gatling-llm: " + warning);
      } else {
        LOG.warn(warning);
      }
      release(run);
      return;
    }
    // The normal way since simulations need no after(): said once, not as a warning.
    String note = "the run is over: writing its results into " + folder;
    if (atExit) {
      // The logging framework may already be shut down by its own exit hook.
      System.out.println("gatling-llm: " + note);
      System.out.flush();
    } else {
      LOG.info(note);
    }
    // at exit this is the run of the JVM (a simulation without after()): its verdict is the
    // JVM's exit status; a run written when the next one starts is a harness's, whose status
    // is its own business
    ReportOutcome outcome = writeRun(run, folder, false, atExit);
    if (atExit && outcome.resultFile() != null) {
      // the log's "Wrote the benchmark result" line is gone with the logging framework
      System.out.println("gatling-llm: wrote the benchmark result to " + outcome.resultFile());
      System.out.flush();
    }
  }

  /** Closes what a run holds without reporting it. */
  private static void release(LlmComponents run) {
    RunMeasures measures = run.parts().measures();
    measures.stopProbes();
    // its next check would read a closed store
    measures.closeOverSaturationStop(-1);
    measures.closeLiveFigures(null);
    run.parts().setup().client().close();
    run.parts().requests().store().close();
    run.recordLog().ifPresent(RecordLog::close);
    LlmRun.clear(run);
  }

  /** Makes sure a run never reported by its simulation is written when the JVM exits. */
  static void writeForgottenAtExit() {
    installExitHook();
  }

  /**
   * @param failBuild   a result that could not be written fails the build (exit status 3)
   * @param setsStatus  the run's verdict is the JVM's exit status
   */
  private static ReportOutcome writeRun(LlmComponents run, Path runFolder, boolean failBuild,
      boolean setsStatus) {
    RunParts parts = run.parts();
    RunMeasures measures = parts.measures();
    RecordStore store = parts.requests().store();
    LlmProtocol protocol = parts.setup().protocol();
    // the rule the goodput rows followed during the run
    OutputTokens tokenCounter = parts.setup().outputTokens();
    try {
      ResultOptions options = protocol.results();
      ResultOptions quiet = options.toBuilder().printSummary(false).build();
      long start = parts.benchmarkStartNanos();
      SelfCheckReport selfCheck = measures.stopSelfCheck();
      RunInfo info = parts.runInfo();
      if (selfCheck != null) {
        // graded against the run's own TTFT and ITL; warnings only for grades worse than good
        selfCheck = selfCheck.against(SelfCheckReport.RunFigures.of(store.snapshot()));
        info = info.toBuilder().extra(SELF_CHECK_KEY, selfCheck.toJson()).build();
        selfCheck.warnings().forEach(w -> LOG.warn("client self-check: {}", w));
      }
      // every request is in: the live figures' last export, with the self-check's grade
      measures.closeLiveFigures(selfCheck == null ? null : selfCheck.grade().label());
      Map<String, Object> stopped = measures.closeOverSaturationStop(start);
      if (stopped != null) {
        info = info.toBuilder().extra(OverSaturation.STOP_EXTRA, stopped).build();
      }
      ProbeRequests.Outcome probes = measures.stopProbes();
      if (probes != null) {
        info = info.toBuilder().extra(ProbeReport.KEY, ProbeReport.json(probes.ratePerSecond(),
            probes.sent(), probes.unfinished(), probes.records(), options.metricPercentiles()))
            .build();
      }
      ServerComplianceReport compliance = parts.requests().compliance().report(start);
      info = info.toBuilder().extra(ServerComplianceReport.KEY, compliance.toJson()).build();
      compliance.warnings().forEach(w -> LOG.warn("server compliance: {}", w));
      Optional<ServedModels.Check> models = run.modelCheck();
      if (models.isPresent()) {
        info = info.toBuilder().extra(MODEL_CHECK_KEY, modelCheckJson(models.get())).build();
      }
      Optional<SpecDecodeStats> specDecode = run.specDecodeStats();
      if (specDecode.isPresent()) {
        RunInfo.Builder withSpec = info.toBuilder();
        for (Map.Entry<String, Object> e : specDecode.get().toJson().entrySet()) {
          withSpec = withSpec.extra(e.getKey(), e.getValue());
        }
        info = withSpec.build();
      }
      Cancellation cancellation = protocol.cancellation();
      if (cancellation.cancels()) {
        info = info.toBuilder().extra("cancellation", cancellationSettings(cancellation)).build();
      }
      List<ServerSeries> servers = measures.stopServerMetrics();
      if (!servers.isEmpty()) {
        ServerSeries server = servers.get(0);
        long origin = start >= 0 ? start : firstSampleNanos(server);
        info = info.toBuilder().extra(ServerSeries.KEY, server.toJson(origin)).build();
        if (servers.size() > 1) {
          // replicas: the first's series stay where they always were, every one's beside them
          info = info.toBuilder().extra(ServerSeries.PER_URL_KEY,
              servers.stream().map(s -> (Object) s.toJson(origin)).toList()).build();
        }
      }
      List<GpuSeries> gpus = measures.stopGpuMetrics();
      if (gpus != null) {
        Map<String, Object> energy = GpuSeries.toJson(gpus, start >= 0 ? start
            : gpus.stream().flatMap(g -> g.samples().stream()).mapToLong(g -> g.nanos()).min()
                .orElse(0));
        info = info.toBuilder().extra(GpuSeries.KEY, energy).build();
        if (energy.get("warnings") instanceof List<?> warnings) {
          warnings.forEach(w -> LOG.warn("GPU metrics: {}", w));
        }
      }
      // One source of truth: the log's end marker holds exactly what this report is made
      // from, so Recover on the finished log writes this same JSON.
      RunSettings settings = RunSettings.of(info, options, start);
      run.recordLog().ifPresent(log -> log.finish(settings));
      ReportOutcome outcome =
          RunReporter.report(settings.withOptions(quiet), store, runFolder, tokenCounter);
      RunVerdict verdict = verdict(run, outcome, selfCheck, compliance, failBuild);
      String report = options.printSummary() && outcome.summary() != null
          ? outcome.summary() + (selfCheck == null ? "" : selfCheck.consoleText())
              + compliance.consoleText()
              + (outcome.htmlReport() == null ? ""
                  : "LLM report: " + outcome.htmlReport().toAbsolutePath().toUri() + "\n")
          : "";
      printAtExit(report + verdict.line() + "\n");
      if (setsStatus) {
        PENDING_STATUS.set(verdict.exitStatus());
      }
      return outcome.ok() || !failBuild ? outcome : failBuildAtExit(outcome);
    } catch (RuntimeException e) {
      LOG.error("writing the results failed: {}", e.toString(), e);
      ReportOutcome failed = ReportAccess.failed(e.toString());
      return failBuild ? failBuildAtExit(failed) : failed;
    } finally {
      measures.closeLiveFigures(null); // when writing failed before it: no thread left
      tokenCounter.close();
      run.recordLog().ifPresent(RecordLog::close);
      parts.setup().client().close();
      store.close();
      LlmRun.clear(run);
    }
  }

  /** The cancel settings as the result JSON's {@code cancellation} object starts. */
  private static Map<String, Object> cancellationSettings(Cancellation c) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("fraction", c.fraction());
    out.put("after_tokens", c.after().chunks() > 0 ? c.after().chunks() : null);
    out.put("after_ms", c.after().millis() >= 0 ? c.after().millis() : null);
    out.put("seed", c.seed());
    return out;
  }

  /** The run's one verdict (see {@link RunVerdict}) from what was just reported. */
  private static RunVerdict verdict(LlmComponents run, ReportOutcome outcome,
      SelfCheckReport selfCheck, ServerComplianceReport compliance, boolean failBuild) {
    long succeeded;
    long total;
    if (ReportAccess.metrics(outcome) != null) {
      succeeded = ReportAccess.metrics(outcome).completed();
      total = succeeded + ReportAccess.metrics(outcome).failed();
    } else {
      // the metrics could not be computed: count the records themselves
      RecordStore.Snapshot records = run.parts().requests().store().snapshot();
      total = records.size();
      long ok = 0;
      for (int i = 0; i < total; i++) {
        ok += records.record(i).success() ? 1 : 0;
      }
      succeeded = ok;
    }
    boolean written = outcome.ok() || !failBuild
        || !Boolean.parseBoolean(System.getProperty(FAIL_ON_RESULT_ERROR_PROPERTY, "true"));
    RunVerdict.Outcome result = !written ? RunVerdict.Outcome.RESULTS_NOT_WRITTEN
        : succeeded == 0 ? RunVerdict.Outcome.NO_REQUEST_SUCCEEDED
        : compliance.stoppedEarly() ? RunVerdict.Outcome.STOPPED_NONCOMPLIANT
        : RunVerdict.Outcome.OK;
    String model = run.modelCheck().map(ServedModels.Check::verdict).orElse("not checked");
    return new RunVerdict(result, succeeded, total,
        selfCheck == null ? "not measured" : selfCheckText(selfCheck), complianceText(compliance),
        model, run.parts().setup().protocol().results().exitZero());
  }

  /** The grade, and for a grade worse than good, why (the amount against the figure, the cause). */
  private static String selfCheckText(SelfCheckReport selfCheck) {
    SelfCheckReport.Grade grade = selfCheck.grade();
    return grade == SelfCheckReport.Grade.FAIR || grade == SelfCheckReport.Grade.DISTORTED
        ? grade.label() + " (" + selfCheck.reason() + ")" : grade.label();
  }

  /** {@code ok}, or each failed check with its count, e.g. {@code output_over_max_tokens 5/5}. */
  private static String complianceText(ServerComplianceReport compliance) {
    List<String> failed = new ArrayList<>();
    for (ServerCompliance.Check check : ServerCompliance.Check.values()) {
      if (compliance.violations(check) > 0) {
        failed.add(check.key + " " + compliance.violations(check) + "/"
            + compliance.checked(check));
      }
    }
    return failed.isEmpty() ? "ok" : String.join(", ", failed);
  }

  /** The result JSON's {@code model_check}: the model, whether it was listed, and why not. */
  private static Map<String, Object> modelCheckJson(ServedModels.Check check) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("model", check.model());
    json.put("listed", check.listed() == null || check.model() == null ? null : check.served());
    json.put("models_listed", check.listed() == null ? null : List.copyOf(check.listed()));
    json.put("not_checked_because", check.problem());
    return json;
  }

  private static long firstSampleNanos(ServerSeries server) {
    return server.samples().isEmpty() ? 0 : server.samples().get(0).nanos();
  }

  /**
   * Gatling prints its own summary and the assertion results after {@code after()}, while it
   * generates the HTML report; vLLM's summary is printed once all of that is done: at exit,
   * or when the next run starts in the same JVM, whichever comes first.
   */
  private static void printAtExit(String summary) {
    installExitHook();
    printPendingSummary();
    PENDING_SUMMARY.set(summary);
  }

  /**
   * Throwing from {@code after()} would fail the build but lose Gatling's HTML report, and
   * nothing of ours runs after the report: so the exit status is changed at exit, where the
   * report is done. A shutdown hook cannot ask for a status, only halt with one.
   */
  private static ReportOutcome failBuildAtExit(ReportOutcome outcome) {
    if (!Boolean.parseBoolean(System.getProperty(FAIL_ON_RESULT_ERROR_PROPERTY, "true"))) {
      LOG.error("the benchmark result was not written ({}); -D{}=false keeps the build green",
          outcome.error(), FAIL_ON_RESULT_ERROR_PROPERTY);
      return outcome;
    }
    RESULTS_FAILURE.compareAndSet(null, outcome.error());
    installExitHook();
    LOG.error("the benchmark result was not written ({}): the JVM will exit with status {} "
        + "once Gatling is done (-D{}=false to keep the exit status)", outcome.error(),
        RESULTS_FAILED_STATUS, FAIL_ON_RESULT_ERROR_PROPERTY);
    return outcome;
  }

  private static void installExitHook() {
    if (EXIT_HOOK_INSTALLED.compareAndSet(false, true)) {
      Runtime.getRuntime().addShutdownHook(new Thread(RunResults::atExit, "gatling-llm-exit"));
    }
  }

  private static void atExit() {
    LlmRun.takeUnreported()
        .ifPresent(run -> writeForgotten(run, true));
    printPendingSummary();
    String failure = RESULTS_FAILURE.get();
    if (failure != null) {
      System.err.println("gatling-llm: the benchmark result was not written (" + failure
          + "): exit status " + RESULTS_FAILED_STATUS);
      System.err.flush();
      System.out.flush();
      Runtime.getRuntime().halt(RESULTS_FAILED_STATUS);
    }
    int status = PENDING_STATUS.get();
    if (status != 0) {
      System.err.flush();
      System.out.flush();
      // a shutdown hook cannot choose the status System.exit was given, only halt with its own
      Runtime.getRuntime().halt(status);
    }
  }

  /**
   * For whoever ran Gatling in this JVM and goes on (the launcher, a test harness): prints the
   * run's summary and verdict now, and hands over the exit status its verdict asks for, which
   * the JVM's exit then no longer imposes.
   *
   * @return the verdict's exit status; 0 when it asks for none
   */
  public static int takeExitStatus() {
    printPendingSummary();
    String failure = RESULTS_FAILURE.getAndSet(null);
    int status = PENDING_STATUS.getAndSet(0);
    return failure != null ? RESULTS_FAILED_STATUS : status;
  }

  /**
   * For a harness that runs several simulations in one JVM and reads what each one prints:
   * settles the run before, now: writes its results if its simulation did not (as the next
   * run's start would), prints its pending summary and verdict, and drops the exit status it
   * asked for (a harness reads each run's status through {@link #takeExitStatus()}). After
   * this, whatever is printed belongs to the runs that start later.
   */
  public static void settlePreviousRun() {
    LlmRun.takeUnreported().ifPresent(run -> writeForgotten(run, false));
    printPendingSummary();
    PENDING_STATUS.set(0);
    RESULTS_FAILURE.set(null);
  }

  /** Prints the summary of the previous run if it is still waiting for its turn. */
  static void printPendingSummary() {
    String pending = PENDING_SUMMARY.getAndSet(null);
    if (pending != null) {
      System.out.print(pending);
      System.out.flush();
    }
  }
}
