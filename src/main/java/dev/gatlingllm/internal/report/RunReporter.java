package dev.gatlingllm.internal.report;

import dev.gatlingllm.internal.metrics.BenchmarkMetrics;
import dev.gatlingllm.internal.metrics.Cancels;
import dev.gatlingllm.internal.metrics.ClassFigures;
import dev.gatlingllm.internal.metrics.MetricsCalculator;
import dev.gatlingllm.internal.metrics.OverSaturation;
import dev.gatlingllm.internal.metrics.RecordSource;
import dev.gatlingllm.internal.metrics.RecordStore;
import dev.gatlingllm.internal.metrics.RunDuration;
import dev.gatlingllm.internal.metrics.TaskType;
import dev.gatlingllm.internal.metrics.TurnFigures;
import dev.gatlingllm.internal.metrics.SpecDecodeStats;
import dev.gatlingllm.internal.metrics.UrlFigures;
import dev.gatlingllm.internal.options.ResultOptionsAccess;
import dev.gatlingllm.options.ResultOptions;
import dev.gatlingllm.report.Recover;
import dev.gatlingllm.report.ReportOutcome;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.ToIntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The after-run entry point: computes vLLM's metrics from the recorded requests, writes the
 * result JSON (and the pytorch file when asked) and prints the console summary. Meant for
 * {@code Simulation.after()}, where an exception would suppress Gatling's HTML report, so
 * it never throws: failures are logged and returned in the {@link ReportOutcome}. Through
 * {@code LlmDsl.writeResults} a failed outcome then fails the build at JVM exit.
 *
 * <pre>{@code
 * @Override
 * public void after() {
 *   ReportOutcome out = RunReporter.report(run, store, options, runFolder,
 *       tokenizer::count, benchmarkStartNanos);
 * }
 * }</pre>
 */
public final class RunReporter {

  private static final Logger LOG = LoggerFactory.getLogger(RunReporter.class);
  private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

  private RunReporter() {}

  /**
   * Reports a run whose start was captured.
   *
   * @param run                 what was run
   * @param store               the run's records (not closed here)
   * @param options             how to report
   * @param runFolder           default result directory (the Gatling run folder); null = the
   *                            working directory
   * @param tokenCounter        counts the tokens of a generated text without special tokens,
   *                            for responses without usage; null = count 1 (as vLLM without
   *                            a tokenizer)
   * @param benchmarkStartNanos {@link System#nanoTime()} just before the first request was
   *                            dispatched: the duration runs from here to the last end
   */
  public static ReportOutcome report(RunInfo run, RecordStore store, ResultOptions options,
      Path runFolder, ToIntFunction<String> tokenCounter, long benchmarkStartNanos) {
    return report(run, store, options, runFolder, tokenCounter,
        OptionalLong.of(benchmarkStartNanos), Clock.systemDefaultZone(), System.out);
  }

  /**
   * Reports a run whose start was not captured: the duration runs from the earliest
   * scheduled arrival to the last end.
   */
  public static ReportOutcome report(RunInfo run, RecordStore store, ResultOptions options,
      Path runFolder, ToIntFunction<String> tokenCounter) {
    return report(run, store, options, runFolder, tokenCounter, OptionalLong.empty(),
        Clock.systemDefaultZone(), System.out);
  }

  /**
   * Reports a run from its {@link RunSettings}, dated by their report time: the after-run path
   * of a simulation and {@link Recover} both report this way, the first from the store, the
   * second from the record log the store was mirrored to.
   */
  public static ReportOutcome report(RunSettings settings, RecordStore store, Path runFolder,
      ToIntFunction<String> tokenCounter) {
    return report(settings.run(), store, settings.options(), runFolder, tokenCounter,
        settings.benchmarkStartNanos(), clockAt(settings), System.out);
  }

  public static ReportOutcome report(RunSettings settings, RecordSource records, Path runFolder,
      ToIntFunction<String> tokenCounter, PrintStream console) {
    return report(settings.run(), records, settings.options(), runFolder, tokenCounter,
        settings.benchmarkStartNanos(), clockAt(settings), console);
  }

  private static Clock clockAt(RunSettings settings) {
    ZoneId zone = ZoneId.systemDefault();
    return Clock.fixed(settings.reportTime().atZone(zone).toInstant(), zone);
  }

  static ReportOutcome report(RunInfo run, RecordStore store, ResultOptions options,
      Path runFolder, ToIntFunction<String> tokenCounter, OptionalLong benchmarkStartNanos,
      Clock clock, PrintStream console) {
    RecordSource requests;
    try {
      requests = store.snapshot();
    } catch (Throwable t) {
      return failed("Could not read the recorded requests", t, null, null, null);
    }
    return report(run, requests, options, runFolder, tokenCounter, benchmarkStartNanos, clock,
        console);
  }

