package dev.gatlingllm.internal.sweep;

import dev.gatlingllm.sweep.AxisScale;
import dev.gatlingllm.sweep.PlotSpec;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import javax.imageio.ImageIO;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.labels.XYItemLabelGenerator;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYErrorRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.text.TextUtils;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jfree.data.xy.YIntervalSeries;
import org.jfree.data.xy.YIntervalSeriesCollection;

/**
 * PNG and SVG files of figures, drawn by JFreeChart: a grid of panels per figure, one line
 * per curve, error bars for the 95 % confidence interval where a point had several runs.
 */
final class ChartImages {

  static final int PANEL_WIDTH = 620;
  static final int PANEL_HEIGHT = 420;
  private static final int TITLE_HEIGHT = 34;
  static final Color[] COLORS = {new Color(0x2e6bd8), new Color(0xe07b12),
      new Color(0x14925d), new Color(0xb42318), new Color(0x7a4cc2), new Color(0x0e8a9e),
      new Color(0xa15c07), new Color(0x5b6473)};

  static {
    // charts are drawn off screen, also on machines without a display
    System.setProperty("java.awt.headless", "true");
  }

  /** Output formats of the image files. */
  enum Format {
    PNG, SVG;

    static List<Format> parse(String text) {
      List<Format> out = new ArrayList<>();
      for (String f : PlotSpec.keys(text == null ? "png" : text)) {
        switch (f.toLowerCase(Locale.ROOT)) {
          case "png" -> out.add(PNG);
          case "svg" -> out.add(SVG);
          case "none" -> {
            // HTML only
          }
          default -> throw new IllegalArgumentException("--format: invalid choice: '" + f
              + "' (choose from 'png', 'svg', 'png,svg', 'none')");
        }
      }
      return out;
    }

    String extension() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private ChartImages() {}

  /** Writes a figure as {@code <dir>/<name>.<ext>} per format; returns the files. */
  static List<Path> write(Figures.Figure figure, Path dir, List<Format> formats) {
    return write(figure, dir, formats, p -> null);
  }

  /**
   * As {@link #write(Figures.Figure, Path, List)}, with a text beside each point that
   * {@code note} gives one (the knee, a flagged run's flags), in red.
   */
  static List<Path> write(Figures.Figure figure, Path dir, List<Format> formats,
      java.util.function.Function<Figures.Point, String> note) {
    int cols = Math.max(1, figure.cols().size());
    int rows = Math.max(1, figure.rows().size());
    int width = cols * PANEL_WIDTH;
    int height = rows * PANEL_HEIGHT + TITLE_HEIGHT;
    Consumer<Graphics2D> draw = g -> {
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, width, height);
      g.setColor(Color.DARK_GRAY);
      g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
      g.drawString(figure.name(), 10, 22);
      for (Figures.Panel panel : figure.panels()) {
        int r = Math.max(0, figure.rows().indexOf(panel.row()));
        int c = Math.max(0, figure.cols().indexOf(panel.col()));
        chart(figure, panel, note).draw(g, new Rectangle2D.Double(c * PANEL_WIDTH,
            TITLE_HEIGHT + r * PANEL_HEIGHT, PANEL_WIDTH, PANEL_HEIGHT));
      }
    };
    return write(dir, figure.name(), width, height, draw, formats);
  }

  static List<Path> write(Path dir, String name, int width, int height,
      Consumer<Graphics2D> draw, List<Format> formats) {
    List<Path> files = new ArrayList<>();
    try {
      Files.createDirectories(dir);
      for (Format format : formats) {
        Path file = dir.resolve(name + "." + format.extension());
        if (format == Format.PNG) {
          BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
          Graphics2D g = image.createGraphics();
          g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
          g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING,
              RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
          draw.accept(g);
          g.dispose();
          ImageIO.write(image, "png", file.toFile());
        } else {
          Files.writeString(file, svg(width, height, draw), StandardCharsets.UTF_8);
        }
        files.add(file);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the plot " + name + " into " + dir + ": "
          + e.getMessage(), e);
    }
    return files;
  }

