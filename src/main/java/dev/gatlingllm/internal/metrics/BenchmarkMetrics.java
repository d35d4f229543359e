package dev.gatlingllm.internal.metrics;

import java.util.OptionalDouble;

/**
 * The aggregate results of one run, meaning exactly what vLLM's {@code calculate_metrics}
 * (or {@code calculate_metrics_for_embeddings}) means. Latency figures are milliseconds,
 * throughputs per second of {@link #durationSeconds()}.
 */
public final class BenchmarkMetrics {

  private final TaskType taskType;
  private final int completed;
  private final int failed;
  private final long totalInput;
  private final long totalOutput;
  private final double durationSeconds;
  private final double requestThroughput;
  private final Double requestGoodput;
  private final int goodCompleted;
  private final double outputThroughput;
  private final double totalTokenThroughput;
  private final Latencies latencies;
  private final double maxOutputTokensPerS;
  private final int maxConcurrentRequests;
  private final int[] outputLens;
  /** Null unless a successful request streamed reasoning. */
  private final Distribution ttfc;
  private final long totalCached;
  private final double rtfx;
  private final AnswerFigures answers;

  BenchmarkMetrics(TaskType taskType, int completed, int failed, long totalInput, long totalOutput,
      double durationSeconds, Double requestGoodput, int goodCompleted, Latencies latencies,
      double maxOutputTokensPerS, int maxConcurrentRequests, int[] outputLens,
      Distribution ttfc, long totalCached, double inputAudioSeconds, AnswerFigures answers) {
    this.taskType = taskType;
    this.completed = completed;
    this.failed = failed;
    this.totalInput = totalInput;
    this.totalOutput = totalOutput;
    this.durationSeconds = durationSeconds;
    this.requestThroughput = perSecond(completed, durationSeconds);
    this.requestGoodput = requestGoodput;
    this.goodCompleted = goodCompleted;
    this.outputThroughput = perSecond(totalOutput, durationSeconds);
    this.totalTokenThroughput = perSecond(totalInput + totalOutput, durationSeconds);
    this.latencies = latencies;
    this.maxOutputTokensPerS = maxOutputTokensPerS;
    this.maxConcurrentRequests = maxConcurrentRequests;
    this.outputLens = outputLens;
    this.ttfc = ttfc;
    this.totalCached = totalCached;
    this.rtfx = perSecond(inputAudioSeconds, durationSeconds);
    this.answers = answers;
  }

  /**
   * Σ {@code usage.prompt_tokens_details.cached_tokens} of the completed requests: the prompt
   * tokens the server's prefix cache held (vLLM's {@code total_cached_tokens}); 0 when the
   * server reports none.
   */
  public long totalCached() {
    return totalCached;
  }

  /**
   * vLLM's RTFx, the inverse real-time factor: seconds of audio the completed requests sent
   * per second of the run ({@code input_audio_duration / duration}); 0 without audio.
   */
  public double rtfx() {
    return rtfx;
  }

  /** Reasoning tokens, tool calls and schema checks of the successful answers. */
  public AnswerFigures answers() {
    return answers;
  }

  /**
   * Time to the first answer chunk, after the reasoning (our addition, not vLLM's): present
   * only when at least one successful request streamed {@code reasoning_content} or
   * {@code reasoning}; requests that never got to the answer have no TTFC and are left out.
   */
  public java.util.Optional<Distribution> ttfc() {
    return java.util.Optional.ofNullable(ttfc);
  }

  /** A count per second; 0 for a zero-length run (vLLM would divide by zero). */
  static double perSecond(double count, double durationSeconds) {
    return durationSeconds > 0 ? count / durationSeconds : 0.0;
  }

  public TaskType taskType() {
    return taskType;
  }

  /** Successful requests. */
  public int completed() {
    return completed;
  }

  public int failed() {
    return failed;
  }

  /** Σ prompt length of completed requests. */
  public long totalInput() {
    return totalInput;
  }

  /** Σ output length of completed requests (0 for embeddings). */
  public long totalOutput() {
    return totalOutput;
  }

  public double durationSeconds() {
    return durationSeconds;
  }

  public double requestThroughput() {
    return requestThroughput;
  }

  /** Good requests per second; null when no SLO was configured. */
  public Double requestGoodput() {
    return requestGoodput;
  }

