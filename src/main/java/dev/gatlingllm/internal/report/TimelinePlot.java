package dev.gatlingllm.internal.report;

import dev.gatlingllm.internal.metrics.RecordSource;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.metrics.RequestTimes;
import dev.gatlingllm.options.ResultOptions;
import dev.gatlingllm.report.ReportOutcome;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * vLLM's {@code --plot-timeline} file: each request on its own line, a TTFT segment from its
 * start to its first token, then one segment per inter-token gap coloured by the
 * {@code --timeline-itl-thresholds} class it falls in. vLLM draws it with plotly; this one is
 * a self-contained SVG page (no script, nothing fetched), each segment's figures in its
 * tooltip. Adjacent gaps of the same class are drawn as one segment, which looks the same
 * and keeps a long run's file small. Failed requests have no tokens and are left out, as
 * vLLM's plot shows them as empty.
 */
final class TimelinePlot {

  private static final Logger LOG = LoggerFactory.getLogger(TimelinePlot.class);
  /** vLLM's colours: TTFT, then the ITL classes from fastest to slowest. */
  static final String TTFT_COLOUR = "#636EFA";
  private static final String[] CLASS_COLOURS = {"#109618", "#FF7F0E", "#D62728", "#000000"};
  private static final int LEFT = 80;
  private static final int TOP = 40;
  private static final int PLOT_WIDTH = 1100;
  private static final int LEGEND = 30;

  private TimelinePlot() {}

  /** One drawn segment: request index (in start order), seconds from the first start. */
  record Segment(int request, double startSec, double endSec, int kind, int gaps) {
    /** {@code kind} -1 is the TTFT; 0.. is the ITL class (0 = below the first threshold). */
    static final int TTFT = -1;
  }

  /**
   * Where vLLM writes the plot: the result file name with its extension replaced by
   * {@code .timeline.html} (Python's {@code Path.with_suffix}).
   */
  public static Path beside(Path resultFile) {
    String name = resultFile.getFileName().toString();
    int dot = name.lastIndexOf('.');
    String stem = dot > 0 ? name.substring(0, dot) : name;
    return resultFile.resolveSibling(stem + ".timeline.html");
  }

  /**
   * Writes the plot beside {@code resultFile} and says where, as vLLM does ("Timeline plot
   * saved to: ..."), printed when the options print the summary and added to the outcome's
   * summary (which a simulation prints at exit). A plot that cannot be written is logged and
   * left out, as vLLM only warns: the result JSON is what counts.
   */
  static ReportOutcome writeBeside(ReportOutcome outcome, Path resultFile, RecordSource rs,
      ResultOptions options, PrintStream console) {
    Path file = beside(resultFile);
    try {
      write(file, rs, options.timelineThresholdsMs(), "Request timeline: " + resultFile
          .getFileName());
    } catch (IOException | RuntimeException e) {
      LOG.warn("Failed to generate timeline plot {}: {}", file, e.toString());
      return outcome;
    }
    String line = "Timeline plot saved to: " + file;
    if (options.printSummary()) {
      console.println(line);
      console.flush();
    }
    return outcome.withSummaryLine(line);
  }

  /** The ITL class of a gap: how many thresholds (ms, ascending) it reaches. */
  static int itlClass(double gapMs, double[] thresholdsMs) {
    int c = 0;
    while (c < thresholdsMs.length && gapMs >= thresholdsMs[c]) {
      c++;
    }
    return c;
  }

  /** The legend's names of the ITL classes, in vLLM's words ({@code ITL < 25ms}, ...). */
  static List<String> classLabels(double[] thresholdsMs) {
    List<String> out = new ArrayList<>();
    out.add("ITL < " + ms(thresholdsMs[0]));
    for (int i = 1; i < thresholdsMs.length; i++) {
      out.add(ms(thresholdsMs[i - 1]) + " \u2264 ITL < " + ms(thresholdsMs[i]));
    }
    out.add("ITL \u2265 " + ms(thresholdsMs[thresholdsMs.length - 1]));
    return out;
  }

  /**
   * The segments of every successful request, times from the earliest start of any request
   * (vLLM's t0).
   */
  static List<Segment> segments(RecordSource rs, double[] thresholdsMs) {
    List<Segment> out = new ArrayList<>();
    if (rs.size() == 0) {
      return out;
    }
    long t0 = Long.MAX_VALUE;
    for (int i = 0; i < rs.size(); i++) {
      t0 = Math.min(t0, rs.record(i).startNanos());
    }
    for (int i = 0; i < rs.size(); i++) {
      RequestRecord r = rs.record(i);
      if (!r.success() || r.ttftNanos() < 0) {
        continue;
      }
      double start = RequestTimes.startSeconds(r, t0);
      double at = start + RequestTimes.ttftSeconds(r);
      out.add(new Segment(i, start, at, Segment.TTFT, 0));
      int cls = -1;
      int gaps = 0;
      double from = at;
      for (int k = 0; k < r.itlCount(); k++) {
        double gap = r.itlSeconds(k);
        int c = itlClass(gap * 1e3, thresholdsMs);
        if (c != cls && cls >= 0) {
          out.add(new Segment(i, from, at, cls, gaps));
          from = at;
          gaps = 0;
        }
        cls = c;
        gaps++;
        at += gap;
      }
      if (cls >= 0) {
        out.add(new Segment(i, from, at, cls, gaps));
      }
    }
    return out;
  }

