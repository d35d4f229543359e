package dev.gatlingllm.internal.sweep;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code summary.csv} as vLLM's sweep writes it with pandas: an unnamed index column, then
 * one column per key in first-seen order, one row per run; absent values empty, booleans
 * {@code True}/{@code False}, floats as Python prints them.
 */
final class Csv {

  private Csv() {}

  static void write(Path file, List<Map<String, Object>> records) {
    Set<String> columns = new LinkedHashSet<>();
    records.forEach(r -> columns.addAll(r.keySet()));
    StringBuilder out = new StringBuilder();
    for (String c : columns) {
      out.append(',').append(cell(c));
    }
    out.append('\n');
    for (int i = 0; i < records.size(); i++) {
      out.append(i);
      Map<String, Object> r = records.get(i);
      for (String c : columns) {
        out.append(',');
        Object v = r.get(c);
        if (v != null) {
          out.append(cell(Params.text(v)));
        }
      }
      out.append('\n');
    }
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
        w.write(out.toString());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  /** A CSV cell, quoted when it holds a comma, a quote or a line break. */
  static String cell(String text) {
    if (text.contains(",") || text.contains("\"") || text.contains("\n")
        || text.contains("\r")) {
      return '"' + text.replace("\"", "\"\"") + '"';
    }
    return text;
  }
}
