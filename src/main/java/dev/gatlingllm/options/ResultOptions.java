package dev.gatlingllm.options;

import dev.gatlingllm.internal.metrics.GoodputSlo;
import dev.gatlingllm.internal.metrics.Metric;
import dev.gatlingllm.internal.metrics.Percentiles;
import dev.gatlingllm.internal.metrics.SteadyStateOptions;
import dev.gatlingllm.internal.metrics.TaskType;
import dev.gatlingllm.internal.options.ResultOptionsAccess;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * How a run is reported: vLLM's {@code --save-result}, {@code --save-detailed},
 * {@code --append-result}, {@code --result-dir}, {@code --result-filename}, {@code --label},
 * {@code --metadata}, {@code --percentile-metrics}, {@code --metric-percentiles},
 * {@code --goodput}, {@code vllm-bench}'s {@code --steady-state-threshold},
 * {@code --steady-state-min-window} and {@code --no-steady-state}, plus the pytorch-format
 * file, the open-loop steady-state trim and the over-saturation stop. Immutable; every builder call returns a
 * new builder and checks its value at once.
 *
 * <pre>{@code
 * ResultOptions opts = ResultOptions.builder()
 *     .label("nightly")
 *     .detailed(true)
 *     .metadataPairs("tp=1", "version=0.9.2")
 *     .percentileMetrics("ttft,tpot,itl,e2el")
 *     .metricPercentiles("50,90,99,99.9")
 *     .goodput("ttft:500 tpot:50")
 *     .build();
 * }</pre>
 *
 * <p>The parsed forms of those words ({@code internal.metrics}' types) are package-private:
 * the reporters read them through {@code internal.options.ResultOptionsAccess}.
 */
public final class ResultOptions {

  /** Default ITL colour thresholds of the timeline, as vLLM's {@code --plot-timeline}. */
  private static final double[] DEFAULT_TIMELINE_THRESHOLDS_MS = {25, 50};

  /**
   * The values, kept in the builder that was built: builders are never changed once made
   * (each setter changes a copy), so the options share it.
   */
  private final Builder values;
  private final Map<String, String> metadata;

  static {
    // the reporters read and set the parsed forms through this one door
    ResultOptionsAccess.install(new ParsedForms());
  }

  private ResultOptions(Builder values) {
    this.values = values;
    this.metadata = Collections.unmodifiableMap(values.metadata);
  }

  /** Save the result JSON in the run folder, percentile 99, no SLOs. */
  public static ResultOptions defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Whether the result JSON is written (default true). */
  public boolean saveResult() {
    return values.saveResult;
  }

  /** Directory for the result files; null = the Gatling run folder. */
  public Path resultDir() {
    return values.resultDir;
  }

  /** File name; null = vLLM's default name. */
  public String resultFilename() {
    return values.resultFilename;
  }

  /** Label (written as {@code label}, prefix of the default name); null = not set. */
  public String label() {
    return values.label;
  }

  /** Whether per-request arrays are included. */
  public boolean detailed() {
    return values.detailed;
  }

  /**
   * Whether the summary and the result report {@code total_cached_tokens}, the prompt tokens
   * the server's prefix cache held ({@code --report-cached-tokens}).
   */
  public boolean reportCachedTokens() {
    return values.reportCachedTokens;
  }

  /** Whether the result is appended as one more line to an existing file. */
  public boolean append() {
    return values.append;
  }

  /** Free pairs written after {@code num_prompts}, in the order given. */
  public Map<String, String> metadata() {
    return metadata;
  }

  /** The metrics whose statistics are reported; null = the default for the task type. */
  List<Metric> percentileMetrics() {
    return values.percentileMetrics;
  }

  /** vLLM's defaults when none were chosen: TTFT, TPOT, ITL for generation, E2EL for embeddings. */
  List<Metric> percentileMetrics(TaskType taskType) {
    if (values.percentileMetrics != null) {
      return values.percentileMetrics;
    }
    return taskType == TaskType.EMBEDDING ? List.of(Metric.E2EL)
        : List.of(Metric.TTFT, Metric.TPOT, Metric.ITL);
  }

  public double[] metricPercentiles() {
    return values.metricPercentiles.clone();
  }

  GoodputSlo goodput() {
    return values.goodput;
  }

  /** Whether {@code <name>.pytorch.json} is written next to the result. */
  public boolean pytorch() {
    return values.pytorch;
  }

  /** Whether the reporter prints the console summary to standard output (default true). */
  public boolean printSummary() {
    return values.printSummary;
  }

  /** Whether {@code llm-report.html} is written beside the results (default true). */
  public boolean htmlReport() {
    return values.htmlReport;
  }

  /** ITL colour thresholds of the report's request timeline, ms, ascending (25, 50). */
  public double[] timelineThresholdsMs() {
    return values.timelineThresholdsMs.clone();
  }

  /**
   * Whether vLLM's timeline file ({@code <result>.timeline.html}) is written beside the result,
   * as {@code --plot-timeline} (default false; {@code llm-report.html} draws the same view).
   */
  public boolean plotTimeline() {
    return values.plotTimeline;
  }

  /** The timeline's ITL colour thresholds when none are given, ms. */
  public static double[] defaultTimelineThresholdsMs() {
    return DEFAULT_TIMELINE_THRESHOLDS_MS.clone();
  }

  /** How the steady-state window is chosen (default {@link SteadyStateOptions#DEFAULTS}). */
  SteadyStateOptions steadyState() {
    return values.steadyState;
  }

  /** Whether a run found over-saturated while it runs is ended early (default false). */
  public boolean stopOnOverSaturation() {
    return values.stopOnOverSaturation;
  }

  /**
   * Whether the run exits 0 whatever its outcome, as vLLM's client does (default false: a run
   * in which no request succeeded, or whose model the server does not list, fails; see the
   * README's exit status table). The verdict line still says what happened.
   */
  public boolean exitZero() {
    return values.exitZero;
  }

  /**
   * Whether the run ends at the first response that shows the server did not do what was
   * asked (default false); see {@link Builder#stopOnServerNonCompliance(boolean)}.
   */
  public boolean stopOnServerNonCompliance() {
    return values.stopOnServerNonCompliance;
  }

  /** A builder starting from these options. */
  public Builder toBuilder() {
    return values;
  }

  /** Immutable builder for {@link ResultOptions}. */
  public static final class Builder implements Cloneable {

    private boolean saveResult = true;
    private Path resultDir;
    private String resultFilename;
    private String label;
    private boolean detailed;
    private boolean reportCachedTokens;
    private boolean append;
    /** The one value a copy does not share: {@link #with} changes it in place. */
    private LinkedHashMap<String, String> metadata = new LinkedHashMap<>();
    private List<Metric> percentileMetrics;
    private double[] metricPercentiles = Percentiles.DEFAULT.clone();
    private GoodputSlo goodput = GoodputSlo.none();
    private boolean pytorch;
    private boolean printSummary = true;
    private boolean htmlReport = true;
    private double[] timelineThresholdsMs = DEFAULT_TIMELINE_THRESHOLDS_MS.clone();
    private SteadyStateOptions steadyState = SteadyStateOptions.DEFAULTS;
    private boolean stopOnOverSaturation;
    private boolean exitZero;
    private boolean stopOnServerNonCompliance;
    private boolean plotTimeline;

    private Builder() {}

    /** A copy with {@code change} made to it: each setter returns a new builder. */
    private Builder with(Consumer<Builder> change) {
      Builder b;
      try {
        b = (Builder) clone();
      } catch (CloneNotSupportedException e) {
        throw new AssertionError(e);
      }
      b.metadata = new LinkedHashMap<>(metadata);
      change.accept(b);
      return b;
    }

    private static void requireNotBlank(String what, String value) {
      if (value == null || value.isBlank()) {
        throw new IllegalArgumentException(what + " must not be blank, got "
            + (value == null ? "null" : "'" + value + "'"));
      }
    }

    /** Write the result JSON (default true); false only computes and prints. */
    public Builder saveResult(boolean saveResult) {
      return with(b -> b.saveResult = saveResult);
    }

    /** Directory for the result files (created when missing); default the run folder. */
    public Builder resultDir(Path resultDir) {
      return with(b -> b.resultDir = Objects.requireNonNull(resultDir, "resultDir"));
    }

    public Builder resultDir(String resultDir) {
      requireNotBlank("resultDir", resultDir);
      return resultDir(Path.of(resultDir));
    }

    /** The result file's name instead of vLLM's default name. */
    public Builder resultFilename(String resultFilename) {
      requireNotBlank("resultFilename", resultFilename);
      return with(b -> b.resultFilename = resultFilename);
    }

    /** The label (prefix) of the results; unset, the backend names the file and JSON has null. */
    public Builder label(String label) {
      return with(b -> b.label = label);
    }

    /**
     * Report the prompt tokens the server's prefix cache held: {@code total_cached_tokens},
     * the sum of {@code usage.prompt_tokens_details.cached_tokens} over the completed requests
     * ({@code --report-cached-tokens}). A server reports them only when asked to (vLLM:
     * {@code --enable-prompt-tokens-details}); without them the total is 0.
     */
    public Builder reportCachedTokens(boolean report) {
      return with(b -> b.reportCachedTokens = report);
    }

    /** Include per-request arrays (vLLM's {@code --save-detailed}). */
    public Builder detailed(boolean detailed) {
      return with(b -> b.detailed = detailed);
    }

    /** Append the result as one more JSON line (vLLM's {@code --append-result}). */
    public Builder append(boolean append) {
      return with(b -> b.append = append);
    }

    /** One metadata pair; a repeated key keeps its first position and the last value. */
    public Builder metadata(String key, String value) {
      return with(b -> b.putMetadata(key, value));
    }

    /** Several metadata pairs, in the map's iteration order. */
    public Builder metadata(Map<String, String> pairs) {
      return with(b -> pairs.forEach(b::putMetadata));
    }

    /** vLLM's {@code --metadata KEY=VALUE ...}: split at the first '=', both sides trimmed. */
    public Builder metadataPairs(String... keyEqualsValue) {
      return with(b -> {
        for (String item : keyEqualsValue) {
          int eq = item == null ? -1 : item.indexOf('=');
          if (eq < 0) {
            throw new IllegalArgumentException("Invalid metadata format. Please use KEY=VALUE "
                + "format. Got '" + item + "'.");
          }
          b.putMetadata(item.substring(0, eq).trim(), item.substring(eq + 1).trim());
        }
      });
    }

    /** Only on a fresh copy, inside {@link #with}. */
    private void putMetadata(String key, String value) {
      requireNotBlank("Metadata key", key);
      metadata.put(key, Objects.requireNonNull(value, "metadata value for " + key));
    }

    /** vLLM's {@code --percentile-metrics}, e.g. {@code "ttft,tpot,itl,e2el"}. */
    public Builder percentileMetrics(String commaSeparated) {
      return with(b -> b.percentileMetrics = Metric.parseList(commaSeparated));
    }

    Builder percentileMetrics(Metric... metrics) {
      if (metrics.length == 0) {
        throw new IllegalArgumentException("Percentile metrics must not be empty: "
            + "give at least one of TTFT, TPOT, ITL, E2EL");
      }
      return with(b -> b.percentileMetrics = List.of(metrics));
    }

    /** vLLM's {@code --metric-percentiles}, e.g. {@code "50,90,99,99.9"}. */
    public Builder metricPercentiles(String commaSeparated) {
      return with(b -> b.metricPercentiles = Percentiles.parse(commaSeparated));
    }

    public Builder metricPercentiles(double... percentiles) {
      return with(b -> b.metricPercentiles = Percentiles.validate(percentiles));
    }

    /** vLLM's {@code --goodput}, e.g. {@code "ttft:500 tpot:50 e2el:2000"} (milliseconds). */
    public Builder goodput(String slos) {
      return goodput(GoodputSlo.parse(slos));
    }

    /** Goodput SLOs in milliseconds by name ({@code ttft}, {@code tpot}, {@code e2el}). */
    public Builder goodput(Map<String, ? extends Number> slosMs) {
      return goodput(GoodputSlo.of(slosMs));
    }

    Builder goodput(GoodputSlo goodput) {
      return with(b -> b.goodput = Objects.requireNonNull(goodput, "goodput"));
    }

    /** Also write the PyTorch OSS benchmark format file {@code <name>.pytorch.json}. */
    public Builder pytorch(boolean pytorch) {
      return with(b -> b.pytorch = pytorch);
    }

    /** Print the console summary to standard output (default true). */
    public Builder printSummary(boolean printSummary) {
      return with(b -> b.printSummary = printSummary);
    }

    /**
     * Write the LLM report {@code llm-report.html} into the run folder when the results are
     * written (default true).
     */
    public Builder htmlReport(boolean htmlReport) {
      return with(b -> b.htmlReport = htmlReport);
    }

    /**
     * ITL thresholds (ms) that colour the report's request timeline, as vLLM's
     * {@code --timeline-itl-thresholds}: default 25 and 50.
     */
    public Builder timelineItlThresholds(double... thresholdsMs) {
      if (thresholdsMs.length == 0) {
        throw new IllegalArgumentException("timelineItlThresholds needs at least one threshold");
      }
      for (int i = 0; i < thresholdsMs.length; i++) {
        if (!(thresholdsMs[i] > 0) || Double.isInfinite(thresholdsMs[i])
            || (i > 0 && thresholdsMs[i] <= thresholdsMs[i - 1])) {
          throw new IllegalArgumentException("timelineItlThresholds must be positive and "
              + "ascending, got " + java.util.Arrays.toString(thresholdsMs));
        }
      }
      return with(b -> b.timelineThresholdsMs = thresholdsMs.clone());
    }

    /**
     * {@code vllm-bench}'s {@code --steady-state-threshold}: a closed-loop run's window opens
     * when the requests in flight reach this fraction of the max concurrency (default 0.95).
     */
    public Builder steadyStateThreshold(double fraction) {
      return steadyState(steadyState.withThreshold(fraction));
    }

    /**
     * {@code vllm-bench}'s {@code --steady-state-min-window}: the shortest window reported
     * without a warning, seconds (default {@code max(10, 0.1 × run duration)}).
     */
    public Builder steadyStateMinWindow(double seconds) {
      return steadyState(steadyState.withMinWindowSeconds(seconds));
    }

    /** {@code vllm-bench}'s {@code --no-steady-state} when false: no closed-loop window. */
    public Builder steadyState(boolean closedLoop) {
      return steadyState(steadyState.withClosedLoop(closedLoop));
    }

    /**
     * The steady-state window of an open-loop run: the first {@code startSeconds} after the
     * first start and the last {@code endSeconds} before the last end left out.
     */
    public Builder steadyStateTrimSeconds(double startSeconds, double endSeconds) {
      return steadyState(steadyState.withTrim(
          SteadyStateOptions.Trim.seconds(startSeconds, endSeconds)));
    }

    /**
     * The steady-state window of an open-loop run: the first {@code start} and the last
     * {@code end} successful requests (in start order) left out.
     */
    public Builder steadyStateTrimRequests(int start, int end) {
      return steadyState(steadyState.withTrim(SteadyStateOptions.Trim.requests(start, end)));
    }

    /** All the steady-state settings at once. */
    Builder steadyState(SteadyStateOptions options) {
      return with(b -> b.steadyState = Objects.requireNonNull(options, "steadyState"));
    }

    /**
     * End the run early when it is found over-saturated while it runs (guidellm's
     * over-saturation stop): no new request is sent, every finished one is reported.
     */
    public Builder stopOnOverSaturation(boolean stop) {
      return with(b -> b.stopOnOverSaturation = stop);
    }

    /**
     * End the run at the first finished request that shows the server did not do what it was
     * asked (more output tokens than the limit, a model it does not serve or list, no usage,
     * ...; the server compliance checks): its figures would be the server's, not the
     * dataset's. No new request is sent, every finished one is reported, and the result
     * JSON's {@code server_compliance.stop} says when and why. Without it the finding is said
     * once, as a WARN line, and the run goes on.
     */
    public Builder stopOnServerNonCompliance(boolean stop) {
      return with(b -> b.stopOnServerNonCompliance = stop);
    }

    /**
     * Also write vLLM's request timeline, {@code <result>.timeline.html}, beside the result
     * file (as {@code --plot-timeline}), coloured by {@link #timelineItlThresholds}.
     */
    public Builder plotTimeline(boolean plot) {
      return with(b -> b.plotTimeline = plot);
    }

    /**
     * Exit 0 whatever the run's outcome, as vLLM's client does: a run in which no request
     * succeeded still passes, and a model the server does not list is a warning, not a
     * refusal. For pipelines that judge the result file themselves.
     */
    public Builder exitZero(boolean exitZero) {
      return with(b -> b.exitZero = exitZero);
    }

    public ResultOptions build() {
      return new ResultOptions(this);
    }
  }
}
