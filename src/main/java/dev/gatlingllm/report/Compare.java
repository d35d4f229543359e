package dev.gatlingllm.report;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.internal.metrics.GoodputSlo;
import dev.gatlingllm.internal.metrics.RecordSource;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.report.Comparability;
import dev.gatlingllm.internal.report.CompareCommand;
import dev.gatlingllm.internal.report.CompareTable;
import dev.gatlingllm.internal.report.HtmlPage;
import dev.gatlingllm.internal.report.LlmReport;
import dev.gatlingllm.internal.report.ReportData;
import dev.gatlingllm.internal.tool.Tool;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * Several runs side by side in one {@code compare.html}: the headline figures with their
 * differences from the first run, distributions and over-time charts overlaid, each run named
 * by its label, model and backend. For A/B tests of servers, versions or settings.
 *
 * <p>Each input is a Gatling run folder (its {@code llm-report.html}, else its result JSON), an
 * {@code llm-report.html}, or a result JSON (every line of an appended file is a run). A result
 * JSON beside the report of the same run gets that report's charts; a detailed one
 * ({@code --save-detailed}) gets charts laid out from its own per-request arrays; any other
 * gets the table only.
 *
 * <pre>{@code
 * Compare.write(List.of(Path.of("target/gatling/a-20261101"), Path.of("b.json")),
 *     Path.of("compare.html"));
 * }</pre>
 */
public final class Compare {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<LinkedHashMap<String, Object>> MAP = new TypeReference<>() {};

  private Compare() {}

  /**
   * {@code Compare [-o compare.html] <run folder | llm-report.html | result.json> ...}: writes the
   * page (default {@code compare.html} in the working directory) and prints its path.
   */
  public static void main(String[] args) {
    int status = Tool.main(new CompareCommand(), args);
    if (status != 0) {
      System.exit(status);
    }
  }

  /**
   * Writes the comparison of {@code inputs} (run folders, reports or result JSONs) to
   * {@code out} and returns it.
   *
   * @throws IllegalArgumentException when an input is none of those or holds no run
   */
  public static Path write(List<Path> inputs, Path out) throws IOException {
    return writeWithWarning(inputs, out).getKey();
  }

  /** {@link #write}, with why the runs are not comparable (null when they were run alike). */
  public static Map.Entry<Path, String> writeWithWarning(List<Path> inputs, Path out)
      throws IOException {
    List<Map<String, Object>> runs = new ArrayList<>();
    for (Path input : inputs) {
      runs.addAll(read(input));
    }
    if (runs.isEmpty()) {
      throw new IllegalArgumentException("no run found in " + inputs);
    }
    Path page = writePage(runs, out);
    return new java.util.AbstractMap.SimpleImmutableEntry<>(page, notAlike(runs));
  }

  private static Path writePage(List<Map<String, Object>> runs, Path out) throws IOException {
    name(runs);
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("kind", "compare");
    data.put("runs", runs);
    data.put("differences", table(runs).toJson());
    data.put("warning", notAlike(runs));
    return LlmReport.writePage(out, "LLM runs compared: " + runs.size() + " runs", "compare.js",
        data);
  }

  /** Why the runs' figures are not comparable; null when they were run alike. */
  private static String notAlike(List<Map<String, Object>> runs) {
    return Comparability.warning(runs.stream().map(r -> (Map<?, ?>) r.get("result")).toList());
  }

  private static CompareTable table(List<Map<String, Object>> runs) {
    return CompareTable.of(runs.stream().map(r -> (Map<?, ?>) r.get("result")).toList());
  }