  static ReportOutcome report(RunInfo run, RecordSource recorded, ResultOptions options,
      Path runFolder, ToIntFunction<String> tokenCounter, OptionalLong benchmarkStartNanos,
      Clock clock, PrintStream console) {
    Computed computed;
    try {
      computed = compute(run, recorded, options, tokenCounter, benchmarkStartNanos);
    } catch (Throwable t) {
      return failed("Could not compute the benchmark metrics", t, null, null, null);
    }
    // the analysis took the over-saturation stop's account: over_saturation holds it
    run = RunAnalysis.withoutStop(run);
    // the GPUs' energy per output token, once the tokens are counted
    run = EnergyReport.withTokens(run, computed.metrics());
    String summary;
    try {
      summary = ConsoleSummary.render(run, options, computed.metrics(),
          errors(computed.requests()), run.extras().containsKey(PhaseReport.CANCEL_KEY)
              ? Cancels.count(computed.requests()) : -1);
      if (computed.metrics().taskType() == TaskType.GENERATION) {
        summary += TurnReport.console(TurnFigures.of(computed.requests(), computed.metrics(),
            options.metricPercentiles()));
        summary += ClassReport.console(ClassFigures.of(computed.requests(), computed.metrics(),
            options.metricPercentiles()));
      }
      summary += UrlReport.console(computed.perUrl());
      summary += ConsoleSummary.analysis(computed.analysis(),
          ResultOptionsAccess.percentileMetrics(options, run.taskType()));
      summary += SpecDecodeStats.console(run.extras());
      summary += ProbeReport.console(run.extras().get(ProbeReport.KEY));
      summary += EnergyReport.console(run.extras().get(EnergyReport.KEY));
      if (options.printSummary()) {
        console.print(summary);
        console.flush();
      }
    } catch (Throwable t) {
      return failed("Could not render the console summary", t, computed.metrics(), null, null);
    }
    String date = LocalDateTime.now(clock).format(DATE);
    ReportOutcome outcome = !options.saveResult() && !options.append()
        ? ReportAccess.outcome(computed.metrics(), null, null, summary, null)
        : writeFiles(run, options, computed, runFolder, date, summary);
    if (options.plotTimeline() && ReportAccess.metrics(outcome) != null) {
      outcome = TimelinePlot.writeBeside(outcome, resultPath(run, options, runFolder, date),
          computed.requests(), options, console);
    }
    // every run with a folder gets its report, saved result JSON or not; without a folder
    // (saveResult(false) outside a Gatling run) nothing is written
    if (!options.htmlReport() || ReportAccess.metrics(outcome) == null
        || (runFolder == null && !options.saveResult() && !options.append())) {
      return outcome;
    }
    Path report = writeHtmlReport(run, options, computed, runFolder, outcome.resultFile(), date);
    if (report != null && options.printSummary()) {
      console.println("LLM report: " + report.toAbsolutePath().toUri());
      console.flush();
    }
    return outcome.withHtmlReport(report);
  }

  /**
   * {@code llm-report.html} in the run folder (else beside the result file, else the working
   * directory), from the same figures as the result JSON. A report that cannot be written is
   * logged and left out: the result JSON is what the build depends on.
   */
  private static Path writeHtmlReport(RunInfo run, ResultOptions options, Computed computed,
      Path runFolder, Path resultFile, String date) {
    Path dir = runFolder != null ? runFolder
        : resultFile != null && resultFile.toAbsolutePath().getParent() != null
            ? resultFile.toAbsolutePath().getParent() : Path.of("");
    Path file = dir.resolve(LlmReport.FILE_NAME);
    try {
      LinkedHashMap<String, Object> doc = ResultDocument.build(run,
          options.toBuilder().detailed(false).build(), computed.metrics(), computed.requests(),
          computed.origin(), date, computed.analysis(), computed.perUrl());
      LlmReport.write(file, doc, computed.requests(), computed.metrics(), computed.origin(),
          options);
      LOG.info("Wrote the LLM report to {}", file);
      return file;
    } catch (Throwable t) {
      LOG.error("Could not write the LLM report {}: {}", file, t.toString(), t);
      return null;
    }
  }

  /**
   * The requests in start order, their metrics, the origin of their start times, and their
   * steady state and over-saturation verdict.
   */
  private record Computed(RecordSource requests, BenchmarkMetrics metrics, long origin,
      RunAnalysis analysis, List<UrlFigures> perUrl) {}

