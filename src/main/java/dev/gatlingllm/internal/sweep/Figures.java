package dev.gatlingllm.internal.sweep;

import dev.gatlingllm.sweep.AxisScale;
import dev.gatlingllm.sweep.PlotSpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Turns run records into figures: filtered, binned, split by figure / row / column / curve,
 * and each point's repeated runs reduced to mean ± 95 % confidence interval.
 */
final class Figures {

  static final double CONFIDENCE = 0.95;
  /** vLLM's file name of a figure split by {@code --fig-by}: {@code FIGURE-<values>}. */
  static final String FIG_PREFIX = "FIGURE-";

  /** One point of a curve: mean x, y statistics over the point's runs. */
  record Point(double x, Stats y, String label, List<String> runs) {}

  record Curve(String name, List<Point> points) {}

  /** One panel of a figure. */
  record Panel(String row, String col, List<Curve> curves) {}

  record Figure(String name, String varX, String varY, AxisScale scaleX, AxisScale scaleY,
      List<String> rows, List<String> cols, List<Panel> panels) {

    /** Whether any point has an interval to draw. */
    boolean hasIntervals() {
      return panels.stream().flatMap(p -> p.curves().stream())
          .flatMap(c -> c.points().stream()).anyMatch(p -> p.y().hasInterval());
    }

    int pointCount() {
      return panels.stream().flatMap(p -> p.curves().stream()).mapToInt(c -> c.points().size())
          .sum();
    }
  }

  private Figures() {}

  /** {@code plot}'s figures: each curve's points in the order of its load ({@link #loadKey}). */
  static List<Figure> build(List<Map<String, Object>> records, PlotSpec spec) {
    return build(records, spec, loadKey(records));
  }

  /**
   * The load a sweep folder's runs vary: {@code max_concurrency}, else {@code request_rate},
   * when every run has a number for it ({@code inf} counts) and they are not all the same;
   * else null (the points then follow x).
   */
  static String loadKey(List<Map<String, Object>> records) {
    for (String key : List.of("max_concurrency", "request_rate")) {
      Set<Double> values = new LinkedHashSet<>();
      boolean everyRun = true;
      for (Map<String, Object> r : records) {
        double v = SweepData.number(r, key);
        everyRun &= !Double.isNaN(v);
        values.add(v);
      }
      if (everyRun && values.size() > 1) {
        return key;
      }
    }
    return null;
  }

  /**
   * The figures, each curve's points in the order of {@code orderBy} (the swept variable)
   * when given, else of x: latency against throughput is drawn in the order of the load, so
   * that a throughput that falls past saturation turns the curve back instead of zigzagging.
   * An axis {@code per_url.<figure>} draws that figure of each replica, one curve per URL
   * ({@link SweepData#perReplica}) unless a split names {@code url} already.
   */
  static List<Figure> build(List<Map<String, Object>> records, PlotSpec spec, String orderBy) {
    if (perReplica(spec.varX()) || perReplica(spec.varY())) {
      records = SweepData.perReplica(records);
      if (Stream.of(spec.figBy(), spec.rowBy(), spec.colBy(), spec.curveBy())
          .noneMatch(keys -> keys.contains(SweepData.URL_KEY))) {
        List<String> curves = new ArrayList<>(spec.curveBy());
        curves.add(SweepData.URL_KEY);
        spec = spec.withSplits(spec.figBy(), spec.rowBy(), spec.colBy(), curves);
      }
    }
    return split(records, spec, orderBy);
  }

