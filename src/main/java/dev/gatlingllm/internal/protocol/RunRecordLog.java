package dev.gatlingllm.internal.protocol;

import dev.gatlingllm.options.ResultOptions;
import dev.gatlingllm.internal.report.RecordLog;
import dev.gatlingllm.internal.report.RunSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a run's record log goes and what it is told: the run's own folder (see
 * {@link GatlingRunFolder}), else {@value #FALLBACK_FOLDER}{@code /<yyyyMMddHHmmssSSS>/}. Its
 * settings during the run are the run's current ones, dated when the run started; the normal
 * report writes the final ones into its end marker.
 */
final class RunRecordLog {

  /** Where the log goes when no Gatling run folder is found (relative to the working dir). */
  static final String FALLBACK_FOLDER = "target/gatling-llm";

  private static final Logger LOG = LoggerFactory.getLogger(RunRecordLog.class);
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS", Locale.ROOT);

  private RunRecordLog() {}

  /**
   * Opens the log of a run in {@code runFolder} (null when not known); null (after an error
   * in the log) when it cannot be.
   */
  static RecordLog open(Path runFolder, ResultOptions options, RunParts run) {
    LocalDateTime started = LocalDateTime.now();
    Path folder = runFolder;
    if (folder == null) {
      folder = Paths.get(FALLBACK_FOLDER, STAMP.format(started));
      LOG.warn("Gatling run folder not found (set -D{}=<results folder>): the record log goes "
          + "to {}", RunResults.RESULTS_FOLDER_PROPERTY, folder);
    }
    try {
      RecordLog log = RecordLog.create(folder,
          () -> new RunSettings(run.runInfo(), options, startOf(run), started));
      LOG.info("recording every request to {}", log.file());
      return log;
    } catch (IOException | RuntimeException e) {
      LOG.error("cannot create the record log in {}: {}; the run goes on, but a crash would lose "
          + "its results", folder, e.toString());
      return null;
    }
  }

  private static OptionalLong startOf(RunParts run) {
    long start = run.benchmarkStartNanos();
    return start < 0 ? OptionalLong.empty() : OptionalLong.of(start);
  }
}
