package dev.gatlingllm.dataset;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gatlingllm.internal.flags.Flag;
import dev.gatlingllm.internal.flags.FlagValues;
import java.util.List;
import java.util.Map;

/**
 * The flag values one dataset reads, typed as they were converted when parsed. Reading a flag
 * the flag table does not give the dataset is a mistake of this code, not of the user's, and
 * fails loudly: the table's datasets column stays the one place that says which dataset reads
 * which flag. A value not given reads as absent here, even where the drop-in's view of its
 * command line has vLLM's default: a dataset's builder has its own.
 */
final class DatasetFlagValues {

  private final String dataset;
  private final FlagValues values;

  /**
   * @param dataset the {@code --dataset-name}, normalized
   * @param values  the flag values, converted
   */
  DatasetFlagValues(String dataset, FlagValues values) {
    this.dataset = dataset;
    this.values = values;
  }

  boolean has(String flag) {
    return given(flag);
  }

  /** The value as written, null when not given. */
  String string(String flag) {
    return given(flag) ? values.value(flag).orElseThrow() : null;
  }

  int integer(String flag) {
    given(flag);
    return values.integer(flag).orElseThrow();
  }

  long longValue(String flag) {
    return integer(flag);
  }

  double decimal(String flag) {
    given(flag);
    return values.decimal(flag).orElseThrow();
  }

  /** Seconds, where Python's {@code inf} (vLLM's default) means no limit. */
  double seconds(String flag) {
    return decimal(flag);
  }

  /**
   * {@code --random-range-ratio} on {@code random}: one number for both lengths, or JSON
   * {@code {"input": r, "output": r}} (a key left out is 0).
   */
  RandomDataset rangeRatio(RandomDataset random) {
    String v = string("random-range-ratio").trim();
    if (!v.startsWith("{")) {
      // a text flag of the table (a number or JSON): its number is converted here
      try {
        return random.rangeRatio((Double) Flag.Kind.NUMBER.convert(v));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--random-range-ratio " + e.getMessage(), e);
      }
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

  /** Whether a switch is on. */
  boolean bool(String flag) {
    return given(flag) && values.on(flag);
  }

  /** Whether the flag was given; only for a flag the table gives the dataset. */
  private boolean given(String flag) {
    if (!DatasetFlags.accepts(dataset, flag)) {
      throw new IllegalStateException("the " + dataset + " dataset reads --" + flag + ", but "
          + "the flag table (bench-flags.tsv, its datasets column) does not give it that flag");
    }
    return values.has(flag);
  }
}
