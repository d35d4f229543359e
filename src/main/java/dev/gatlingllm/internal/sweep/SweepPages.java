package dev.gatlingllm.internal.sweep;

import dev.gatlingllm.internal.report.HtmlPage;
import dev.gatlingllm.internal.report.LlmReport;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The sweep's self-contained HTML pages, drawn with the LLM report's inlined ECharts: the
 * plots ({@code plots.html}), the Pareto chart ({@code pareto.html}) and the one-page
 * {@code sweep-report.html}.
 */
final class SweepPages {

  private SweepPages() {}

  static Path write(Path file, String title, Map<String, Object> data) {
    String html = HtmlPage.renderScript(title, script(), data);
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      Files.writeString(file, html, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
    }
    return file;
  }

  private static String script() {
    try (InputStream in = SweepPages.class.getResourceAsStream("sweep.js")) {
      if (in == null) {
        throw new IllegalStateException("missing resource dev/gatlingllm/sweep/sweep.js");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The figures' data for the page: each point with its runs' flag names ({@link RunFlags}),
   * each curve of latency against throughput with its knee ({@link Knee}; -1 for none).
   */
  static List<Map<String, Object>> figures(List<Figures.Figure> figures,
      List<Map<String, Object>> records) {
    Map<String, List<String>> flagsByRun = flagsByRun(records);
    List<Map<String, Object>> out = new ArrayList<>();
    for (Figures.Figure f : figures) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", f.name());
      m.put("varX", f.varX());
      m.put("varY", f.varY());
      m.put("scaleX", f.scaleX().key());
      m.put("scaleY", f.scaleY().key());
      m.put("hasIntervals", f.hasIntervals());
      List<Map<String, Object>> panels = new ArrayList<>();
      for (Figures.Panel p : f.panels()) {
        List<Map<String, Object>> curves = new ArrayList<>();
        for (Figures.Curve c : p.curves()) {
          List<Map<String, Object>> points = new ArrayList<>();
          for (Figures.Point pt : c.points()) {
            Map<String, Object> q = new LinkedHashMap<>();
            q.put("x", pt.x());
            q.put("y", pt.y().mean());
            q.put("n", pt.y().n());
            q.put("std", pt.y().hasInterval() ? pt.y().std() : null);
            q.put("lo", pt.y().hasInterval() ? pt.y().ciLow() : null);
            q.put("hi", pt.y().hasInterval() ? pt.y().ciHigh() : null);
            q.put("label", pt.label());
            q.put("flags", flagsOf(pt, flagsByRun));
            points.add(q);
          }
          curves.add(Map.of("name", c.name(), "points", points, "knee", knee(f, c)));
        }
        panels.add(Map.of("row", p.row(), "col", p.col(), "curves", curves));
      }
      m.put("panels", panels);
      out.add(m);
    }
    return out;
  }

  /**
   * The text an image draws beside a point: {@code knee} on a latency-against-throughput
   * curve, and the flag names of the point's runs; absent for a point with neither.
   */
  static Map<Figures.Point, String> notes(Figures.Figure f, List<Map<String, Object>> records) {
    Map<String, List<String>> flagsByRun = flagsByRun(records);
    Map<Figures.Point, String> notes = new IdentityHashMap<>();
    for (Figures.Panel p : f.panels()) {
      for (Figures.Curve c : p.curves()) {
        int knee = knee(f, c);
        for (int i = 0; i < c.points().size(); i++) {
          Figures.Point pt = c.points().get(i);
          List<String> flags = flagsOf(pt, flagsByRun);
          List<String> parts = new ArrayList<>();
          if (i == knee) {
            parts.add("knee");
          }
          if (!flags.isEmpty()) {
            parts.add("flagged: " + String.join(", ", flags));
          }
          if (!parts.isEmpty()) {
            notes.put(pt, String.join(" · ", parts));
          }
        }
      }
    }
    return notes;
  }

  /** The knee's index on a curve of a latency against a throughput; -1 on other views. */
  private static int knee(Figures.Figure f, Figures.Curve c) {
    if (!f.varX().endsWith("_throughput") || !f.varY().endsWith("_ms")) {
      return -1;
    }
    return Knee.of(c.points().stream().map(Figures.Point::x).toList(),
        c.points().stream().map(pt -> pt.y().mean()).toList());
  }

  /** Each run's flag names, by its folder. */
  private static Map<String, List<String>> flagsByRun(List<Map<String, Object>> records) {
    Map<String, List<String>> out = new HashMap<>();
    for (Map<String, Object> r : records) {
      if (r.get(SweepData.RUN_KEY) != null) {
        out.put(String.valueOf(r.get(SweepData.RUN_KEY)), RunFlags.names(RunFlags.in(r)));
      }
    }
    return out;
  }

  /** The flag names of a point's runs, each once. */
  private static List<String> flagsOf(Figures.Point pt, Map<String, List<String>> flagsByRun) {
    Set<String> flags = new LinkedHashSet<>();
    pt.runs().forEach(run -> flags.addAll(flagsByRun.getOrDefault(run, List.of())));
    return List.copyOf(flags);
  }

  static Map<String, Object> pareto(Pareto.Result p) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("userKey", p.userKey());
    m.put("gpuKey", p.gpuKey());
    m.put("yLabel", p.yLabel());
    m.put("points", p.points().stream().map(SweepPages::paretoPoint).toList());
    m.put("frontier", p.frontier().stream().map(SweepPages::paretoPoint).toList());
    return m;
  }

  private static Map<String, Object> paretoPoint(Pareto.Point q) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("x", q.perUser());
    m.put("y", q.perGpu());
    m.put("label", q.label());
    m.put("point", q.point());
    return m;
  }

