package dev.gatlingllm.internal.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatlingllm.internal.metrics.MetricFixtures;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Structural JSON comparison: same keys in the same order, same kinds of value (int vs
 * float vs string vs null), numbers equal to a relative tolerance.
 */
final class JsonCompare {

  private JsonCompare() {}

  static List<String> differences(JsonNode expected, JsonNode actual, double rel) {
    List<String> out = new ArrayList<>();
    compare("$", expected, actual, rel, out);
    return out;
  }

  private static void compare(String path, JsonNode e, JsonNode a, double rel, List<String> out) {
    if (!kind(e).equals(kind(a))) {
      out.add(path + ": expected " + kind(e) + " " + e + ", got " + kind(a) + " " + a);
      return;
    }
    switch (kind(e)) {
      case "object" -> {
        List<String> ek = new ArrayList<>();
        List<String> ak = new ArrayList<>();
        e.fieldNames().forEachRemaining(ek::add);
        a.fieldNames().forEachRemaining(ak::add);
        if (!ek.equals(ak)) {
          out.add(path + ": keys differ\n  expected " + ek + "\n  got      " + ak);
          return;
        }
        for (String k : ek) {
          compare(path + "." + k, e.get(k), a.get(k), rel, out);
        }
      }
      case "array" -> {
        if (e.size() != a.size()) {
          out.add(path + ": expected " + e.size() + " items, got " + a.size());
          return;
        }
        Iterator<JsonNode> ai = a.iterator();
        int i = 0;
        for (JsonNode item : e) {
          compare(path + "[" + i++ + "]", item, ai.next(), rel, out);
        }
      }
      case "int", "float" -> {
        if (!MetricFixtures.close(e.asDouble(), a.asDouble(), rel)) {
          out.add(path + ": expected " + e + ", got " + a);
        }
      }
      default -> {
        if (!e.equals(a)) {
          out.add(path + ": expected " + e + ", got " + a);
        }
      }
    }
  }

  private static String kind(JsonNode n) {
    if (n.isObject()) {
      return "object";
    }
    if (n.isArray()) {
      return "array";
    }
    if (n.isIntegralNumber()) {
      return "int";
    }
    if (n.isNumber()) {
      return "float";
    }
    if (n.isTextual()) {
      return "string";
    }
    if (n.isBoolean()) {
      return "boolean";
    }
    return "null";
  }
}
