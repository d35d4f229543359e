package dev.gatlingllm.internal.cli;

import dev.gatlingllm.dataset.Conversation;
import dev.gatlingllm.dataset.Conversations;
import dev.gatlingllm.dataset.DatasetContent;
import dev.gatlingllm.dataset.SampleRequest;
import dev.gatlingllm.dataset.Samples;
import dev.gatlingllm.internal.report.DatasetStats;
import dev.gatlingllm.internal.report.DatasetStatsChart;
import dev.gatlingllm.report.ReportOutcome;
import dev.gatlingllm.tokenizer.Tokenizer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code --dry-run} (vLLM's Rust client): every flag checked and the dataset sampled exactly
 * as the benchmark would, then its statistics printed and charted; nothing is sent. Also
 * writes the chart of {@code --plot-dataset-stats} beside a real run's results.
 */
public final class DryRun {

  private DryRun() {}

  static int run(BenchArgs args, PrintWriter out, Path folder) {
    if (!args.has("model")) {
      throw new IllegalArgumentException("--dry-run needs --model: without it the model is "
          + "asked of the server (GET /v1/models), and a dry run sends nothing");
    }
    BenchPlan plan = BenchPlan.of(args);
    try (Tokenizer tokenizer = PlanTokenizer.loadTokenizer(plan)) {
      // the benchmark's own steps, in its order: sample, check the content, lay out arrivals
      Samples samples = plan.sample(tokenizer);
      if (samples.size() == 0) {
        throw new IllegalArgumentException("the dataset gave no request to send");
      }
      plan.checkDataset(DatasetContent.of(samples));
      plan.arrivals(samples.size(), samples.arrivalSeconds());
      List<DatasetStats.Request> requests = requests(samples);
      if (requests.size() != samples.size()) {
        out.println("Conversations (--multi-turn): " + samples.size() + ", turns: "
            + requests.size() + "; the statistics below are per turn (its user message and "
            + "its answer; every turn also resends the history)");
      }
      DatasetStats stats = DatasetStats.of(requests, tokenizer::encode);
      out.print(stats.console());
      out.println("Dataset statistics chart: "
          + write(stats, title(plan, stats), folder).toAbsolutePath().toUri());
      out.println("Nothing was sent (--dry-run).");
    }
    return 0;
  }

  /** The statistics of a run's sample for {@code --plot-dataset-stats} (no prefix count). */
  public static DatasetStats forPlot(Samples samples) {
    return DatasetStats.of(requests(samples), null);
  }

  /**
   * The requests the run sends: the samples, or with {@code --multi-turn} every turn of every
   * conversation (its user message and output length), not only the first turns.
   */
  static List<DatasetStats.Request> requests(Samples samples) {
    List<DatasetStats.Request> out = new ArrayList<>(samples.size());
    for (SampleRequest r : samples.requests()) {
      if (r.extras().get(Conversations.CONVERSATION) instanceof Conversation c) {
        for (Conversation.Turn t : c.turns()) {
          out.add(new DatasetStats.Request(t.prompt(), t.promptLen(), t.outputLen()));
        }
      } else {
        out.add(new DatasetStats.Request(r.prompt(), r.promptLen(), r.expectedOutputLen()));
      }
    }
    return out;
  }

  /**
   * Writes the chart of {@code --plot-dataset-stats} beside the run's results (the result
   * JSON's folder, else the LLM report's, else {@code fallback}) and says where.
   */
  public static void plotBeside(DatasetStats stats, BenchPlan plan, ReportOutcome outcome,
      Path fallback, PrintWriter out) {
    Path folder = outcome.resultFile() != null ? outcome.resultFile().toAbsolutePath().getParent()
        : outcome.htmlReport() != null ? outcome.htmlReport().toAbsolutePath().getParent()
        : fallback;
    try {
      out.println("Dataset statistics chart (--plot-dataset-stats): "
          + write(stats, title(plan, stats), folder).toAbsolutePath().toUri());
    } catch (UncheckedIOException e) {
      out.println("Dataset statistics chart not written: " + e.getCause());
    }
    out.flush();
  }

  private static Path write(DatasetStats stats, String title, Path folder) {
    try {
      return DatasetStatsChart.write(stats, title, folder);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the dataset statistics chart into "
          + folder, e);
    }
  }

  private static String title(BenchPlan plan, DatasetStats stats) {
    return plan.datasetFlags().value("dataset-name").orElseThrow() + ", " + stats.requests() + " requests";
  }
}
