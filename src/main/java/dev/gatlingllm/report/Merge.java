package dev.gatlingllm.report;

import dev.gatlingllm.internal.metrics.RecordSource;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.report.MergeCommand;
import dev.gatlingllm.internal.report.RecordLog;
import dev.gatlingllm.internal.report.RecordLogReader;
import dev.gatlingllm.internal.report.ResultFileName;
import dev.gatlingllm.internal.report.RunInfo;
import dev.gatlingllm.internal.report.RunReporter;
import dev.gatlingllm.internal.report.RunSettings;
import dev.gatlingllm.internal.scale.InjectorFacts;
import dev.gatlingllm.internal.scale.InjectorShare;
import dev.gatlingllm.internal.scale.ScaleOut;
import dev.gatlingllm.internal.tool.Tool;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.ToIntFunction;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Merges the record logs of the N injectors of one scaled-out benchmark
 * ({@code -Dllm.injector=K/N}) into the result of the whole benchmark: the vLLM result JSON,
 * the console summary and the LLM report, computed exactly as one run's are, over the union
 * of every injector's per-request records. Percentiles are taken over all requests (never
 * averaged), throughput over the union window, peaks over the merged timeline: each
 * injector's {@code nanoTime} stamps are placed on the reference clock with the anchor and
 * clock offset it recorded.
 *
 * <pre>
 * ./mvnw -q compile exec:java -Dexec.mainClass=dev.gatlingllm.report.Merge \
 *     -Dexec.args="--out-dir merged results/injector-0 results/injector-1 results/injector-2"
 * </pre>
 *
 * Arguments are record logs or folders (searched for {@code llm-records*.bin}). Options:
 * {@code --out-dir <folder>} (default {@code merged}), {@code --tokenizer <id>} (as
 * {@link Recover}), {@code --allow-missing} (merge although some injector left no log; the
 * result is then partial). Logs of different benchmarks (their settings hashes differ), of
 * another injector count, or two logs of one injector are refused. An injector whose log has
 * no end marker died: it is reported, and its finished requests are kept; the result is
 * marked {@code "partial": true}.
 */
public final class Merge {

  /** Result JSON key: what each injector contributed. */
  public static final String INJECTORS_KEY = "injectors";

  /** The client self-check's key ({@code protocol.RunResults}; report does not depend on it). */
  static final String SELF_CHECK_KEY = "client_self_check";

  private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

  private Merge() {}

  /**
   * One injector's contribution.
   *
   * @param index    its index among the injectors, from 0 (what it recorded about itself; its
   *                 clock offset is in the merged result's {@code injectors})
   * @param log      its record log
   * @param records  requests it finished
   * @param complete whether its log has its end marker (it did not die)
   */
  public record Injector(int index, Path log, int records, boolean complete) {}

  /**
   * What a merge produced.
   *
   * @param outcome   the report: metrics, result file, LLM report, summary
   * @param injectors the injectors merged, by index
   * @param missing   indices without a log (only with {@code allowMissing})
   * @param partial   whether an injector died or is missing
   */
  public record Merged(ReportOutcome outcome, List<Injector> injectors, List<Integer> missing,
      boolean partial) {}

  public static void main(String[] args) {
    int status = Tool.main(new MergeCommand(), args);
    if (status != 0) {
      System.exit(status);
    }
  }