  /**
   * The SVG document of a drawing. JFreeChart draws rotated text (the y axis' label) through a
   * TextLayout by default, a workaround for rotated strings in old JDKs, and a TextLayout
   * reaches a Graphics2D as glyph outlines: the label would be shapes, not text. Java 17 draws
   * rotated strings right, so the workaround is off while the SVG is drawn.
   */
  private static String svg(int width, int height, Consumer<Graphics2D> draw) {
    boolean workaround = TextUtils.isUseDrawRotatedStringWorkaround();
    TextUtils.setUseDrawRotatedStringWorkaround(false);
    try {
      return SvgGraphics.render(width, height, draw);
    } finally {
      TextUtils.setUseDrawRotatedStringWorkaround(workaround);
    }
  }

  private static JFreeChart chart(Figures.Figure figure, Figures.Panel panel,
      java.util.function.Function<Figures.Point, String> note) {
    AxisScale sx = figure.scaleX();
    AxisScale sy = figure.scaleY();
    YIntervalSeriesCollection data = new YIntervalSeriesCollection();
    for (Figures.Curve curve : panel.curves()) {
      YIntervalSeries s = new YIntervalSeries(curve.name(), false, true);
      for (Figures.Point p : curve.points()) {
        if (!sx.accepts(p.x()) || !sy.accepts(p.y().mean())) {
          continue; // nothing outside the scale's domain (at or below zero on a log axis)
        }
        double lo = p.y().hasInterval() ? p.y().ciLow() : p.y().mean();
        double hi = p.y().hasInterval() ? p.y().ciHigh() : p.y().mean();
        if (!sy.accepts(lo)) {
          lo = p.y().mean();
        }
        if (!sy.accepts(hi)) {
          hi = p.y().mean();
        }
        s.add(drawn(sx, p.x()), drawn(sy, p.y().mean()), drawn(sy, lo), drawn(sy, hi));
      }
      data.addSeries(s);
    }
    XYErrorRenderer renderer = new XYErrorRenderer();
    renderer.setDrawXError(false);
    renderer.setDrawYError(true);
    renderer.setDefaultLinesVisible(true);
    renderer.setDefaultShapesVisible(true);
    renderer.setErrorPaint(null); // bars in each series' colour
    renderer.setErrorStroke(new BasicStroke(1.2f));
    renderer.setCapLength(6);
    for (int i = 0; i < panel.curves().size(); i++) {
      renderer.setSeriesPaint(i, COLORS[i % COLORS.length]);
      renderer.setSeriesStroke(i, new BasicStroke(2f));
    }
    XYPlot plot = new XYPlot(data, axis(figure.varX(), sx), axis(figure.varY(), sy), renderer);
    style(plot);
    double middle = panel.curves().stream().flatMap(c -> c.points().stream())
        .filter(p -> sx.accepts(p.x())).mapToDouble(p -> drawn(sx, p.x()))
        .summaryStatistics().getAverage();
    for (Figures.Curve curve : panel.curves()) {
      for (Figures.Point p : curve.points()) {
        String text = note.apply(p);
        if (text != null && sx.accepts(p.x()) && sy.accepts(p.y().mean())) {
          // right of a point in the left half, left of one in the right half: inside the plot
          boolean left = drawn(sx, p.x()) > middle;
          org.jfree.chart.annotations.XYTextAnnotation a =
              new org.jfree.chart.annotations.XYTextAnnotation(left ? text + " " : " " + text,
                  drawn(sx, p.x()), drawn(sy, p.y().mean()));
          a.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
          a.setPaint(COLORS[3]);
          a.setTextAnchor(left ? org.jfree.chart.ui.TextAnchor.BOTTOM_RIGHT
              : org.jfree.chart.ui.TextAnchor.BOTTOM_LEFT);
          plot.addAnnotation(a);
        }
      }
    }
    String title = String.join(" · ", nonEmpty(panel.row(), panel.col()));
    return new JFreeChart(title.isEmpty() ? null : title,
        new Font(Font.SANS_SERIF, Font.PLAIN, 13), plot, true);
  }

