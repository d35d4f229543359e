package dev.gatlingllm.internal.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The figures of one request class (vLLM's {@code workload_class}, given by the
 * {@code mixed_serving_boundary} dataset): the requests of that class with the run's rules
 * applied to them alone, as turns are split in {@link TurnFigures}. Token totals follow
 * vLLM's {@code request_class_metrics}: the input total counts every request of the class
 * (failed ones too, their prompt was sent), the output total what came back (0 for a failed
 * one); latencies are those of the successful ones.
 *
 * @param name              the class name
 * @param requests          requests of this class
 * @param completed         successful ones
 * @param totalInputTokens  prompt tokens of all of them
 * @param totalOutputTokens output tokens, as the run's figures counted them
 * @param latencies         TTFT, TPOT, ITL and E2EL of the successful ones
 * @param cancelled         cancelled on purpose ({@code --cancel-fraction}): neither completed
 *                          nor failed, as in the whole run's figures
 */
public record ClassFigures(String name, int requests, int completed, long totalInputTokens,
    long totalOutputTokens, Latencies latencies, int cancelled) {

  /** Failed requests of this class (a cancelled one is not failed). */
  public int failed() {
    return requests - completed - cancelled;
  }

  /** Mean prompt tokens per request of the class (0 without requests). */
  public double meanInputTokens() {
    return requests == 0 ? 0 : (double) totalInputTokens / requests;
  }

  /** Mean output tokens per successful request (0 without one). */
  public double meanOutputTokens() {
    return completed == 0 ? 0 : (double) totalOutputTokens / completed;
  }

  /**
   * The figures of every class present, by class name; empty when no request had a class.
   *
   * @param requests the run's requests, in the order {@code metrics} was computed from
   * @param metrics  the whole run's figures, for each request's output length as counted
   */
  public static List<ClassFigures> of(RecordSource requests, BenchmarkMetrics metrics,
      double[] percentiles) {
    Map<String, List<Integer>> byClass = requests.indexesBy(RequestRecord::requestClass);
    List<ClassFigures> figures = new ArrayList<>(byClass.size());
    byClass.forEach((name, indexes) -> figures.add(of(name, indexes, requests, metrics,
        percentiles)));
    return figures;
  }

  private static ClassFigures of(String name, List<Integer> indexes, RecordSource requests,
      BenchmarkMetrics metrics, double[] percentiles) {
    int completed = 0;
    int cancelled = 0;
    long input = 0;
    long output = 0;
    for (int i : indexes) {
      RequestRecord r = requests.record(i);
      input += RequestTimes.promptLen(r, TaskType.GENERATION);
      output += metrics.outputLen(i);
      completed += r.success() ? 1 : 0;
      cancelled += r.cancelled() ? 1 : 0;
    }
    int[] chosen = indexes.stream().mapToInt(Integer::intValue).toArray();
    return new ClassFigures(name, indexes.size(), completed, input, output,
        LatencySamples.of(requests, chosen, metrics::outputLen).figures(percentiles), cancelled);
  }
}
