package dev.gatlingllm.internal.report;

import dev.gatlingllm.internal.metrics.Distribution;
import dev.gatlingllm.internal.metrics.Metric;
import dev.gatlingllm.internal.metrics.PyFormat;
import dev.gatlingllm.internal.metrics.TurnFigures;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The per-turn figures of a conversation run, in the result JSON ({@code per_turn_metrics})
 * and after the console summary. Both show TTFT, TPOT, ITL and E2EL of every turn index with
 * the turn's mean prompt length, whatever metrics the whole run's figures were selected for:
 * what a turn costs is the point of a conversation run.
 */
final class TurnReport {

  /** The result JSON's key. */
  static final String KEY = "per_turn_metrics";

  private TurnReport() {}

  /**
   * One object per turn index, in turn order: {@code turn}, {@code completed},
   * {@code failed}, {@code mean_input_tokens}, {@code mean_output_tokens}, then
   * {@code mean_/median_/std_/pNN_<metric>_ms} for ttft, tpot, itl and e2el, named as the
   * whole run's keys are.
   */
  static List<Map<String, Object>> json(List<TurnFigures> turns) {
    List<Map<String, Object>> out = new ArrayList<>(turns.size());
    for (TurnFigures t : turns) {
      Map<String, Object> turn = new LinkedHashMap<>();
      turn.put("turn", t.turn());
      turn.put("completed", t.completed());
      turn.put("failed", t.failed());
      turn.put("mean_input_tokens", t.meanInputTokens());
      turn.put("mean_output_tokens", t.meanOutputTokens());
      for (Metric metric : Metric.ANSWER) {
        ResultDocument.putDistribution(turn, metric.key(), t.latencies().distribution(metric));
      }
      out.add(turn);
    }
    return out;
  }

  /**
   * The console section: a row per turn with its requests and mean prompt tokens, then one
   * table per metric (mean, median and the selected percentiles by turn). Empty without turns.
   */
  static String console(List<TurnFigures> turns) {
    if (turns.isEmpty()) {
      return "";
    }
    StringBuilder out = new StringBuilder(1024);
    out.append(PyFormat.center(" Per-Turn Results ", 50, '=')).append('\n');
    row(out, "Turn", "Completed", "Failed", "Prompt tok");
    for (TurnFigures t : turns) {
      row(out, Integer.toString(t.turn()), Integer.toString(t.completed()),
          Integer.toString(t.failed()), PyFormat.fixed(t.meanInputTokens(), 1));
    }
    for (Metric metric : Metric.ANSWER) {
      out.append(PyFormat.center(metric.label() + " by turn (ms)", 50, '-')).append('\n');
      List<String> header = new ArrayList<>(List.of("Turn", "Mean", "Median"));
      turns.get(0).latencies().distribution(metric).percentiles().forEach(p -> header.add("P" + p.word()));
      row(out, header.toArray(new String[0]));
      for (TurnFigures t : turns) {
        Distribution d = t.latencies().distribution(metric);
        List<String> cells = new ArrayList<>(List.of(Integer.toString(t.turn()),
            PyFormat.fixed(d.mean(), 2), PyFormat.fixed(d.median(), 2)));
        d.percentiles().forEach(p -> cells.add(PyFormat.fixed(p.valueMs(), 2)));
        row(out, cells.toArray(new String[0]));
      }
    }
    out.append("=".repeat(50)).append('\n');
    return out.toString();
  }

  /** Columns of 10 characters after a first one of 6, trailing spaces cut. */
  private static void row(StringBuilder out, String... cells) {
    StringBuilder line = new StringBuilder(PyFormat.left(cells[0], 6));
    for (int i = 1; i < cells.length; i++) {
      line.append(PyFormat.left(cells[i], 10));
    }
    out.append(line.toString().stripTrailing()).append('\n');
  }
}