  /**
   * Merges the logs found in {@code inputs} into {@code outDir}.
   *
   * @param tokenCounter counts output tokens of responses without usage; null = the run's
   *                     tokenizer, loaded when first needed
   * @throws IllegalArgumentException when the inputs cannot be merged (with the reason)
   * @throws IllegalStateException    when the result file exists already
   */
  public static Merged merge(List<Path> inputs, Path outDir, boolean allowMissing,
      ToIntFunction<String> tokenCounter, PrintStream console) {
    List<Path> logs = findLogs(inputs);
    TreeMap<Integer, Read> byIndex = new TreeMap<>();
    for (Path log : logs) {
      Read read = Read.of(log);
      Read other = byIndex.put(read.facts.share().index(), read);
      if (other != null) {
        throw new IllegalArgumentException("two record logs of injector "
            + read.facts.share() + ": " + other.log + " and " + log
            + "; give each injector's log once");
      }
    }
    checkSameBenchmark(byIndex);
    int count = byIndex.firstEntry().getValue().facts.share().count();
    List<Integer> missing = new ArrayList<>();
    for (int k = 0; k < count; k++) {
      if (!byIndex.containsKey(k)) {
        missing.add(k);
      }
    }
    if (!missing.isEmpty() && !allowMissing) {
      throw new IllegalArgumentException("no record log of injector"
          + (missing.size() > 1 ? "s " : " ") + missing.stream().map(k -> k + "/" + count)
              .collect(Collectors.joining(", ")) + " among " + logs.size() + " log(s) of a "
          + count + "-injector benchmark (it never started, or its log is elsewhere); "
          + "--allow-missing merges the others as a partial result");
    }

    List<Injector> injectors = new ArrayList<>();
    List<RequestRecord> records = new ArrayList<>();
    long base = timelineBase(byIndex.values());
    OptionalLong start = OptionalLong.empty();
    boolean partial = !missing.isEmpty();
    LocalDateTime reportTime = LocalDateTime.MIN;
    List<Map<String, Object>> injectorsJson = new ArrayList<>();
    for (Read read : byIndex.values()) {
      long shift = read.facts.toReferenceEpoch() - base;
      for (RequestRecord r : read.contents.records()) {
        records.add(shifted(r, shift));
      }
      OptionalLong own = read.contents.settings().benchmarkStartNanos();
      if (own.isPresent()) {
        long s = own.getAsLong() + shift;
        start = OptionalLong.of(start.isPresent() ? Math.min(start.getAsLong(), s) : s);
      }
      boolean complete = read.contents.complete();
      partial |= !complete;
      if (read.contents.settings().reportTime().isAfter(reportTime)) {
        reportTime = read.contents.settings().reportTime();
      }
      Injector injector = new Injector(read.facts.share().index(), read.log,
          read.contents.records().size(), complete);
      injectors.add(injector);
      injectorsJson.add(injectorJson(injector, read.facts, read.contents.settings().run()));
      console.println(describe(injector, read.facts));
    }
    for (int k : missing) {
      console.println("gatling-llm: injector " + k + "/" + count + ": MISSING: no record log; "
          + "its requests are not in the result");
    }

    RunSettings first = byIndex.firstEntry().getValue().contents.settings();
    RunInfo.Builder run = first.run().toBuilder().withoutExtra(ScaleOut.INJECTOR_KEY)
        .withoutExtra(SELF_CHECK_KEY).extra(INJECTORS_KEY, injectorsJson);
    if (partial) {
      run = run.extra(Recover.PARTIAL_KEY, true)
          .extra(Recover.RECOVERED_RECORDS_KEY, records.size());
    }
    RunSettings settings = new RunSettings(run.build(), first.options(), start, reportTime);
    Path dir = outDir.toAbsolutePath();
    Path target = dir.resolve(settings.options().resultFilename() != null
        ? settings.options().resultFilename()
        : ResultFileName.defaultName(settings.run(), settings.options().label(),
            settings.reportTime().format(DATE)));
    if (Files.exists(target)) {
      throw new IllegalStateException(target + " exists already: give another --out-dir");
    }
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + dir + ": " + e, e);
    }
    settings = settings.withOptions(settings.options().toBuilder().resultDir(dir)
        .resultFilename(target.getFileName().toString()).saveResult(true).append(false)
        .printSummary(false).build());
    try (Recover.LazyTokenizer lazy = new Recover.LazyTokenizer(settings.run().tokenizerId())) {
      ReportOutcome outcome = RunReporter.report(settings, RecordSource.of(records), dir,
          tokenCounter != null ? tokenCounter : lazy, console);
      if (outcome.summary() != null) {
        console.print(partial ? outcome.summary() + "PARTIAL: " + records.size()
            + " requests merged; requests of missing injectors, and those in flight when an "
            + "injector died, are not in it\n" : outcome.summary());
        console.flush();
      }
      return new Merged(outcome, List.copyOf(injectors), List.copyOf(missing), partial);
    }
  }

  /** A log with its injector facts. */
  private record Read(Path log, RecordLogReader.Contents contents, InjectorFacts facts) {
    static Read of(Path log) {
      RecordLogReader.Contents contents = RecordLogReader.read(log);
      Object facts = contents.settings().run().extras().get(ScaleOut.INJECTOR_KEY);
      if (!(facts instanceof Map<?, ?> map)) {
        throw new IllegalArgumentException(log + " was not written by an injector of a "
            + "scaled-out benchmark (its settings have no '" + ScaleOut.INJECTOR_KEY + "'): run "
            + "each injector with -D" + ScaleOut.INJECTOR_PROPERTY + "=K/N (or in an Indexed "
            + "Job); a single run's log is reported by Recover");
      }
      return new Read(log, contents, InjectorFacts.fromJson(map));
    }
  }

  private static void checkSameBenchmark(Map<Integer, Read> byIndex) {
    Map<String, List<Read>> byHash = byIndex.values().stream().collect(Collectors.groupingBy(
        r -> r.facts.settingsHash() + "/" + r.facts.share().count(), LinkedHashMap::new,
        Collectors.toList()));
    if (byHash.size() > 1) {
      throw new IllegalArgumentException("the record logs come from different benchmarks (their "
          + "settings hashes or injector counts differ): " + byIndex.values().stream()
              .map(r -> r.log + " (injector " + r.facts.share() + ", settings "
                  + abbreviate(r.facts.settingsHash()) + ")")
              .collect(Collectors.joining(", "))
          + "; merge the logs of one benchmark only (same flags, dataset, seed, start and "
          + "injector count)");
    }
  }

  private static String abbreviate(String hash) {
    return hash == null ? "none" : hash.substring(0, Math.min(12, hash.length()));
  }

  /**
   * The reference-clock time that becomes 0 on the merged timeline: the earliest benchmark
   * start (or, for a log that never recorded one, its earliest scheduled request).
   */
  private static long timelineBase(Iterable<Read> reads) {
    long base = Long.MAX_VALUE;
    for (Read read : reads) {
      long shift = read.facts.toReferenceEpoch();
      OptionalLong start = read.contents.settings().benchmarkStartNanos();
      if (start.isPresent()) {
        base = Math.min(base, start.getAsLong() + shift);
      }
      for (RequestRecord r : read.contents.records()) {
        base = Math.min(base, r.scheduledNanos() + shift);
      }
    }
    return base == Long.MAX_VALUE ? 0 : base;
  }

  /** {@code r} with its clock readings moved by {@code shift}; durations are unchanged. */
  static RequestRecord shifted(RequestRecord r, long shift) {
    return r.toBuilder().scheduledNanos(r.scheduledNanos() + shift)
        .startNanos(r.startNanos() + shift).endNanos(r.endNanos() + shift).build();
  }

  private static Map<String, Object> injectorJson(Injector injector, InjectorFacts facts,
      RunInfo run) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("index", injector.index());
    m.put("records", injector.records());
    m.put("complete", injector.complete());
    m.put("clock", facts.clock().toJson());
    Object selfCheck = run.extras().get(SELF_CHECK_KEY);
    if (selfCheck != null) {
      m.put(SELF_CHECK_KEY, selfCheck);
    }
    return m;
  }

  private static String describe(Injector injector, InjectorFacts facts) {
    InjectorShare share = facts.share();
    String clock = "clock offset " + facts.clock().describe();
    return injector.complete()
        ? "gatling-llm: injector " + share + ": " + injector.records() + " requests, " + clock
        : "gatling-llm: injector " + share + ": DIED before the end of its run (its record log "
            + injector.log() + " has no end marker): its " + injector.records()
            + " finished requests are kept, those in flight are lost; " + clock;
  }

  /** The record logs in {@code inputs}: files as given, folders searched, in path order. */
  static List<Path> findLogs(List<Path> inputs) {
    List<Path> logs = new ArrayList<>();
    for (Path input : inputs) {
      if (Files.isDirectory(input)) {
        try (Stream<Path> files = Files.walk(input)) {
          List<Path> found = files.filter(Files::isRegularFile)
              .filter(p -> p.getFileName().toString().matches("llm-records(-\\d+)?\\.bin"))
              .sorted(Comparator.naturalOrder()).toList();
          if (found.isEmpty()) {
            throw new IllegalArgumentException("no record log (" + RecordLog.FILE_NAME
                + ") under " + input);
          }
          logs.addAll(found);
        } catch (IOException e) {
          throw new UncheckedIOException("cannot search " + input + ": " + e, e);
        }
      } else if (Files.isRegularFile(input)) {
        logs.add(input);
      } else {
        throw new IllegalArgumentException("no record log or folder at " + input);
      }
    }
    return logs;
  }

}
