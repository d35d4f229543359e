package dev.gatlingllm.internal.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The figures of one turn index of a conversation run: the requests that sent turn k of
 * their conversation, with the run's rules (vLLM's {@code calculate_metrics}) applied to them
 * alone. Turn 5 costs what it costs because its history is long; the whole run's figures mix
 * all turns, these keep them apart.
 *
 * @param turn             1-based turn index
 * @param completed        successful requests of this turn
 * @param failed           failed ones (a conversation stops at its failed turn: the turns
 *                         after it are not sent and counted nowhere)
 * @param meanInputTokens  mean prompt length of the successful ones: the whole history sent
 * @param meanOutputTokens mean output length of the successful ones
 * @param latencies        TTFT, TPOT, ITL and E2EL of the successful ones
 */
public record TurnFigures(int turn, int completed, int failed, double meanInputTokens,
    double meanOutputTokens, Latencies latencies) {

  /**
   * The figures of every turn index present, in turn order; empty when no request was a
   * conversation's turn.
   *
   * @param requests the run's requests, in the order {@code metrics} was computed from
   * @param metrics  the whole run's figures, for each request's output length as counted
   */
  public static List<TurnFigures> of(RecordSource requests, BenchmarkMetrics metrics,
      double[] percentiles) {
    Map<Integer, List<Integer>> byTurn =
        requests.indexesBy(r -> r.turn() > 0 ? r.turn() : null);
    List<TurnFigures> figures = new ArrayList<>(byTurn.size());
    byTurn.forEach((turn, indexes) -> figures.add(of(turn, indexes, requests, metrics,
        percentiles)));
    return figures;
  }

  private static TurnFigures of(int turn, List<Integer> indexes, RecordSource requests,
      BenchmarkMetrics metrics, double[] percentiles) {
    int completed = 0;
    int cancelled = 0;
    long input = 0;
    long output = 0;
    for (int i : indexes) {
      RequestRecord r = requests.record(i);
      cancelled += r.cancelled() ? 1 : 0; // on purpose (--cancel-fraction): not a failure
      if (r.success()) {
        completed++;
        input += RequestTimes.promptLen(r, TaskType.GENERATION);
        output += metrics.outputLen(i);
      }
    }
    int[] chosen = indexes.stream().mapToInt(Integer::intValue).toArray();
    return new TurnFigures(turn, completed, indexes.size() - completed - cancelled,
        completed == 0 ? 0 : (double) input / completed,
        completed == 0 ? 0 : (double) output / completed,
        LatencySamples.of(requests, chosen, metrics::outputLen).figures(percentiles));
  }
}
