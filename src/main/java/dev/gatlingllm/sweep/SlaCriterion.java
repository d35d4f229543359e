package dev.gatlingllm.sweep;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.gatlingllm.internal.sweep.Params;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One SLA constraint, {@code {"p99_e2el_ms": "<=500"}}: a result key, an operator
 * ({@code <=}, {@code <}, {@code >=}, {@code >}) and a target, checked against the mean of
 * the key over a point's runs.
 */
public record SlaCriterion(String op, double target) {

  /** The operators in the order they are tried (two-character ones first). */
  static final List<String> OPERATORS = List.of("<=", ">=", "<", ">");

  public SlaCriterion {
    if (!OPERATORS.contains(op)) {
      throw new IllegalArgumentException("unknown SLA operator " + op);
    }
  }

  public boolean holds(double actual) {
    return switch (op) {
      case "<=" -> actual <= target;
      case "<" -> actual < target;
      case ">=" -> actual >= target;
      default -> actual > target;
    };
  }

  /** {@code lhs<=500.00}, vLLM's text of a condition (also in file names). */
  public String format(String lhs) {
    return lhs + op + String.format(Locale.ROOT, "%.2f", target);
  }

  /**
   * Parses {@code --sla-params}: a JSON list of objects, each a set of constraints that must
   * all hold ({@code [{"p99_e2el_ms": "<=500", "mean_ttft_ms": "<200"}]}).
   */
  public static List<Map<String, SlaCriterion>> parseAll(String json) {
    Object data;
    try {
      data = Params.json().readValue(json, Object.class);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("--sla-params: not JSON: " + e.getOriginalMessage(), e);
    }
    if (!(data instanceof List<?> list)) {
      throw new IllegalArgumentException("--sla-params: The parameter sweep should be a list "
          + "of dictionaries, but found type: " + Params.pyType(data));
    }
    List<Map<String, SlaCriterion>> out = new ArrayList<>();
    for (Object item : list) {
      if (!(item instanceof Map<?, ?> constraints)) {
        throw new IllegalArgumentException("--sla-params: The parameter sweep should be a list "
            + "of dictionaries, but found item type: " + Params.pyType(item));
      }
      Map<String, SlaCriterion> comb = new LinkedHashMap<>();
      constraints.forEach((k, v) -> comb.put(String.valueOf(k), parse(String.valueOf(k), v)));
      if (comb.isEmpty()) {
        throw new IllegalArgumentException("--sla-params: an empty set of constraints; give at "
            + "least one, such as {\"p99_e2el_ms\": \"<=500\"}");
      }
      out.add(comb);
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException("--sla-params: the list is empty");
    }
    return out;
  }

  static SlaCriterion parse(String key, Object value) {
    String text = String.valueOf(value).strip();
    for (String op : OPERATORS) {
      if (text.startsWith(op)) {
        String number = text.substring(op.length()).strip();
        try {
          return new SlaCriterion(op, Double.parseDouble(number));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("Invalid value for SLA constraint '" + key + "="
              + text + "': '" + number + "' is not a number", e);
        }
      }
    }
    throw new IllegalArgumentException("Invalid operator for SLA constraint '" + key + "="
        + text + "'. Valid operators are: {'<=', '<', '>=', '>'}");
  }

  /** The conditions of a set, joined by {@code -}: {@code p99_e2el_ms<=500.00-...}. */
  public static String format(Map<String, SlaCriterion> comb) {
    List<String> parts = new ArrayList<>();
    comb.forEach((k, c) -> parts.add(c.format(k)));
    return String.join("-", parts);
  }
}
