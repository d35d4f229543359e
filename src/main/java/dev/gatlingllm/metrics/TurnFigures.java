package dev.gatlingllm.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

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
 */
public record TurnFigures(int turn, int completed, int failed, double meanInputTokens,
    double meanOutputTokens, Distribution ttft, Distribution tpot, Distribution itl,
    Distribution e2el) {

  /** The distribution of one metric of this turn. */
  public Distribution distribution(Metric metric) {
    return switch (metric) {
      case TTFT -> ttft;
      case TPOT -> tpot;
      case ITL -> itl;
      case E2EL -> e2el;
    };
  }

  /**
   * The figures of every turn index present, in turn order; empty when no request was a
   * conversation's turn.
   *
   * @param requests the run's requests, in the order {@code metrics} was computed from
   * @param metrics  the whole run's figures, for each request's output length as counted
   */
  public static List<TurnFigures> of(RecordSource requests, BenchmarkMetrics metrics,
      double[] percentiles) {
    TreeMap<Integer, List<Integer>> byTurn = new TreeMap<>();
    for (int i = 0; i < requests.size(); i++) {
      int turn = requests.record(i).turn();
      if (turn > 0) {
        byTurn.computeIfAbsent(turn, k -> new ArrayList<>()).add(i);
      }
    }
    List<TurnFigures> figures = new ArrayList<>(byTurn.size());
    byTurn.forEach((turn, indexes) -> figures.add(of(turn, indexes, requests, metrics,
        percentiles)));
    return figures;
  }

  private static TurnFigures of(int turn, List<Integer> indexes, RecordSource requests,
      BenchmarkMetrics metrics, double[] percentiles) {
    int n = indexes.size();
    double[] ttfts = new double[n];
    double[] tpots = new double[n];
    double[] e2els = new double[n];
    int itlTotal = 0;
    for (int i : indexes) {
      RequestRecord r = requests.record(i);
      itlTotal += r.success() ? r.itlCount() : 0;
    }
    int[] itls = new int[itlTotal];
    int completed = 0;
    int tpotCount = 0;
    int itlCount = 0;
    long input = 0;
    long output = 0;
    for (int i : indexes) {
      RequestRecord r = requests.record(i);
      if (!r.success()) {
        continue;
      }
      int outLen = metrics.outputLen(i);
      input += RequestTimes.promptLen(r, TaskType.GENERATION);
      output += outLen;
      double ttft = RequestTimes.ttftSeconds(r);
      double latency = RequestTimes.latencySeconds(r);
      if (outLen > 1) {
        tpots[tpotCount++] = RequestTimes.tpotSeconds(ttft, latency, outLen);
      }
      int[] chunks = r.chunkMicros();
      for (int k = 0; k + 1 < chunks.length; k++) {
        itls[itlCount++] = chunks[k + 1] - chunks[k];
      }
      ttfts[completed] = ttft;
      e2els[completed++] = latency;
    }
    return new TurnFigures(turn, completed, n - completed,
        completed == 0 ? 0 : (double) input / completed,
        completed == 0 ? 0 : (double) output / completed,
        Stats.ofSeconds(ttfts, completed, percentiles),
        Stats.ofSeconds(tpots, tpotCount, percentiles),
        Stats.ofMicros(itls, itlCount, percentiles),
        Stats.ofSeconds(e2els, completed, percentiles));
  }
}
