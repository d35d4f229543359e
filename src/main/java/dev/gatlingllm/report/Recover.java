package dev.gatlingllm.report;

import dev.gatlingllm.internal.report.RecordLog;
import dev.gatlingllm.internal.report.RecordLogReader;
import dev.gatlingllm.internal.report.RecoverCommand;
import dev.gatlingllm.internal.report.ResultFileName;
import dev.gatlingllm.internal.report.RunReporter;
import dev.gatlingllm.internal.report.RunSettings;
import dev.gatlingllm.internal.tool.Tool;
import dev.gatlingllm.tokenizer.Tokenizer;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.function.ToIntFunction;
import java.util.stream.Stream;

/**
 * Rebuilds a run's vLLM result JSON and console summary from its record log
 * ({@value RecordLog#FILE_NAME} in the Gatling run folder), for a run whose JVM died before it
 * could write them. A log without its end marker gives a <em>partial</em> result: the JSON
 * gets {@code "partial": true} and {@code "recovered_records"}, the summary says so, and the
 * result is dated by the log's last write. A finished log gives the very JSON the run wrote.
 *
 * <pre>
 * ./mvnw -q compile exec:java -Dexec.mainClass=dev.gatlingllm.report.Recover \
 *     -Dexec.args="target/gatling/mysim-20260101120000123"
 * </pre>
 *
 * The input is a run folder (as {@code Merge} takes them), whose record log is then the one
 * directly in it, or the record log itself.
 *
 * Options: {@code --out <file.json>} (default: the run's result file name, beside the log;
 * an existing file is never overwritten), {@code --tokenizer <tokenizer.json, folder or Hugging
 * Face id>} (counts output tokens of responses without usage; default: the run's tokenizer id,
 * {@code gpt2} being the shipped one).
 */
public final class Recover {

  /** Result JSON key set when the run did not finish. */
  public static final String PARTIAL_KEY = "partial";
  /** Result JSON key: how many requests a partial result was computed from. */
  public static final String RECOVERED_RECORDS_KEY = "recovered_records";

  private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

  private Recover() {}

  /**
   * What a recovery produced.
   *
   * @param outcome      the report: metrics, the result file written, the summary
   * @param partial      whether the log had no end marker (the run did not finish)
   * @param records      the requests recovered
   * @param droppedBytes bytes at the log's end that were not a whole record (a torn write)
   */
  public record Recovered(ReportOutcome outcome, boolean partial, int records,
      long droppedBytes) {}

  public static void main(String[] args) {
    int status = Tool.main(new RecoverCommand(), args);
    if (status != 0) {
      System.exit(status);
    }
  }

