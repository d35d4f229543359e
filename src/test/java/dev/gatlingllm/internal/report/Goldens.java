package dev.gatlingllm.internal.report;

import dev.gatlingllm.internal.metrics.MetricFixtures;
import dev.gatlingllm.internal.metrics.RecordSource;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.metrics.TaskType;
import dev.gatlingllm.internal.options.ResultOptionsAccess;
import dev.gatlingllm.options.ResultOptions;
import dev.gatlingllm.report.ReportOutcome;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.OptionalLong;

/**
 * The run and result options of each golden of src/test/resources/report/make_golden.py,
 * over the records of the metrics fixture case of the same name.
 */
final class Goldens {

  static final Clock CLOCK = Clock.fixed(Instant.parse("2025-01-02T03:04:05Z"), ZoneOffset.UTC);
  static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";

  private Goldens() {}

  static RunInfo run(String golden) {
    RunInfo.Builder b = RunInfo.builder(MODEL);
    return switch (golden) {
      case "mixed" -> b.backend("openai").requestRate(10.0).maxConcurrency(8).numPrompts(9).build();
      case "no-slo" -> b.backend("openai-chat").burstiness(0.5).numPrompts(9).build();
      case "all-failed" -> b.backend("openai").requestRate(2.0).numPrompts(2).build();
      case "embedding" -> b.backend("openai-embeddings").taskType(TaskType.EMBEDDING)
          .maxConcurrency(4).numPrompts(4).build();
      default -> throw new IllegalArgumentException(golden);
    };
  }

  static ResultOptions options(String golden) {
    ResultOptions.Builder b = ResultOptionsAccess.goodput(ResultOptions.builder()
        .metricPercentiles(MetricFixtures.percentiles(golden)), MetricFixtures.goodput(golden))
        .pytorch(true)
        .printSummary(false);
    return switch (golden) {
      case "mixed" -> b.metadataPairs("tp=1", " version = 0.9.2")
          .percentileMetrics("ttft,tpot,itl,e2el").build();
      case "no-slo" -> b.label("nightly").build();
      default -> b.build();
    };
  }

  /**
   * Reports the fixture case into {@code runFolder}, with a benchmark start that makes the
   * duration the case's.
   */
  static ReportOutcome report(String golden, ResultOptions options, Path runFolder) {
    List<RequestRecord> records = MetricFixtures.records(golden);
    long maxEnd = records.stream().mapToLong(RequestRecord::endNanos).max().orElse(0);
    long start = maxEnd - Math.round(MetricFixtures.duration(golden) * 1e9);
    return RunReporter.report(run(golden), RecordSource.of(records), options, runFolder,
        MetricFixtures.WORDS, OptionalLong.of(start), CLOCK, new PrintStream(
            PrintStream.nullOutputStream(), true, StandardCharsets.UTF_8));
  }

  static String resource(String name) {
    try (InputStream in = Goldens.class.getResourceAsStream("/report/" + name)) {
      if (in == null) {
        throw new IllegalArgumentException("No golden file " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
