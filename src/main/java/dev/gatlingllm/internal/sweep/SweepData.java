package dev.gatlingllm.internal.sweep;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** The run records of a sweep folder, as {@code plot} and {@code plot_pareto} read them. */
public final class SweepData {

  /** Record key: the point's folder, relative to the sweep folder (runs of one point share it). */
  public static final String POINT_KEY = "sweep_point";
  /** Record key: the run's own folder (reports), relative to the sweep folder. */
  public static final String RUN_KEY = "sweep_run";
  /** The result's figures of each replica ({@code --base-url} given several times). */
  static final String PER_URL = "per_url";
  /** Record key of {@link #perReplica}: the replica's URL, one curve each. */
  static final String URL_KEY = "url";
  private static final Pattern RUN_FILE = Pattern.compile("run=\\d+\\.json");

  private SweepData() {}

  /**
   * Every {@code run=N.json} under {@code folder}, in path order. The folder may be one sweep
   * ({@code <output>/<timestamp>}) or an output dir holding several.
   */
  public static List<Map<String, Object>> read(Path folder) {
    if (!Files.isDirectory(folder)) {
      throw new IllegalArgumentException("No parameter sweep results under " + folder);
    }
    List<Path> files;
    try (Stream<Path> walk = Files.walk(folder)) {
      files = walk.filter(p -> RUN_FILE.matcher(p.getFileName().toString()).matches())
          .filter(Files::isRegularFile).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + folder + ": " + e.getMessage(), e);
    }
    if (files.isEmpty()) {
      throw new IllegalArgumentException("No parameter sweep results under " + folder
          + " (no run=N.json files)");
    }
    List<Map<String, Object>> records = new ArrayList<>();
    for (Path f : files) {
      records.add(Params.readObject(f));
    }
    return records;
  }

  /**
   * A record's value at {@code key}; a key with dots that is not a key of the record itself
   * names a value inside its objects, so that {@code gpu_energy.output_tokens_per_joule} can
   * be plotted as any top-level figure. A part may pick one element of a list in brackets, by
   * its index or by its {@code url}, whose dots do not split it:
   * {@code per_url[http://10.0.0.2:8000].output_throughput}. Null when absent.
   */
  static Object value(Map<String, Object> record, String key) {
    if (record.containsKey(key) || key.indexOf('.') < 0 && key.indexOf('[') < 0) {
      return record.get(key);
    }
    Object v = record;
    for (String part : parts(key)) {
      int bracket = part.indexOf('[');
      if (!(v instanceof Map<?, ?> m)) {
        return null;
      }
      v = m.get(bracket < 0 ? part : part.substring(0, bracket));
      if (bracket >= 0) {
        v = element(v, part.substring(bracket + 1, part.length() - 1));
      }
    }
    return v;
  }

  /** The key's parts between dots, a dot inside brackets being part of the selector. */
  private static List<String> parts(String key) {
    List<String> parts = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      depth += c == '[' ? 1 : c == ']' ? -1 : 0;
      if (c == '.' && depth == 0) {
        parts.add(key.substring(start, i));
        start = i + 1;
      }
    }
    parts.add(key.substring(start));
    return parts;
  }

  /** The element of a list at an index, else the one whose {@code url} is {@code selector}. */
  private static Object element(Object list, String selector) {
    if (!(list instanceof List<?> items)) {
      return null;
    }
    if (selector.matches("\\d+")) {
      int i = Integer.parseInt(selector);
      return i < items.size() ? items.get(i) : null;
    }
    for (Object item : items) {
      if (item instanceof Map<?, ?> m && selector.equals(m.get("url"))) {
        return item;
      }
    }
    return null;
  }

  /**
   * One record per replica of each run given several {@code --base-url}: the run's record
   * with {@value #URL_KEY} set to the replica's URL and each of the replica's figures under
   * {@code per_url.<figure>}, so that one curve per URL can be drawn of any of them. Runs
   * against one server have no replica figures and give no record.
   */
  static List<Map<String, Object>> perReplica(List<Map<String, Object>> records) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map<String, Object> r : records) {
      if (r.get(PER_URL) instanceof List<?> replicas) {
        for (Object replica : replicas) {
          if (replica instanceof Map<?, ?> figures) {
            Map<String, Object> copy = new LinkedHashMap<>(r);
            copy.put(URL_KEY, String.valueOf(figures.get("url")));
            figures.forEach((k, v) -> copy.put(PER_URL + "." + k, v));
            out.add(copy);
          }
        }
      }
    }
    return out;
  }

  /**
   * Several figures of each record drawn as one key, a series each: a copy of the record per
   * figure it has a number for, with {@code seriesKey} set to the figure's label and
   * {@code valueKey} to its value. The TTFT's network, server and stream parts become three
   * curves of one chart.
   *
   * @param figures each series' label and the key of its value, in drawing order
   */
  static List<Map<String, Object>> series(List<Map<String, Object>> records, String seriesKey,
      String valueKey, Map<String, String> figures) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map<String, Object> r : records) {
      figures.forEach((label, key) -> {
        double v = number(r, key);
        if (Double.isFinite(v)) {
          Map<String, Object> copy = new LinkedHashMap<>(r);
          copy.put(seriesKey, label);
          copy.put(valueKey, v);
          out.add(copy);
        }
      });
    }
    return out;
  }

  /** A record's value as a number; NaN when absent, null or not numeric. */
  public static double number(Map<String, Object> record, String key) {
    Object v = value(record, key);
    if (v instanceof Number n) {
      return n.doubleValue();
    }
    if (v instanceof String s) {
      if (s.equals("inf")) {
        return Double.POSITIVE_INFINITY;
      }
      try {
        return Double.parseDouble(s);
      } catch (NumberFormatException e) {
        return Double.NaN;
      }
    }
    return Double.NaN;
  }

  /** A record's value as text, for grouping and labels ({@code None} when absent). */
  public static String text(Map<String, Object> record, String key) {
    Object v = value(record, key);
    return v == null ? "None" : Params.text(v);
  }
}