  /** Each run's row in the report: key figures and links to its files (relative). */
  static List<Map<String, Object>> runs(Path root, List<Map<String, Object>> records) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map<String, Object> r : records) {
      Map<String, Object> m = new LinkedHashMap<>();
      Object point = r.get(SweepData.POINT_KEY);
      Object run = r.get(SweepData.RUN_KEY);
      m.put("point", point == null ? "" : String.valueOf(point));
      m.put("run_number", r.get("run_number"));
      for (String k : List.of("request_throughput", "output_throughput", "mean_ttft_ms",
          "p99_ttft_ms", "p99_e2el_ms", "failed")) {
        m.put(k, r.get(k));
      }
      m.put("flags", RunFlags.in(r));
      if (run != null) {
        Path dir = root.resolve(String.valueOf(run));
        m.put("json", href(root, dir.resolveSibling(dir.getFileName() + ".json")));
        Path index = gatlingIndex(dir.resolve(ForkedRun.GATLING_DIR));
        // the drop-in writes its LLM report beside Gatling's index.html
        Path llm = index != null && Files.isRegularFile(index.resolveSibling(LlmReport.FILE_NAME))
            ? index.resolveSibling(LlmReport.FILE_NAME) : dir.resolve(LlmReport.FILE_NAME);
        m.put("llm", href(root, llm));
        m.put("console", href(root, dir.resolve(ForkedRun.CONSOLE_FILE)));
        m.put("gatling", href(root, index));
      }
      out.add(m);
    }
    return out;
  }

  private static Path gatlingIndex(Path dir) {
    if (!Files.isDirectory(dir)) {
      return null;
    }
    try (Stream<Path> runs = Files.list(dir)) {
      return runs.map(p -> p.resolve("index.html")).filter(Files::isRegularFile).sorted()
          .reduce((a, b) -> b).orElse(null);
    } catch (IOException e) {
      return null;
    }
  }

  private static String href(Path root, Path file) {
    if (file == null || !Files.isRegularFile(file)) {
      return null;
    }
    StringBuilder s = new StringBuilder();
    for (Path part : root.toAbsolutePath().relativize(file.toAbsolutePath())) {
      if (s.length() > 0) {
        s.append('/');
      }
      s.append(encode(part.toString()));
    }
    return s.toString();
  }

  /** Percent-encodes what a relative URL cannot hold as is (spaces, %, #, ?, quotes). */
  static String encode(String segment) {
    StringBuilder s = new StringBuilder();
    for (byte b : segment.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xff);
      if (c > 0x20 && c < 0x7f && "%#?\"'<>\\`{}|^[]".indexOf(c) < 0) {
        s.append(c);
      } else {
        s.append('%').append(String.format("%02X", b & 0xff));
      }
    }
    return s.toString();
  }
}