  /**
   * Run B against run A ({@code --compare A.json B.json}): writes their comparison page to
   * {@code out} and returns the table of differences, as the console prints it.
   *
   * @throws IllegalArgumentException naming the file when one is missing, is not a result
   *     JSON, or holds several runs
   */
  public static Pair pair(Path a, Path b, Path out) throws IOException {
    List<Map<String, Object>> runs = new ArrayList<>();
    for (Path input : List.of(a, b)) {
      List<Map<String, Object>> held = read(input);
      if (held.size() != 1) {
        throw new IllegalArgumentException(input + " holds " + held.size() + " runs (an "
            + "appended result file): give two files of one run each, or compare them all with "
            + "`gatling-llm compare`");
      }
      runs.addAll(held);
    }
    Path page = writePage(runs, out);
    return new Pair(String.valueOf(runs.get(0).get("name")), String.valueOf(
        runs.get(1).get("name")), table(runs).console(), page, notAlike(runs));
  }

  /**
   * Two runs compared.
   *
   * @param nameA label · model · backend of run A
   * @param table the differences of B from A, as the console prints them
   * @param page  the comparison page written
   * @param warning why the two runs' figures are not comparable (other prompts, rate, model,
   *                lengths...), null when they were run alike
   */
  public record Pair(String nameA, String nameB, String table, Path page,
      String warning) {}

  /** The runs of a comparison page's data (for tests and tools). */
  static List<Object> runs(String pageData) throws IOException {
    Map<String, Object> data = JSON.readValue(pageData, MAP);
    return (List<Object>) data.get("runs");
  }

  /** The runs one input holds. */
  static List<Map<String, Object>> read(Path input) throws IOException {
    if (Files.isDirectory(input)) {
      Path report = input.resolve(LlmReport.FILE_NAME);
      if (Files.isRegularFile(report)) {
        return List.of(fromReport(report));
      }
      List<Path> results;
      try (Stream<Path> files = Files.list(input)) {
        results = files.filter(p -> p.toString().endsWith(".json")
            && !p.toString().endsWith(".pytorch.json")).sorted().toList();
      }
      List<Map<String, Object>> runs = new ArrayList<>();
      for (Path r : results) {
        runs.addAll(fromResultFile(r, true));
      }
      if (runs.isEmpty()) {
        throw new IllegalArgumentException(input + " holds neither " + LlmReport.FILE_NAME
            + " nor a result JSON");
      }
      return runs;
    }
    if (!Files.isRegularFile(input)) {
      throw new IllegalArgumentException(input + " does not exist");
    }
    if (input.toString().endsWith(".html")) {
      return List.of(fromReport(input));
    }
    List<Map<String, Object>> runs = fromResultFile(input, false);
    if (runs.isEmpty()) {
      throw new IllegalArgumentException(input + " holds no result JSON");
    }
    return runs;
  }

  private static Map<String, Object> fromReport(Path report) throws IOException {
    String data = HtmlPage.data(Files.readString(report, StandardCharsets.UTF_8));
    if (data == null) {
      throw new IllegalArgumentException(report + " is not an LLM report");
    }
    Map<String, Object> page = JSON.readValue(data, MAP);
    if (!"run".equals(page.get("kind"))) {
      throw new IllegalArgumentException(report + " is not the report of one run");
    }
    return view(report.toString(), page);
  }

