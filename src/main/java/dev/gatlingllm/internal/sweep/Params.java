package dev.gatlingllm.internal.sweep;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Parameter combinations as vLLM's sweep reads them: a JSON list of objects (one combination
 * each), or an object whose keys name the combinations (kept as {@code _benchmark_name}), and
 * how a combination changes a command line.
 */
public final class Params {

  /** The key vLLM's sweep keeps a named combination's name under. */
  public static final String NAME_KEY = "_benchmark_name";
  private static final ObjectMapper JSON = new ObjectMapper();

  private Params() {}

  /** Reads a params file ({@code --serve-params}, {@code --bench-params}). */
  public static List<Map<String, Object>> read(Path file) {
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the parameter file " + file + ": "
          + e.getMessage(), e);
    }
    try {
      return parse(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
    }
  }

  /**
   * Parses the JSON text of a parameter sweep.
   *
   * @throws IllegalArgumentException when it is not JSON, not a list of objects (vLLM's
   *     message), or names a combination twice
   */
  public static List<Map<String, Object>> parse(String json) {
    Object data;
    try {
      data = JSON.readValue(json, Object.class);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
    }
    if (data instanceof Map<?, ?> named) {
      List<Object> records = new ArrayList<>();
      for (Map.Entry<?, ?> e : named.entrySet()) {
        if (!(e.getValue() instanceof Map<?, ?> params)) {
          throw new IllegalArgumentException("The parameter sweep should be a list of "
              + "dictionaries, but found item type: " + pyType(e.getValue()) + " (under \""
              + e.getKey() + "\")");
        }
        Map<String, Object> record = new LinkedHashMap<>();
        record.put(NAME_KEY, String.valueOf(e.getKey()));
        params.forEach((k, v) -> record.put(String.valueOf(k), v));
        records.add(record);
      }
      data = records;
    }
    if (!(data instanceof List<?> list)) {
      throw new IllegalArgumentException("The parameter sweep should be a list of "
          + "dictionaries, but found type: " + pyType(data));
    }
    List<Map<String, Object>> out = new ArrayList<>();
    Set<String> names = new LinkedHashSet<>();
    Set<String> duplicates = new LinkedHashSet<>();
    for (Object item : list) {
      if (!(item instanceof Map<?, ?> comb)) {
        throw new IllegalArgumentException("The parameter sweep should be a list of "
            + "dictionaries, but found item type: " + pyType(item));
      }
      Map<String, Object> record = new LinkedHashMap<>();
      comb.forEach((k, v) -> record.put(String.valueOf(k), v));
      Object name = record.get(NAME_KEY);
      if (name != null && !names.add(String.valueOf(name))) {
        duplicates.add(String.valueOf(name));
      }
      out.add(record);
    }
    if (!duplicates.isEmpty()) {
      throw new IllegalArgumentException("Duplicate " + NAME_KEY + " values found: "
          + duplicates + ". All " + NAME_KEY + " values must be unique.");
    }
    return out;
  }

  /** Python's name of a JSON value's type, as vLLM's message shows it. */
  public static String pyType(Object value) {
    if (value == null) {
      return "<class 'NoneType'>";
    }
    String name;
    if (value instanceof String) {
      name = "str";
    } else if (value instanceof Boolean) {
      name = "bool";
    } else if (value instanceof Integer || value instanceof Long
        || value instanceof java.math.BigInteger) {
      name = "int";
    } else if (value instanceof Number) {
      name = "float";
    } else if (value instanceof List) {
      name = "list";
    } else if (value instanceof Map) {
      name = "dict";
    } else {
      name = value.getClass().getSimpleName();
    }
    return "<class '" + name + "'>";
  }

  /** The spellings a parameter key may have on a command line, as vLLM tries them. */
  static List<String> flagCandidates(String key) {
    Set<String> keys = new LinkedHashSet<>(List.of(key.replace('_', '-'), key.replace('-', '_'),
        key));
    List<String> out = new ArrayList<>();
    keys.forEach(k -> out.add("--" + k));
    return out;
  }

  /** The flag vLLM writes for a key it appends: dashes, not underscores. */
  static String flagOf(String key) {
    return "--" + key.replace('_', '-');
  }

  /**
   * A server command with a combination applied, as vLLM does it: a key already on the
   * command line gets its value replaced, any other is appended as {@code --key value}; a
   * boolean becomes {@code --key} or {@code --no-key}. {@value #NAME_KEY} is not a flag.
   */
  public static List<String> overrideServe(List<String> command, Map<String, Object> comb) {
    List<String> cmd = new ArrayList<>(command);
    comb.forEach((key, value) -> {
      if (key.equals(NAME_KEY)) {
        return;
      }
      int at = indexOf(cmd, key);
      if (value instanceof Boolean on) {
        String flag = flagOf(on ? key : "no-" + key);
        if (at >= 0) {
          cmd.set(at, flag);
        } else {
          int opposite = indexOf(cmd, on ? "no-" + key : key);
          if (opposite >= 0) {
            cmd.set(opposite, flag);
          } else {
            cmd.add(flag);
          }
        }
      } else {
        setValue(cmd, key, at, text(value));
      }
    });
    return cmd;
  }

  /**
   * The benchmark's flags with a combination applied: as {@link #overrideServe}, except that
   * the drop-in's switches have no {@code --no-} form, so {@code false} removes the switch;
   * {@code null} removes the flag and its value (back to the default).
   */
  public static List<String> overrideBench(List<String> args, Map<String, Object> comb) {
    List<String> cmd = new ArrayList<>(args);
    comb.forEach((key, value) -> {
      if (key.equals(NAME_KEY)) {
        return;
      }
      int at = indexOf(cmd, key);
      if (value == null) {
        removeFlag(cmd, at);
      } else if (value instanceof Boolean on) {
        if (on && at < 0) {
          cmd.add(flagOf(key));
        } else if (!on && at >= 0) {
          cmd.remove(at);
        }
      } else {
        setValue(cmd, key, at, text(value));
      }
    });
    return cmd;
  }

  private static void removeFlag(List<String> cmd, int at) {
    if (at < 0) {
      return;
    }
    boolean inline = cmd.get(at).contains("=");
    cmd.remove(at);
    if (!inline && at < cmd.size() && !cmd.get(at).startsWith("--")) {
      cmd.remove(at);
    }
  }

  private static void setValue(List<String> cmd, String key, int at, String value) {
    if (at < 0) {
      cmd.add(flagOf(key));
      cmd.add(value);
    } else if (cmd.get(at).contains("=")) {
      cmd.set(at, cmd.get(at).substring(0, cmd.get(at).indexOf('=') + 1) + value);
    } else if (at + 1 < cmd.size() && !cmd.get(at + 1).startsWith("--")) {
      cmd.set(at + 1, value);
    } else {
      cmd.add(at + 1, value);
    }
  }

  /** Where the key's flag is ({@code --key} or {@code --key=...}), or -1. */
  private static int indexOf(List<String> cmd, String key) {
    for (String flag : flagCandidates(key)) {
      for (int i = 0; i < cmd.size(); i++) {
        String word = cmd.get(i);
        if (word.equals(flag) || word.startsWith(flag + "=")) {
          return i;
        }
      }
    }
    return -1;
  }

  /** A parameter value as a command-line word and a folder-name part (Python's str()). */
  static String text(Object value) {
    if (value instanceof Double d) {
      return dev.gatlingllm.internal.metrics.PyFormat.repr(d);
    }
    if (value instanceof Boolean b) {
      return b ? "True" : "False";
    }
    if (value instanceof Map || value instanceof List) {
      try {
        return JSON.writeValueAsString(value);
      } catch (JsonProcessingException e) {
        throw new IllegalStateException(e);
      }
    }
    return String.valueOf(value);
  }

  /**
   * Parses {@code --link-vars}: {@code serve_key=bench_key,...}; a combination of server and
   * benchmark runs only when each pair of keys has equal values in both.
   */
  public static List<Map.Entry<String, String>> parseLinkVars(String text) {
    List<Map.Entry<String, String>> pairs = new ArrayList<>();
    if (text == null || text.isBlank()) {
      return pairs;
    }
    for (String item : text.split(",")) {
      String[] sides = item.split("=", -1);
      if (sides.length != 2 || sides[0].isBlank() || sides[1].isBlank()) {
        throw new IllegalArgumentException("--link-vars: '" + item.strip() + "' is not "
            + "serve_key=bench_key (example: max_num_seqs=max_concurrency)");
      }
      pairs.add(Map.entry(sides[0].strip(), sides[1].strip()));
    }
    return pairs;
  }

  /** Whether a server and a benchmark combination agree on every linked pair of keys. */
  public static boolean linked(Map<String, Object> serve, Map<String, Object> bench,
      List<Map.Entry<String, String>> links) {
    for (Map.Entry<String, String> link : links) {
      if (!serve.containsKey(link.getKey()) || !bench.containsKey(link.getValue())
          || !text(serve.get(link.getKey())).equals(text(bench.get(link.getValue())))) {
        return false;
      }
    }
    return true;
  }

  /**
   * The folder of a combination, vLLM's naming:
   * {@code SERVE-k=v-...-BENCH-k=v-...}, with {@code /} and {@code ..} made harmless.
   */
  public static String folderName(Map<String, Object> serve, Map<String, Object> bench) {
    StringBuilder name = new StringBuilder("SERVE");
    serve.forEach((k, v) -> name.append('-').append(k).append('=').append(text(v)));
    name.append("-BENCH");
    bench.forEach((k, v) -> name.append('-').append(k).append('=').append(text(v)));
    return sanitize(name.toString());
  }

  public static String sanitize(String name) {
    return name.replace("/", "_").replace("..", "__");
  }

  /** The keys of every combination, in first-seen order. */
  static List<String> keys(List<Map<String, Object>> combs) {
    Set<String> keys = new LinkedHashSet<>();
    combs.forEach(c -> keys.addAll(c.keySet()));
    return new ArrayList<>(keys);
  }

  /** Reads one JSON object. */
  static Map<String, Object> readObject(Path file) {
    try {
      return JSON.readValue(file.toFile(), new TypeReference<LinkedHashMap<String, Object>>() {});
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  /** The shared mapper (pretty printing for the files a person reads). */
  public static ObjectMapper json() {
    return JSON;
  }
}