  /**
   * Where a value sits in the chart's data: itself on a linear or log axis (JFreeChart's
   * {@link LogAxis} does the log), its {@link AxisScale#forward} on the others.
   */
  private static double drawn(AxisScale scale, double v) {
    return scale == AxisScale.LINEAR || scale == AxisScale.LOG ? v : scale.forward(v);
  }

  /**
   * The axis of a scale: JFreeChart's log axis for {@code log}; for the other non-linear
   * scales a number axis over the scaled values whose tick labels read the values themselves.
   */
  static ValueAxis axis(String label, AxisScale scale) {
    if (scale == AxisScale.LOG) {
      LogAxis a = new LogAxis(label + " (log)");
      a.setSmallestValue(1e-6);
      return a;
    }
    NumberAxis a = new NumberAxis(scale == AxisScale.LINEAR ? label
        : label + " (" + scale.key() + ")");
    a.setAutoRangeIncludesZero(false);
    if (scale != AxisScale.LINEAR) {
      a.setNumberFormatOverride(new ScaledFormat(scale));
    }
    return a;
  }

  /** Tick labels of a scaled axis: the value a position stands for, to 3 significant digits. */
  private static final class ScaledFormat extends java.text.NumberFormat {

    private static final long serialVersionUID = 1L;
    private final AxisScale scale;

    ScaledFormat(AxisScale scale) {
      this.scale = scale;
    }

    @Override
    public StringBuffer format(double number, StringBuffer to, java.text.FieldPosition pos) {
      double v = scale.inverse(number);
      if (!Double.isFinite(v)) {
        return to.append(v);
      }
      return to.append(new java.math.BigDecimal(v).round(new java.math.MathContext(3))
          .stripTrailingZeros().toPlainString());
    }

    @Override
    public StringBuffer format(long number, StringBuffer to, java.text.FieldPosition pos) {
      return format((double) number, to, pos);
    }

    @Override
    public Number parse(String source, java.text.ParsePosition pos) {
      throw new UnsupportedOperationException("tick labels are only written");
    }
  }

  static void style(XYPlot plot) {
    plot.setBackgroundPaint(Color.WHITE);
    plot.setDomainGridlinePaint(new Color(0xdddddd));
    plot.setRangeGridlinePaint(new Color(0xdddddd));
  }

  private static List<String> nonEmpty(String... parts) {
    List<String> out = new ArrayList<>();
    for (String p : parts) {
      if (p != null && !p.isEmpty()) {
        out.add(p);
      }
    }
    return out;
  }

  /** The Pareto chart: every point, the frontier as a line, frontier points labelled. */
  static List<Path> writePareto(Pareto.Result pareto, Path dir, List<Format> formats) {
    XYSeries all = new XYSeries("points", false, true);
    XYSeries front = new XYSeries("Pareto frontier", false, true);
    pareto.points().forEach(p -> all.add(p.perUser(), p.perGpu()));
    pareto.frontier().forEach(p -> front.add(p.perUser(), p.perGpu()));
    XYSeriesCollection data = new XYSeriesCollection();
    data.addSeries(all);
    data.addSeries(front);
    XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer();
    renderer.setSeriesLinesVisible(0, false);
    renderer.setSeriesPaint(0, new Color(0x8a94a6));
    renderer.setSeriesPaint(1, COLORS[3]);
    renderer.setSeriesStroke(1, new BasicStroke(2f));
    XYItemLabelGenerator labels = (dataset, series, item) ->
        series == 1 ? pareto.frontier().get(item).label() : null;
    renderer.setSeriesItemLabelGenerator(1, labels);
    renderer.setSeriesItemLabelsVisible(1, true);
    XYPlot plot = new XYPlot(data, axis(Pareto.X_LABEL, AxisScale.LINEAR),
        axis(pareto.yLabel(), AxisScale.LINEAR),
        renderer);
    style(plot);
    JFreeChart chart = new JFreeChart("Pareto: tokens/s per user vs tokens/s per GPU",
        new Font(Font.SANS_SERIF, Font.PLAIN, 14), plot, true);
    int width = 900;
    int height = 600;
    return write(dir, "pareto", width, height, g -> {
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, width, height);
      chart.draw(g, new Rectangle2D.Double(0, 0, width, height));
    }, formats);
  }
}