  /** Each JSON line of a result file; {@code quiet}: skip files that are not results. */
  private static List<Map<String, Object>> fromResultFile(Path file, boolean quiet)
      throws IOException {
    List<Map<String, Object>> runs = new ArrayList<>();
    Path besideReport = file.toAbsolutePath().resolveSibling(LlmReport.FILE_NAME);
    Map<String, Object> beside = Files.isRegularFile(besideReport)
        ? JSON.readValue(Objects.requireNonNull(HtmlPage.data(Files.readString(besideReport))), MAP)
        : null;
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode doc;
      try {
        doc = JSON.readTree(line);
      } catch (IOException e) {
        if (quiet) {
          return runs;
        }
        throw new IllegalArgumentException(file + " is not a vLLM result JSON (one object a line): "
            + e.getMessage());
      }
      if (!doc.isObject() || !doc.has("completed") || !doc.has("date")) {
        if (quiet) {
          return runs;
        }
        throw new IllegalArgumentException(file + " is not a vLLM result JSON (no completed/date)");
      }
      Map<String, Object> result = JSON.convertValue(doc, MAP);
      if (beside != null && result.get("date").equals(((Map<?, ?>) beside.get("result")).get("date"))) {
        runs.add(view(file.toString(), beside));
      } else if (doc.has("itls") && doc.has("start_times") && doc.has("ttfts")) {
        runs.add(view(file.toString(), fromDetailed(doc, result)));
      } else {
        Map<String, Object> page = new LinkedHashMap<>();
        page.put("result", LlmReport.headline(result));
        runs.add(view(file.toString(), page));
      }
    }
    return runs;
  }

  /**
   * The charts of a detailed result, laid out from its per-request arrays by the same code as
   * a run's report (times in seconds from the benchmark start).
   */
  private static Map<String, Object> fromDetailed(JsonNode doc, Map<String, Object> result) {
    int n = doc.get("ttfts").size();
    List<RequestRecord> records = new ArrayList<>(n);
    int[] outputLens = new int[n];
    for (int i = 0; i < n; i++) {
      long start = Math.round(doc.get("start_times").get(i).asDouble() * 1e9);
      boolean ok = doc.path("errors").path(i).asText("").isEmpty();
      JsonNode itls = doc.get("itls").get(i);
      long ttft = Math.round(doc.get("ttfts").get(i).asDouble() * 1e9);
      long latency = Math.round(doc.path("latencies").path(i).asDouble(0) * 1e9);
      int[] chunks = new int[ok ? itls.size() + 1 : 0];
      if (ok) {
        double at = doc.get("ttfts").get(i).asDouble();
        chunks[0] = (int) Math.round(at * 1e6);
        for (int k = 0; k < itls.size(); k++) {
          at += itls.get(k).asDouble();
          chunks[k + 1] = (int) Math.round(at * 1e6);
        }
      }
      outputLens[i] = doc.path("output_lens").path(i).asInt(0);
      records.add(RequestRecord.builder("gen").startNanos(start).ttftNanos(ok ? ttft : -1)
          .latencyNanos(ok ? latency : -1).endNanos(start + latency).chunkMicros(chunks)
          .promptTokens(doc.path("input_lens").path(i).asInt(-1)).outputTokens(outputLens[i])
          .httpStatus(ok ? 200 : 0).success(ok)
          .error(ok ? null : doc.path("errors").path(i).asText()).build());
    }
    return ReportData.build(LlmReport.headline(result), RecordSource.of(records), outputLens, 0,
        GoodputSlo.none(), ReportData.DEFAULT_THRESHOLDS_MS);
  }

  /** What the comparison needs of one run. */
  private static Map<String, Object> view(String source, Map<String, Object> page) {
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("source", source);
    run.put("result", page.get("result"));
    if (page.containsKey("overTime")) {
      run.put("overTime", page.get("overTime"));
    }
    if (page.containsKey("hist")) {
      run.put("hist", page.get("hist"));
    }
    return run;
  }

  /** label · model · backend, with the date added where two runs would share a name. */
  private static void name(List<Map<String, Object>> runs) {
    List<String> names = new ArrayList<>();
    for (Map<String, Object> run : runs) {
      Map<?, ?> r = (Map<?, ?>) run.get("result");
      List<String> parts = new ArrayList<>();
      for (String k : List.of("label", "model_id", "backend")) {
        if (r.get(k) != null) {
          parts.add(String.valueOf(r.get(k)));
        }
      }
      names.add(String.join(" · ", parts));
    }
    for (int i = 0; i < runs.size(); i++) {
      String name = names.get(i);
      boolean clash = names.indexOf(name) != names.lastIndexOf(name);
      Map<?, ?> r = (Map<?, ?>) runs.get(i).get("result");
      runs.get(i).put("name", clash ? name + " · " + r.get("date") : name);
    }
  }
}
