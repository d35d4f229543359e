package dev.gatlingllm.internal.sweep;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
   * be plotted as any top-level figure. Null when absent.
   */
  static Object value(Map<String, Object> record, String key) {
    if (record.containsKey(key) || key.indexOf('.') < 0) {
      return record.get(key);
    }
    Object v = record;
    for (String part : key.split("\\.")) {
      if (!(v instanceof Map<?, ?> m)) {
        return null;
      }
      v = m.get(part);
    }
    return v;
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
