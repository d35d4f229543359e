package dev.gatlingllm.internal.report;

import dev.gatlingllm.internal.metrics.BenchmarkMetrics;
import dev.gatlingllm.internal.metrics.RecordSource;
import dev.gatlingllm.internal.options.ResultOptionsAccess;
import dev.gatlingllm.options.ResultOptions;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The LLM report of one run: {@value #FILE_NAME}, one self-contained HTML page (headline
 * figures and settings, charts over time, distributions, request timeline, goodput, server
 * metrics, the client's self-check, failures) that opens offline.
 */
public final class LlmReport {

  /** The report's file name in the run folder. */
  public static final String FILE_NAME = "llm-report.html";

  private LlmReport() {}

  /**
   * Writes the report.
   *
   * @param file     where to write it
   * @param doc      the result JSON as it was written (its per-request arrays are skipped)
   * @param requests the requests the metrics were computed from, in the same order
   * @param metrics  the computed metrics (the per-request output lengths are taken from them)
   * @param origin   the benchmark start
   */
  static Path write(Path file, Map<String, Object> doc, RecordSource requests,
      BenchmarkMetrics metrics, long origin, ResultOptions options) throws IOException {
    int[] outputLens = new int[requests.size()];
    for (int i = 0; i < outputLens.length; i++) {
      outputLens[i] = metrics.outputLen(i);
    }
    Map<String, Object> data = ReportData.build(headline(doc), requests, outputLens, origin,
        ResultOptionsAccess.goodput(options), options.timelineThresholdsMs());
    return writePage(file, title(doc), "report.js", data);
  }

  /** The result JSON's figures and settings: everything but the per-request arrays. */
  public static Map<String, Object> headline(Map<String, Object> doc) {
    Map<String, Object> out = new LinkedHashMap<>(doc);
    ResultDocument.DETAILED_KEYS.forEach(out::remove);
    return out;
  }

  static String title(Map<String, Object> doc) {
    Object label = doc.get("label");
    return "LLM report: " + (label != null ? label + " · " : "") + doc.get("model_id")
        + " · " + doc.get("backend") + " · " + doc.get("date");
  }

  public static Path writePage(Path file, String title, String app, Map<String, Object> data)
      throws IOException {
    String html = HtmlPage.render(title, app, data);
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      out.write(html);
    }
    return file;
  }
}
