package dev.gatlingllm.internal.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The dataset-statistics chart ({@code --plot-dataset-stats}, {@code --dry-run}): the prompt and
 * output token histograms side by side, with each distribution's figures under its panel, as
 * one small SVG file that any browser opens (no script, no library).
 */
public final class DatasetStatsChart {

  /** The file written into the folder given. */
  public static final String FILE_NAME = "dataset-stats.svg";

  private static final int PANEL_W = 460;
  private static final int MARGIN_L = 56;
  private static final int MARGIN_R = 30;
  private static final int TOP = 56;
  private static final int PLOT_H = 200;
  private static final int HEIGHT = TOP + PLOT_H + 86;
  /** The widest bar, so that one length is not one wall of colour. */
  private static final double MAX_BAR_W = 60;
  /** Up to this many bars, each is named under it; more, the axis' two ends are. */
  private static final int NAMED_BARS = 6;
  private static final String[] COLORS = {"#2e6bd8", "#e07b12"};

  private DatasetStatsChart() {}

  /**
   * Writes {@value #FILE_NAME} into {@code folder} (created if missing) and returns it.
   *
   * @param title what was sampled, such as {@code "random, 200 requests"}
   */
  public static Path write(DatasetStats stats, String title, Path folder) throws IOException {
    Files.createDirectories(folder);
    Path file = folder.resolve(FILE_NAME);
    Files.writeString(file, svg(stats, title), StandardCharsets.UTF_8);
    return file;
  }

  static String svg(DatasetStats stats, String title) {
    int width = 2 * PANEL_W;
    StringBuilder s = new StringBuilder(8192);
    s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(width)
        .append("\" height=\"").append(HEIGHT).append("\" viewBox=\"0 0 ").append(width)
        .append(' ').append(HEIGHT).append("\" font-family=\"sans-serif\" font-size=\"12\">\n")
        .append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    text(s, width / 2.0, 22, "middle", 15, "Dataset statistics: " + title);
    panel(s, 0, "Input tokens per request", stats.input(), COLORS[0]);
    panel(s, PANEL_W, "Output tokens per request (max_tokens)", stats.output(), COLORS[1]);
    s.append("</svg>\n");
    return s.toString();
  }

  private static void panel(StringBuilder s, int x0, String title, DatasetStats.Tokens t,
      String color) {
    DatasetStats.Histogram h = t.histogram();
    long[] counts = h.counts();
    long top = 1;
    for (long c : counts) {
      top = Math.max(top, c);
    }
    double left = x0 + MARGIN_L;
    double plotW = PANEL_W - MARGIN_L - MARGIN_R;
    double bottom = TOP + PLOT_H;
    text(s, x0 + PANEL_W / 2.0, TOP - 14, "middle", 13, title);
    // a few lengths (a synthetic dataset) are a few bars of a readable width, each named
    double barW = Math.min(plotW / counts.length, MAX_BAR_W);
    double x = left + (plotW - barW * counts.length) / 2;
    for (int i = 0; i < counts.length; i++) {
      double barH = PLOT_H * (double) counts[i] / top;
      s.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
          + "height=\"%.1f\" fill=\"%s\"><title>%s tokens: %d requests</title></rect>\n",
          x + i * barW, bottom - barH, Math.max(barW - 1, 0.5), barH, color, range(h, i),
          counts[i]));
      if (counts.length <= NAMED_BARS) {
        text(s, x + (i + 0.5) * barW, bottom + 16, "middle", 11, range(h, i));
      }
    }
    // axes: count ticks at 0, half and the top; token ticks at both ends of the bars
    s.append(String.format(Locale.ROOT, "<path d=\"M%.1f %d V%.1f H%.1f\" stroke=\"#333\" "
        + "fill=\"none\"/>\n", left, TOP, bottom, left + plotW));
    for (long c : new long[] {0, top / 2, top}) {
      double y = bottom - PLOT_H * (double) c / top;
      text(s, left - 6, y + 4, "end", 11, Long.toString(c));
    }
    if (counts.length > NAMED_BARS) {
      // the bars' outer edges: the first bar's start, the last bar's end
      text(s, x, bottom + 16, "middle", 11, Integer.toString(h.start()));
      text(s, x + barW * counts.length, bottom + 16, "middle", 11,
          Long.toString((long) h.start() + (long) h.width() * counts.length));
    }
    text(s, left + plotW / 2, bottom + 32, "middle", 11, "tokens");
    text(s, x0 + 14, TOP + PLOT_H / 2.0, "middle", 11, "requests", -90);
    text(s, x0 + PANEL_W / 2.0, bottom + 54, "middle", 12, String.format(Locale.ROOT,
        "min %d · mean %.1f · p50 %.1f · p99 %.1f · max %d", t.min(), t.mean(), t.p50(),
        t.p99(), t.max()));
    text(s, x0 + PANEL_W / 2.0, bottom + 72, "middle", 11, "bars of " + h.width()
        + (h.width() == 1 ? " token" : " tokens"));
  }

  private static String range(DatasetStats.Histogram h, int i) {
    long from = h.start() + (long) i * h.width();
    return h.width() == 1 ? Long.toString(from) : from + "–" + (from + h.width() - 1);
  }

  private static void text(StringBuilder s, double x, double y, String anchor, int size,
      String text) {
    text(s, x, y, anchor, size, text, 0);
  }

  private static void text(StringBuilder s, double x, double y, String anchor, int size,
      String text, int rotate) {
    s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" "
        + "font-size=\"%d\"%s>%s</text>\n", x, y, anchor, size, rotate == 0 ? ""
            : String.format(Locale.ROOT, " transform=\"rotate(%d %.1f %.1f)\"", rotate, x, y),
        escape(text)));
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
