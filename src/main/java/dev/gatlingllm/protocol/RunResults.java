package dev.gatlingllm.protocol;

import dev.gatlingllm.metrics.OverSaturation;
import dev.gatlingllm.options.ResultOptions;
import dev.gatlingllm.report.RecordLog;
import dev.gatlingllm.report.ReportOutcome;
import dev.gatlingllm.report.RunReporter;
import dev.gatlingllm.report.ProbeReport;
import dev.gatlingllm.report.RunInfo;
import dev.gatlingllm.report.RunSettings;
import dev.gatlingllm.selfcheck.SelfCheckReport;
import dev.gatlingllm.servermetrics.ServerSeries;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
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
  /** System property: {@code false} keeps the exit status when the results were not written. */
  public static final String FAIL_ON_RESULT_ERROR_PROPERTY = "llm.failOnResultError";
  /** The JVM's exit status when the results were not written (Gatling uses 1 and 2). */
  public static final int RESULTS_FAILED_STATUS = 3;

  private static final Logger LOG = LoggerFactory.getLogger(RunResults.class);
  private static final AtomicReference<String> PENDING_SUMMARY = new AtomicReference<>();
  private static final AtomicReference<String> RESULTS_FAILURE = new AtomicReference<>();
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
      return failBuildAtExit(new ReportOutcome(null, null, null, null, "no run"));
    }
    Path runFolder = current.get().runFolder().orElse(null);
    if (runFolder == null) {
      LOG.warn("Gatling run folder of {} not found (set -D{}=<results folder>); "
          + "writing results to the working directory", simulationClass.getSimpleName(),
          RESULTS_FOLDER_PROPERTY);
    }
    return writeRun(current.get(), runFolder, true);
  }

  /**
   * Writes the results of a run whose simulation did not call {@code LlmDsl.writeResults}
   * (it need not):
   * when the next run starts in this JVM, or at exit, into the run's own folder
   * ({@link GatlingRunFolder}). A failure is logged; it does not change the exit status,
   * since nobody asked for the file.
   */
  static void writeForgotten(LlmComponents run, boolean atExit) {
    if (run.store().size() == 0) {
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
    ReportOutcome outcome = writeRun(run, folder, false);
    if (atExit && outcome.resultFile() != null) {
      // the log's "Wrote the benchmark result" line is gone with the logging framework
      System.out.println("gatling-llm: wrote the benchmark result to " + outcome.resultFile());
      System.out.flush();
    }
  }

  /** Closes what a run holds without reporting it. */
  private static void release(LlmComponents run) {
    run.probes().ifPresent(ProbeRequests::stop);
    // its next check would read a closed store
    run.measures().closeOverSaturationStop(-1);
    run.client().close();
    run.store().close();
    run.recordLog().ifPresent(RecordLog::close);
    LlmRun.clear(run);
  }

  /** Makes sure a run never reported by its simulation is written when the JVM exits. */
  static void writeForgottenAtExit() {
    installExitHook();
  }

  private static ReportOutcome writeRun(LlmComponents run, Path runFolder, boolean failBuild) {
    // the rule the goodput rows followed during the run
    OutputTokens tokenCounter = run.outputTokens();
    try {
      ResultOptions options = run.protocol().results();
      ResultOptions quiet = options.toBuilder().printSummary(false).build();
      long start = run.benchmarkStartNanos();
      SelfCheckReport selfCheck = run.measures().stopSelfCheck();
      RunInfo info = run.runInfo();
      if (selfCheck != null) {
        info = info.toBuilder().extra(SELF_CHECK_KEY, selfCheck.toJson()).build();
        selfCheck.warnings().forEach(w -> LOG.warn("client self-check: {}", w));
      }
      Map<String, Object> stopped = run.measures().closeOverSaturationStop(start);
      if (stopped != null) {
        info = info.toBuilder().extra(OverSaturation.STOP_EXTRA, stopped).build();
      }
      ProbeRequests.Outcome probes = run.probes().map(ProbeRequests::stop).orElse(null);
      if (probes != null) {
        info = info.toBuilder().extra(ProbeReport.KEY, ProbeReport.json(probes.ratePerSecond(),
            probes.sent(), probes.unfinished(), probes.records(), options.metricPercentiles()))
            .build();
      }
      ServerComplianceReport compliance = run.compliance().report(start);
      info = info.toBuilder().extra(ServerComplianceReport.KEY, compliance.toJson()).build();
      compliance.warnings().forEach(w -> LOG.warn("server compliance: {}", w));
      ServerSeries server = run.measures().stopServerMetrics();
      if (server != null) {
        info = info.toBuilder().extra(ServerSeries.KEY,
            server.toJson(start >= 0 ? start : firstSampleNanos(server))).build();
      }
      // One source of truth: the log's end marker holds exactly what this report is made
      // from, so Recover on the finished log writes this same JSON.
      RunSettings settings = RunSettings.of(info, options, start);
      run.recordLog().ifPresent(log -> log.finish(settings));
      ReportOutcome outcome =
          RunReporter.report(settings.withOptions(quiet), run.store(), runFolder, tokenCounter);
      if (options.printSummary() && outcome.summary() != null) {
        printAtExit(outcome.summary() + (selfCheck == null ? "" : selfCheck.consoleText())
            + compliance.consoleText()
            + (outcome.htmlReport() == null ? ""
                : "LLM report: " + outcome.htmlReport().toAbsolutePath().toUri() + "\n"));
      }
      return outcome.ok() || !failBuild ? outcome : failBuildAtExit(outcome);
    } catch (RuntimeException e) {
      LOG.error("writing the results failed: {}", e.toString(), e);
      ReportOutcome failed = new ReportOutcome(null, null, null, null, e.toString());
      return failBuild ? failBuildAtExit(failed) : failed;
    } finally {
      tokenCounter.close();
      run.recordLog().ifPresent(RecordLog::close);
      run.client().close();
      run.store().close();
      LlmRun.clear(run);
    }
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
