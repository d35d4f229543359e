package dev.gatlingllm.sweep;

import dev.gatlingllm.internal.sweep.SweepData;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * What {@code plot} draws: y against x, split into figures, rows and columns of panels and
 * curves by result keys, after filters and bins, on any {@link AxisScale}.
 *
 * @param varX    the x key (default {@code request_throughput})
 * @param varY    the y key (default {@code p99_e2el_ms})
 * @param figBy   one figure (file) per value of these keys
 * @param rowBy   one row of panels per value
 * @param colBy   one column of panels per value
 * @param curveBy one curve per value
 * @param filters records kept: {@code key<op>value}, op one of {@code == != <= >= < >}
 * @param bins    values rounded down to a multiple: {@code key%width}
 * @param scaleX  the x axis' scale
 * @param scaleY  the y axis' scale
 */
public record PlotSpec(String varX, String varY, List<String> figBy, List<String> rowBy,
    List<String> colBy, List<String> curveBy, List<Filter> filters, List<Bin> bins,
    AxisScale scaleX, AxisScale scaleY) {

  /** vLLM's default plot: p99 E2EL against request throughput. */
  public static PlotSpec defaults() {
    return new PlotSpec("request_throughput", "p99_e2el_ms", List.of(), List.of(), List.of(),
        List.of(), List.of(), List.of(), AxisScale.LINEAR, AxisScale.LINEAR);
  }

  public PlotSpec withAxes(String x, String y) {
    return new PlotSpec(x, y, figBy, rowBy, colBy, curveBy, filters, bins, scaleX, scaleY);
  }

  public PlotSpec withSplits(List<String> fig, List<String> row, List<String> col,
      List<String> curve) {
    return new PlotSpec(varX, varY, fig, row, col, curve, filters, bins, scaleX, scaleY);
  }

  public PlotSpec withFilters(List<Filter> f, List<Bin> b) {
    return new PlotSpec(varX, varY, figBy, rowBy, colBy, curveBy, f, b, scaleX, scaleY);
  }

  public PlotSpec withScales(AxisScale x, AxisScale y) {
    return new PlotSpec(varX, varY, figBy, rowBy, colBy, curveBy, filters, bins, x, y);
  }

  /** Comma-separated keys ({@code --curve-by a,b}); empty for null or blank. */
  public static List<String> keys(String text) {
    if (text == null || text.isBlank()) {
      return List.of();
    }
    return Arrays.stream(text.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
  }

  /** A record filter, {@code max_concurrency<=64}. */
  public record Filter(String key, String op, String value) {

    static final List<String> OPS = List.of("==", "!=", "<=", ">=", "<", ">");

    /** Parses {@code --filter-by}: comma-separated conditions. */
    public static List<Filter> parseAll(String text) {
      List<Filter> out = new ArrayList<>();
      for (String item : keys(text)) {
        out.add(parse(item));
      }
      return out;
    }

    public static Filter parse(String item) {
      int best = -1;
      String op = null;
      for (String candidate : OPS) {
        int at = item.indexOf(candidate);
        if (at > 0 && (best < 0 || at < best || (at == best && candidate.length() == 2))) {
          best = at;
          op = candidate;
        }
      }
      if (op == null) {
        throw new IllegalArgumentException("--filter-by: '" + item + "' has no operator; "
            + "valid operators are: {'==', '!=', '<=', '>=', '<', '>'}");
      }
      return new Filter(item.substring(0, best).strip(), op,
          item.substring(best + op.length()).strip());
    }

    public boolean keeps(Map<String, Object> record) {
      double actual = SweepData.number(record, key);
      double wanted = numberOf(value);
      boolean numeric = !Double.isNaN(actual) && !Double.isNaN(wanted);
      return switch (op) {
        case "==" -> numeric ? actual == wanted : SweepData.text(record, key).equals(value);
        case "!=" -> numeric ? actual != wanted : !SweepData.text(record, key).equals(value);
        case "<=" -> numeric && actual <= wanted;
        case ">=" -> numeric && actual >= wanted;
        case "<" -> numeric && actual < wanted;
        default -> numeric && actual > wanted;
      };
    }

    private static double numberOf(String s) {
      try {
        return s.equals("inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(s);
      } catch (NumberFormatException e) {
        return Double.NaN;
      }
    }
  }

  /** A bin, {@code request_throughput%1}: values rounded down to a multiple of the width. */
  public record Bin(String key, double width) {

    public Bin {
      if (!(width > 0)) {
        throw new IllegalArgumentException("--bin-by: the width of '" + key + "' must be > 0");
      }
    }

    /** Parses {@code --bin-by}: comma-separated {@code key%width}. */
    public static List<Bin> parseAll(String text) {
      List<Bin> out = new ArrayList<>();
      for (String item : keys(text)) {
        int at = item.lastIndexOf('%');
        if (at <= 0) {
          throw new IllegalArgumentException("--bin-by: '" + item + "' is not key%width "
              + "(example: request_throughput%1)");
        }
        try {
          out.add(new Bin(item.substring(0, at).strip(),
              Double.parseDouble(item.substring(at + 1).strip())));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("--bin-by: the width in '" + item
              + "' is not a number", e);
        }
      }
      return out;
    }

    public double apply(double v) {
      return Math.floor(v / width) * width;
    }
  }
}