  private static List<Figure> split(List<Map<String, Object>> records, PlotSpec spec,
      String orderBy) {
    List<Map<String, Object>> kept = new ArrayList<>();
    for (Map<String, Object> r : records) {
      if (spec.filters().stream().allMatch(f -> f.keeps(r))) {
        Map<String, Object> copy = new LinkedHashMap<>(r);
        for (PlotSpec.Bin bin : spec.bins()) {
          double v = SweepData.number(copy, bin.key());
          if (!Double.isNaN(v)) {
            copy.put(bin.key(), bin.apply(v));
          }
        }
        kept.add(copy);
      }
    }
    boolean binnedX = spec.bins().stream().anyMatch(b -> b.key().equals(spec.varX()));
    Map<String, List<Map<String, Object>>> byFigure = group(kept, spec.figBy());
    List<Figure> figures = new ArrayList<>();
    for (Map.Entry<String, List<Map<String, Object>>> fig : byFigure.entrySet()) {
      Set<String> rows = new LinkedHashSet<>();
      Set<String> cols = new LinkedHashSet<>();
      Map<String, Map<String, List<Map<String, Object>>>> cells = new LinkedHashMap<>();
      for (Map<String, Object> r : fig.getValue()) {
        String row = label(r, spec.rowBy());
        String col = label(r, spec.colBy());
        rows.add(row);
        cols.add(col);
        cells.computeIfAbsent(row + "\u0000" + col, k -> new LinkedHashMap<>())
            .computeIfAbsent(label(r, spec.curveBy()), k -> new ArrayList<>()).add(r);
      }
      List<Panel> panels = new ArrayList<>();
      for (String row : rows) {
        for (String col : cols) {
          Map<String, List<Map<String, Object>>> curves = cells.get(row + "\u0000" + col);
          if (curves == null) {
            continue;
          }
          List<Curve> list = new ArrayList<>();
          curves.forEach((name, rs) -> list.add(new Curve(name.isEmpty() ? spec.varY() : name,
              points(rs, spec, binnedX, orderBy))));
          panels.add(new Panel(row, col, list));
        }
      }
      String name = fig.getKey().isEmpty() ? spec.varY() + "-vs-" + spec.varX()
          : FIG_PREFIX + fig.getKey();
      figures.add(new Figure(fileName(name), spec.varX(), spec.varY(), spec.scaleX(),
          spec.scaleY(), new ArrayList<>(rows), new ArrayList<>(cols), panels));
    }
    return figures;
  }

  private static boolean perReplica(String key) {
    return key.startsWith(SweepData.PER_URL + ".");
  }

  private static List<Point> points(List<Map<String, Object>> records, PlotSpec spec,
      boolean binnedX, String orderBy) {
    Map<String, List<Map<String, Object>>> byPoint = new LinkedHashMap<>();
    for (Map<String, Object> r : records) {
      double x = SweepData.number(r, spec.varX());
      double y = SweepData.number(r, spec.varY());
      if (!Double.isFinite(x) || !Double.isFinite(y)) {
        continue;
      }
      Object point = r.get(SweepData.POINT_KEY);
      String key = binnedX || point == null ? Params.text(x) : String.valueOf(point);
      byPoint.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
    }
    List<Point> out = new ArrayList<>();
    Map<Point, Double> order = new IdentityHashMap<>();
    byPoint.forEach((key, rs) -> {
      double[] xs = rs.stream().mapToDouble(r -> SweepData.number(r, spec.varX())).toArray();
      double[] ys = rs.stream().mapToDouble(r -> SweepData.number(r, spec.varY())).toArray();
      List<String> runs = rs.stream().map(r -> r.get(SweepData.RUN_KEY))
          .filter(v -> v != null).map(String::valueOf).toList();
      Point p = new Point(Stats.of(xs, CONFIDENCE).mean(), Stats.of(ys, CONFIDENCE), key, runs);
      out.add(p);
      order.put(p, orderBy == null ? p.x()
          : rs.stream().mapToDouble(r -> SweepData.number(r, orderBy)).average().orElse(p.x()));
    });
    out.sort(Comparator.comparingDouble((Point p) -> order.get(p)).thenComparingDouble(Point::x));
    return out;
  }

  /**
   * {@code plot --fig-name}: the figures' files named {@code <prefix>} (one figure) or
   * {@code <prefix>-<fig-by values>}, as vLLM names them.
   */
  static List<Figure> named(List<Figure> figures, String prefix) {
    List<Figure> out = new ArrayList<>();
    for (Figure f : figures) {
      String split = f.name().startsWith(FIG_PREFIX)
          ? "-" + f.name().substring(FIG_PREFIX.length()) : "";
      out.add(new Figure(fileName(prefix + split), f.varX(), f.varY(), f.scaleX(),
          f.scaleY(), f.rows(), f.cols(), f.panels()));
    }
    return out;
  }

  /** Records by the label of their values of {@code keys}, in first-seen order. */
  static Map<String, List<Map<String, Object>>> group(List<Map<String, Object>> records,
      List<String> keys) {
    Map<String, List<Map<String, Object>>> out = new LinkedHashMap<>();
    for (Map<String, Object> r : records) {
      out.computeIfAbsent(label(r, keys), k -> new ArrayList<>()).add(r);
    }
    return out;
  }

  /** {@code k=v-k2=v2} of a record's values of {@code keys}; empty without keys. */
  static String label(Map<String, Object> record, List<String> keys) {
    List<String> parts = new ArrayList<>();
    for (String k : keys) {
      parts.add(k + "=" + SweepData.text(record, k));
    }
    return String.join("-", parts);
  }

  /**
   * A figure's name as its files are named: no {@code /} or {@code ..}, and no {@code :}
   * either, which a replica's URL brings ({@code per_url[http://host:8000]...}) and Windows
   * refuses in a file name.
   */
  static String fileName(String name) {
    return Params.sanitize(name).replace(':', '_');
  }
}
