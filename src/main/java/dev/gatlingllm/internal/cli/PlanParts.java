package dev.gatlingllm.internal.cli;

import static dev.gatlingllm.internal.cli.BenchChecks.flagged;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.action.Backends.Backend;
import dev.gatlingllm.action.Backends.Takes;
import dev.gatlingllm.dataset.Datasets;
import dev.gatlingllm.internal.flags.BenchFlags;
import dev.gatlingllm.internal.flags.GivenValues;
import dev.gatlingllm.options.ResultOptions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The parts of a {@link BenchPlan} that each come from a few flags, one builder a part: the
 * request path, the headers, the result options, the warm-up count, the dataset's flags and
 * the body fields every request gets. Each refuses its own flags' bad values, naming the flag;
 * the plan calls them in the order its checks run.
 */
final class PlanParts {

  private PlanParts() {}

  /**
   * The path: {@code --endpoint}, else the backend's usual one (vLLM's own default is
   * {@code /v1/completions} whatever the backend, which makes its users pass the path vLLM's
   * docs give for the others: that path is the default here).
   */
  static String endpoint(BenchArgs args, Backend backend) {
    String path = args.has("endpoint") ? args.value("endpoint").orElseThrow()
        : backend.defaultEndpoint();
    if (!path.startsWith("/")) {
      throw new IllegalArgumentException("--endpoint must start with '/', got '" + path + "'");
    }
    // vLLM checks the URL the same way before it sends anything
    List<String> endings = backend.endpointEndings();
    if (endings.stream().noneMatch(path::endsWith)) {
      throw new IllegalArgumentException("--endpoint " + path + " with --backend "
          + backend.name() + ": its URL must end with '" + String.join("' or '", endings)
          + "' (as vLLM requires)");
    }
    return path;
  }


  /**
   * The body fields every request gets: {@code --extra-body}, and with {@code openai-chat}
   * the {@code --chat-template-kwargs} under the field the server reads them from (the
   * template is applied by the server here; an extra-body field of that name wins).
   */
  static Map<String, Object> extraBody(BenchArgs args, Backend backend) {
    Map<String, Object> fields = new LinkedHashMap<>();
    if (args.has("chat-template-kwargs") && backend.chatTemplate()) {
      fields.put("chat_template_kwargs", jsonObject(args, "chat-template-kwargs"));
    } else if (args.has("chat-template-kwargs")) {
      jsonObject(args, "chat-template-kwargs");
    }
    if (args.has("extra-body")) {
      if (!backend.takes(Takes.EXTRA_BODY)) {
        throw new IllegalArgumentException("--extra-body is not supported with --backend "
            + backend.name() + ": " + BenchFlags.find("--extra-body").orElseThrow().note());
      }
      fields.putAll(jsonObject(args, "extra-body"));
    }
    return Map.copyOf(fields);
  }

  /** A flag's value read as a JSON object. */
  private static Map<String, Object> jsonObject(BenchArgs args, String flag) {
    String text = args.value(flag).orElseThrow();
    JsonNode node;
    try {
      node = JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("--" + flag + " is not valid JSON: "
          + e.getOriginalMessage() + " (in: " + text + ")", e);
    }
    if (node == null || !node.isObject()) {
      throw new IllegalArgumentException("--" + flag + " must be a JSON object such as "
          + "'{\"min_tokens\": 32}', got: " + text);
    }
    return JSON.convertValue(node, new TypeReference<LinkedHashMap<String, Object>>() {});
  }

  private static final ObjectMapper JSON = new ObjectMapper();