  /** Completed requests that met every SLO (0 without SLOs). */
  public int goodCompleted() {
    return goodCompleted;
  }

  public double outputThroughput() {
    return outputThroughput;
  }

  public double totalTokenThroughput() {
    return totalTokenThroughput;
  }

  public Distribution ttft() {
    return latencies.ttft();
  }

  public Distribution tpot() {
    return latencies.tpot();
  }

  public Distribution itl() {
    return latencies.itl();
  }

  public Distribution e2el() {
    return latencies.e2el();
  }

  public Distribution distribution(Metric metric) {
    return latencies.distribution(metric);
  }

  /** Highest count of content chunks in one 1-second bucket. */
  public double maxOutputTokensPerS() {
    return maxOutputTokensPerS;
  }

  /** Highest count of requests active during one 1-second bucket. */
  public int maxConcurrentRequests() {
    return maxConcurrentRequests;
  }

  /** Number of requests the metrics were computed from. */
  public int requestCount() {
    return outputLens.length;
  }

  /** Output length of the i-th request of the source (0 for failed ones). */
  public int outputLen(int index) {
    return outputLens[index];
  }

  /**
   * A figure by its vLLM result-JSON key: {@code request_throughput}, {@code p99_ttft_ms},
   * {@code mean_e2el_ms}, ... Empty for unknown keys, percentiles that were not computed
   * and {@code request_goodput} without SLOs. Handy for CI gates on any reported number.
   */
  public OptionalDouble value(String key) {
    switch (key) {
      case "duration":
        return OptionalDouble.of(durationSeconds);
      case "completed":
        return OptionalDouble.of(completed);
      case "failed":
        return OptionalDouble.of(failed);
      case "total_input_tokens":
        return OptionalDouble.of(totalInput);
      case "total_output_tokens":
        return OptionalDouble.of(totalOutput);
      case "request_throughput":
        return OptionalDouble.of(requestThroughput);
      case "request_goodput":
        return requestGoodput == null ? OptionalDouble.empty() : OptionalDouble.of(requestGoodput);
      case "output_throughput":
        return OptionalDouble.of(outputThroughput);
      case "total_token_throughput":
        return OptionalDouble.of(totalTokenThroughput);
      case "max_output_tokens_per_s":
        return OptionalDouble.of(maxOutputTokensPerS);
      case "max_concurrent_requests":
        return OptionalDouble.of(maxConcurrentRequests);
      default:
        OptionalDouble answer = answers.value(key);
        return answer.isPresent() ? answer : distributionValue(key);
    }
  }

  private OptionalDouble distributionValue(String key) {
    if (!key.endsWith("_ms")) {
      return OptionalDouble.empty();
    }
    String body = key.substring(0, key.length() - 3);
    for (String word : new String[] {TTFC_KEY, AnswerFigures.TTFO_KEY}) {
      if (ttfc != null && body.endsWith("_" + word)) {
        return statistic(ttfc, body.substring(0, body.length() - word.length() - 1));
      }
    }
    String tool = "_" + AnswerFigures.TOOL_CALL_KEY;
    if (answers.toolCallTime() != null && body.endsWith(tool)) {
      return statistic(answers.toolCallTime(), body.substring(0, body.length() - tool.length()));
    }
    for (Metric m : Metric.values()) {
      String suffix = "_" + m.key();
      if (!body.endsWith(suffix)) {
        continue;
      }
      return statistic(distribution(m), body.substring(0, body.length() - suffix.length()));
    }
    return OptionalDouble.empty();
  }

  /** Key word of the TTFC figures: {@code mean_ttfc_ms}, {@code p99_ttfc_ms}, ... */
  public static final String TTFC_KEY = "ttfc";

  private static OptionalDouble statistic(Distribution d, String stat) {
    switch (stat) {
      case "mean":
        return OptionalDouble.of(d.mean());
      case "median":
        return OptionalDouble.of(d.median());
      case "std":
        return OptionalDouble.of(d.std());
      default:
        for (PercentileValue p : d.percentiles()) {
          if (stat.equals("p" + p.word())) {
            return OptionalDouble.of(p.valueMs());
          }
        }
        return OptionalDouble.empty();
    }
  }
}
