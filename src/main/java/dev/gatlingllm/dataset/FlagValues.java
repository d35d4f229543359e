package dev.gatlingllm.dataset;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The dataset flag values of one command line, typed, with errors that name the flag. Reading
 * a flag the flag table does not give the dataset is a mistake of this code, not of the
 * user's, and fails loudly: the table's datasets column stays the one place that says which
 * dataset reads which flag.
 */
final class FlagValues {

  private final String dataset;
  private final Map<String, String> values;

  /**
   * @param dataset the {@code --dataset-name}, normalized
   * @param values  the values by normalized flag name; a switch given bare is {@code ""}
   */
  FlagValues(String dataset, Map<String, String> values) {
    this.dataset = dataset;
    this.values = values;
  }

  boolean has(String flag) {
    String value = get(flag);
    return value != null && !value.isEmpty();
  }

  String string(String flag) {
    return has(flag) ? values.get(flag) : null;
  }

  int integer(String flag) {
    try {
      return Integer.parseInt(get(flag));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + flag + " expects a whole number, got '"
          + values.get(flag) + "'");
    }
  }

  long longValue(String flag) {
    try {
      return Long.parseLong(get(flag));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + flag + " expects a whole number, got '"
          + values.get(flag) + "'");
    }
  }

  double decimal(String flag) {
    try {
      return Double.parseDouble(get(flag));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + flag + " expects a number, got '"
          + values.get(flag) + "'");
    }
  }

  /** Seconds, where Python's {@code inf} (vLLM's default) means no limit. */
  double seconds(String flag) {
    String v = get(flag).trim().toLowerCase(Locale.ROOT);
    return v.equals("inf") || v.equals("infinity") ? Double.POSITIVE_INFINITY : decimal(flag);
  }

  /**
   * {@code --random-range-ratio} on {@code random}: one number for both lengths, or JSON
   * {@code {"input": r, "output": r}} (a key left out is 0).
   */
  RandomDataset rangeRatio(RandomDataset random) {
    String v = get("random-range-ratio").trim();
    if (!v.startsWith("{")) {
      return random.rangeRatio(decimal("random-range-ratio"));
    }
    String usage = "--random-range-ratio expects a number or {\"input\": r, \"output\": r}"
        + ", got '" + v + "'";
    JsonNode node;
    try {
      node = DataFiles.JSON.readTree(v);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(usage);
    }
    double[] ratios = new double[2];
    List<String> keys = List.of("input", "output");
    for (Map.Entry<String, JsonNode> e : node.properties()) {
      int k = keys.indexOf(e.getKey());
      if (k < 0 || !e.getValue().isNumber()) {
        throw new IllegalArgumentException(usage);
      }
      ratios[k] = e.getValue().asDouble();
    }
    return random.rangeRatio(ratios[0], ratios[1]);
  }

  boolean bool(String flag) {
    String given = get(flag);
    if (given == null) {
      return false;
    }
    String v = given.toLowerCase(Locale.ROOT);
    if (v.isEmpty() || v.equals("true")) {
      return true;
    }
    if (v.equals("false")) {
      return false;
    }
    if (DatasetFlags.isSwitch(flag)) {
      throw new IllegalArgumentException("--" + flag + " is a switch; give no value, 'true' "
          + "or 'false', not '" + given + "'");
    }
    throw new IllegalArgumentException("--" + flag + " is not a switch");
  }

  /** The value as given, null when absent; only for a flag the table gives the dataset. */
  private String get(String flag) {
    if (!DatasetFlags.accepts(dataset, flag)) {
      throw new IllegalStateException("the " + dataset + " dataset reads --" + flag + ", but "
          + "the flag table (bench-flags.tsv, its datasets column) does not give it that flag");
    }
    return values.get(flag);
  }
}