  static ResultOptions results(BenchArgs args) {
    ResultOptions.Builder b = ResultOptions.builder()
        .saveResult(args.on("save-result"))
        .append(args.on("append-result"))
        .detailed(args.on("save-detailed"))
        .exitZero(args.on("exit-zero"))
        // vLLM writes the pytorch file only when this variable is set
        .pytorch(System.getenv("SAVE_TO_PYTORCH_BENCHMARK_FORMAT") != null);
    b = TimelineFlags.apply(args, b);
    if (args.has("percentile-metrics")) {
      // unset, the result takes vLLM's default of its task: ttft,tpot,itl or, pooling, e2el
      ResultOptions.Builder start = b;
      b = flagged("percentile-metrics",
          () -> start.percentileMetrics(args.value("percentile-metrics").orElseThrow()));
    }
    ResultOptions.Builder withMetrics = b;
    b = flagged("metric-percentiles",
        () -> withMetrics.metricPercentiles(args.value("metric-percentiles").orElseThrow()));
    if (args.has("label")) {
      b = b.label(args.value("label").orElseThrow());
    }
    if (!args.values("metadata").isEmpty()) {
      ResultOptions.Builder current = b;
      b = flagged("metadata",
          () -> current.metadataPairs(args.values("metadata").toArray(new String[0])));
    }
    if (args.has("result-dir")) {
      ResultOptions.Builder current = b;
      b = flagged("result-dir", () -> current.resultDir(args.value("result-dir").orElseThrow()));
    }
    if (args.has("result-filename")) {
      ResultOptions.Builder current = b;
      b = flagged("result-filename",
          () -> current.resultFilename(args.value("result-filename").orElseThrow()));
    }
    if (args.has("goodput")) {
      ResultOptions.Builder current = b;
      b = flagged("goodput", () -> current.goodput(String.join(" ", args.values("goodput"))));
    }
    if (args.on("stop-on-server-noncompliance")) {
      b = b.stopOnServerNonCompliance(true);
    }
    return SteadyStateFlags.apply(args, b).build();
  }

  /** vLLM's {@code --num-warmups}; null for {@code auto} (the plugin's own warm-up). */
  static Integer warmUps(BenchArgs args) {
    String v = args.value("num-warmups").orElseThrow().strip();
    if (v.equals("auto")) {
      return null;
    }
    int n = args.integer("num-warmups").orElseThrow();
    if (n < 0) {
      throw new IllegalArgumentException("--num-warmups must be >= 0 (or auto), got " + n);
    }
    return n;
  }


  /**
   * The dataset flags for {@code DatasetAccess.fromFlags}: those given, plus vLLM's defaults of
   * the ones whose default differs from the dataset builders' own; the values as converted
   * when parsed.
   */
  static GivenValues datasetFlags(BenchArgs args, String requestIdPrefix) {
    GivenValues.Builder flags = GivenValues.builder();
    for (String name : List.of("dataset-name", "num-prompts", "seed")) {
      flags.copy(name, args);
    }
    flags.text("request-id-prefix", requestIdPrefix);
    // older vLLM's name of the dataset file
    if (args.has("dataset") && !args.has("dataset-path")) {
      flags.copy("dataset", args, "dataset-path");
    }
    args.names().stream().filter(Datasets.FLAGS::contains).forEach(f -> flags.copy(f, args));
    // vLLM's general lengths win over the dataset's own flags; a dataset without such a
    // length ignores them, as vLLM's do
    String name = args.value("dataset-name").orElseThrow();
    if (args.has("input-len") && INPUT_LEN.containsKey(name)) {
      flags.copy("input-len", args, INPUT_LEN.get(name));
    }
    if (args.has("output-len") && OUTPUT_LEN.containsKey(name)) {
      flags.copy("output-len", args, OUTPUT_LEN.get(name));
    }
    return flags.build();
  }

  /** The flag {@code --input-len} sets, by dataset: vLLM sets {@code random_input_len}. */
  private static final Map<String, String> INPUT_LEN = Map.of("random", "random-input-len",
      "random-mm", "random-input-len", "random-rerank", "random-input-len");

  /** The flag {@code --output-len} sets, by dataset, as vLLM maps it. */
  private static final Map<String, String> OUTPUT_LEN = Map.of("random", "random-output-len",
      "random-mm", "random-output-len", "sharegpt", "sharegpt-output-len",
      "custom", "custom-output-len", "hf", "hf-output-len",
      "spec_bench", "spec-bench-output-len", "prefix_repetition", "prefix-repetition-output-len");


  static Map<String, String> pairs(String flag, List<String> items, String format) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String item : items) {
      int eq = item.indexOf('=');
      if (eq < 0) {
        throw new IllegalArgumentException("--" + flag + " '" + item + "': " + format);
      }
      out.put(item.substring(0, eq).strip(), item.substring(eq + 1).strip());
    }
    return out;
  }
}