  private static Computed compute(RunInfo run, RecordSource recorded, ResultOptions options,
      ToIntFunction<String> tokenCounter, OptionalLong benchmarkStartNanos) {
    RecordSource requests = recorded.inStartOrder();
    long origin;
    double duration;
    if (benchmarkStartNanos.isPresent()) {
      origin = benchmarkStartNanos.getAsLong();
      duration = RunDuration.fromStart(origin, requests);
    } else {
      origin = requests.size() == 0 ? 0 : RunDuration.firstScheduledNanos(requests);
      duration = RunDuration.fromRecords(requests);
    }
    MetricsCalculator calculator = MetricsCalculator.builder()
        .taskType(run.taskType())
        .percentiles(options.metricPercentiles())
        .goodput(ResultOptionsAccess.goodput(options))
        .tokenCounter(tokenCounter)
        .build();
    BenchmarkMetrics metrics = calculator.compute(requests, duration, origin);
    // several replicas: each URL's share by the same calculator, over the same duration
    List<String> urls = UrlReport.urls(run);
    List<UrlFigures> perUrl = urls.isEmpty() ? List.of()
        : UrlFigures.of(calculator, requests, urls, duration, origin);
    RunAnalysis analysis = RunAnalysis.of(run, requests, metrics, origin,
        options.metricPercentiles(), ResultOptionsAccess.steadyState(options),
        OverSaturation.Options.DEFAULTS);
    return new Computed(requests, metrics, origin, analysis, perUrl);
  }

  /** The result JSON, and the pytorch file when asked. */
  private static ReportOutcome writeFiles(RunInfo run, ResultOptions options, Computed computed,
      Path runFolder, String date, String summary) {
    Path resultFile = null;
    boolean written = false;
    try {
      LinkedHashMap<String, Object> doc = ResultDocument.build(run, options, computed.metrics(),
          computed.requests(), computed.origin(), date, computed.analysis(), computed.perUrl());
      resultFile = resultPath(run, options, runFolder, date);
      writeResult(resultFile, doc, options.append());
      written = true;
      LOG.info("Wrote the benchmark result to {}", resultFile);
      Path pytorchFile = null;
      if (options.pytorch()) {
        pytorchFile = writePytorch(resultFile, doc, run, options);
      }
      return ReportAccess.outcome(computed.metrics(), resultFile, pytorchFile, summary, null);
    } catch (Throwable t) {
      String what = written ? "Could not write the pytorch-format file beside " + resultFile
          : "Could not write the benchmark result" + (resultFile == null ? "" : " to " + resultFile);
      return failed(what, t, computed.metrics(), written ? resultFile : null, summary);
    }
  }

  /** Where the result JSON goes (or would go): vLLM's file name in the result folder. */
  private static Path resultPath(RunInfo run, ResultOptions options, Path runFolder,
      String date) {
    String name = options.resultFilename() != null ? options.resultFilename()
        : ResultFileName.defaultName(run, options.label(), date);
    Path dir = options.resultDir() != null ? options.resultDir()
        : runFolder != null ? runFolder : Path.of("");
    return dir.resolve(name);
  }

  private static void writeResult(Path file, Object doc, boolean append) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    boolean needsNewline = append && Files.exists(file) && Files.size(file) > 0;
    StandardOpenOption mode = append ? StandardOpenOption.APPEND
        : StandardOpenOption.TRUNCATE_EXISTING;
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8,
        StandardOpenOption.CREATE, StandardOpenOption.WRITE, mode)) {
      if (needsNewline) {
        out.write('\n');
      }
      PyJson.write(out, doc, false);
    }
  }

  private static Path writePytorch(Path resultFile, LinkedHashMap<String, Object> doc,
      RunInfo run, ResultOptions options) throws IOException {
    List<Object> records =
        PytorchFormat.records(doc, PytorchFormat.args(run, options), run.modelId());
    if (records.isEmpty()) {
      LOG.info("No latency metric to export in the pytorch format; no pytorch file written");
      return null;
    }
    Path file = resultFile.resolveSibling(
        ResultFileName.pytorchName(resultFile.getFileName().toString()));
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      PyJson.write(out, records, true);
    }
    LOG.info("Wrote the pytorch-format benchmark result to {}", file);
    return file;
  }

  /** Errors of failed requests in request order, as many as the summary shows. */
  private static List<String> errors(RecordSource requests) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < requests.size() && out.size() < ConsoleSummary.MAX_ERRORS; i++) {
      if (!requests.record(i).success() && !requests.record(i).cancelled()) {
        out.add(ResultDocument.error(requests.record(i)));
      }
    }
    return out;
  }

  private static ReportOutcome failed(String what, Throwable t, BenchmarkMetrics metrics,
      Path resultFile, String summary) {
    LOG.error("{}: {}", what, t.toString(), t);
    return ReportAccess.outcome(metrics, resultFile, null, summary, what + ": " + t);
  }
}