  /**
   * Reads the record log {@code input} (or the one in the run folder {@code input}) and
   * writes its result JSON, printing the summary to {@code console}.
   *
   * @param output       the result file; null = the run's result file name beside the log
   * @param tokenCounter counts output tokens of responses without usage; null = the run's
   *                     tokenizer, loaded when first needed
   * @throws IllegalArgumentException when the file is not a record log (of this version), or
   *                                  the folder holds none or several
   * @throws IllegalStateException    when the result file exists already
   * @throws UncheckedIOException     when the log cannot be read
   */
  public static Recovered recover(Path input, Path output, ToIntFunction<String> tokenCounter,
      PrintStream console) {
    Path recordLog = recordLogOf(input);
    RecordLogReader.Contents contents = RecordLogReader.read(recordLog);
    RunSettings settings = contents.settings();
    int count = contents.records().size();
    boolean partial = !contents.complete();
    if (partial) {
      settings = settings.at(lastWrite(recordLog)).withRun(settings.run().toBuilder()
          .extra(PARTIAL_KEY, true).extra(RECOVERED_RECORDS_KEY, count).build());
    }
    Path target = output != null ? output.toAbsolutePath() : recordLog.toAbsolutePath()
        .resolveSibling(settings.options().resultFilename() != null
            ? settings.options().resultFilename()
            : ResultFileName.defaultName(settings.run(), settings.options().label(),
                settings.reportTime().format(DATE)));
    if (Files.exists(target)) {
      throw new IllegalStateException(target + " exists already (the run's own result?): "
          + "give another file with --out");
    }
    settings = settings.withOptions(settings.options().toBuilder()
        .resultDir(target.getParent()).resultFilename(target.getFileName().toString())
        .saveResult(true).append(false).printSummary(false).build());
    if (partial) {
      console.println("gatling-llm: PARTIAL result: the run did not finish (its record log "
          + recordLog + " has no end marker); computed from the " + count
          + " requests recorded before it stopped"
          + (contents.droppedBytes() > 0 ? ", after dropping a torn last write of "
              + contents.droppedBytes() + " bytes" : ""));
    }
    try (LazyTokenizer lazy = new LazyTokenizer(settings.run().tokenizerId())) {
      ReportOutcome outcome = RunReporter.report(settings, contents.source(), null,
          tokenCounter != null ? tokenCounter : lazy, console);
      if (outcome.summary() != null) {
        console.print(partial ? outcome.summary() + "PARTIAL: " + count
            + " requests recovered; requests in flight when the run stopped are missing\n"
            : outcome.summary());
        console.flush();
      }
      return new Recovered(outcome, partial, count, contents.droppedBytes());
    }
  }

  /**
   * {@code input} itself, or for a folder the record log directly in it: {@value
   * RecordLog#FILE_NAME}, else the one {@code llm-records-<n>.bin} (a log that found the
   * name taken).
   */
  static Path recordLogOf(Path input) {
    if (!Files.isDirectory(input)) {
      return input;
    }
    Path log = input.resolve(RecordLog.FILE_NAME);
    if (Files.isRegularFile(log)) {
      return log;
    }
    List<Path> logs;
    try (Stream<Path> files = Files.list(input)) {
      logs = files.filter(p -> p.getFileName().toString().matches("llm-records-\\d+\\.bin"))
          .filter(Files::isRegularFile).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the folder " + input + ": " + e, e);
    }
    if (logs.size() == 1) {
      return logs.get(0);
    }
    if (logs.isEmpty()) {
      throw new IllegalArgumentException("no record log (" + RecordLog.FILE_NAME + ") in "
          + input + ": give the Gatling run folder of a gatling-llm run (its record log is "
          + "written there as the run goes) or the record log itself");
    }
    throw new IllegalArgumentException("several record logs in " + input + " " + logs.stream()
        .map(p -> p.getFileName().toString()).toList() + ": give the one to recover");
  }

  private static LocalDateTime lastWrite(Path file) {
    try {
      return LocalDateTime.ofInstant(Files.getLastModifiedTime(file).toInstant(),
          ZoneId.systemDefault());
    } catch (IOException e) {
      return LocalDateTime.now();
    }
  }

  public static ToIntFunction<String> counter(String tokenizer) {
    Tokenizer loaded = Tokenizer.resolve(tokenizer);
    return loaded::count;
  }

  /** The run's tokenizer, loaded only if some response needs counting. */
  static final class LazyTokenizer implements ToIntFunction<String>, AutoCloseable {
    private final String id;
    private Tokenizer tokenizer;

    LazyTokenizer(String id) {
      this.id = id;
    }

    @Override
    public int applyAsInt(String text) {
      if (tokenizer == null) {
        try {
          tokenizer = "gpt2".equals(id) ? Tokenizer.gpt2() : Tokenizer.resolve(id);
        } catch (RuntimeException e) {
          throw new IllegalStateException("some responses carried no usage, so their output "
              + "tokens must be counted with the run's tokenizer '" + id + "', which cannot be "
              + "loaded (" + e.getMessage() + "): give one with --tokenizer", e);
        }
      }
      return tokenizer.count(text);
    }

    @Override
    public void close() {
      if (tokenizer != null) {
        tokenizer.close();
      }
    }
  }

}