  /**
   * Writes the page.
   *
   * @param thresholdsMs ITL thresholds, ms, ascending, at least one
   */
  public static void write(Path file, RecordSource rs, double[] thresholdsMs, String title)
      throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      out.write(html(rs, thresholdsMs, title));
    }
  }

  static String html(RecordSource rs, double[] thresholdsMs, String title) {
    List<Segment> segments = segments(rs, thresholdsMs);
    List<String> labels = classLabels(thresholdsMs);
    int rows = rs.size();
    // a readable line per request for small runs, the whole run on one screen for large ones
    double rowHeight = rows <= 200 ? 14 : Math.max(1.0, 2800.0 / rows);
    double end = 0;
    for (Segment s : segments) {
      end = Math.max(end, s.endSec());
    }
    double step = tickStep(end);
    double span = end <= 0 ? 1 : Math.ceil(end / step) * step;
    double plotHeight = Math.max(rowHeight * rows, 20);
    int height = (int) Math.ceil(TOP + plotHeight + 50 + LEGEND);
    StringBuilder b = new StringBuilder(64 * segments.size() + 4096);
    b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
        .append(escape(title)).append("</title>\n<style>body{font-family:sans-serif;margin:16px}"
            + " svg text{font-size:12px} rect:hover{stroke:#000;stroke-width:1}</style>"
            + "</head><body>\n<h3>").append(escape(title)).append("</h3>\n<p>")
        .append(segments.isEmpty() ? "No successful request to draw."
            : rows + " requests; each line is one request (Req 0 at the top, in start order):"
                + " its TTFT, then its inter-token latencies coloured by class."
                + " Hover a segment for its figures.")
        .append("</p>\n");
    b.append(String.format(Locale.ROOT,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\">%n",
        LEFT + PLOT_WIDTH + 20, height));
    double scale = PLOT_WIDTH / span;
    for (Segment s : segments) {
      double x = LEFT + s.startSec() * scale;
      double w = Math.max((s.endSec() - s.startSec()) * scale, 0.5);
      double y = TOP + s.request() * rowHeight;
      String kind = s.kind() == Segment.TTFT ? "TTFT" : labels.get(s.kind());
      String colour = s.kind() == Segment.TTFT ? TTFT_COLOUR : colour(s.kind());
      b.append(String.format(Locale.ROOT,
          "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"><title>Req %d"
              + "%n%s%s%nstart %.3f s, end %.3f s, duration %.3f s</title></rect>%n",
          x, y, w, Math.max(rowHeight * 0.8, 1.0), colour, s.request(), escape(kind),
          s.kind() == Segment.TTFT ? "" : " (" + s.gaps() + (s.gaps() == 1 ? " gap)" : " gaps)"),
          s.startSec(), s.endSec(), s.endSec() - s.startSec()));
    }
    axis(b, span, step, plotHeight, rowHeight, rows);
    legend(b, labels, TOP + plotHeight + 45);
    b.append("</svg>\n</body></html>\n");
    return b.toString();
  }

  private static void axis(StringBuilder b, double span, double step, double plotHeight,
      double rowHeight, int rows) {
    double bottom = TOP + plotHeight;
    b.append(String.format(Locale.ROOT,
        "<line x1=\"%d\" y1=\"%.2f\" x2=\"%d\" y2=\"%.2f\" stroke=\"#444\"/>%n",
        LEFT, bottom, LEFT + PLOT_WIDTH, bottom));
    for (int k = 0; k * step <= span + step / 1e6; k++) {
      double x = LEFT + k * step * PLOT_WIDTH / span;
      b.append(String.format(Locale.ROOT,
          "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#ddd\"/>"
              + "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">%s</text>%n",
          x, TOP, x, bottom, x, bottom + 16, tick(k * step)));
    }
    b.append(String.format(Locale.ROOT,
        "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">Time since the first request (s)"
            + "</text>%n", LEFT + PLOT_WIDTH / 2.0, bottom + 34));
    // request labels where they fit, else every k-th
    int every = (int) Math.max(1, Math.ceil(14 / rowHeight));
    for (int i = 0; i < rows; i += every) {
      b.append(String.format(Locale.ROOT,
          "<text x=\"%d\" y=\"%.2f\" text-anchor=\"end\">Req %d</text>%n",
          LEFT - 6, TOP + i * rowHeight + Math.min(rowHeight, 14) * 0.8, i));
    }
  }

  private static void legend(StringBuilder b, List<String> labels, double y) {
    int x = LEFT;
    List<String> names = new ArrayList<>();
    names.add("TTFT");
    names.addAll(labels);
    for (int i = 0; i < names.size(); i++) {
      String colour = i == 0 ? TTFT_COLOUR : colour(i - 1);
      b.append(String.format(Locale.ROOT,
          "<rect x=\"%d\" y=\"%.2f\" width=\"14\" height=\"14\" fill=\"%s\"/>"
              + "<text x=\"%d\" y=\"%.2f\">%s</text>%n",
          x, y, colour, x + 20, y + 12, escape(names.get(i))));
      x += 40 + 8 * names.get(i).length();
    }
  }

  private static String colour(int cls) {
    return CLASS_COLOURS[Math.min(cls, CLASS_COLOURS.length - 1)];
  }

  /** A tick step of 1, 2 or 5 × 10^k giving at most about ten ticks. */
  static double tickStep(double span) {
    if (span <= 0) {
      return 1;
    }
    double raw = span / 10;
    double pow = Math.pow(10, Math.floor(Math.log10(raw)));
    for (double m : new double[] {1, 2, 5, 10}) {
      if (m * pow >= raw) {
        return m * pow;
      }
    }
    return 10 * pow;
  }

  private static String tick(double v) {
    String s = String.format(Locale.ROOT, "%.3f", v);
    return s.replaceAll("0+$", "").replaceAll("\\.$", "");
  }

  private static String ms(double v) {
    return (v == Math.rint(v) ? Long.toString((long) v) : tick(v)) + "ms";
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
