package dev.gatlingllm.internal.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.report.Compare;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * One self-contained HTML file: the page skeleton, its style and script, the charting library
 * and the data, all inlined. A Content-Security-Policy in the page forbids every request
 * (scripts and styles run inline only, images only from {@code data:}), so a page that tried
 * to load anything from a host would fail loudly instead of quietly needing the network.
 */
public final class HtmlPage {

  /** Id of the script element holding the page's data (JSON), which {@link Compare} reads. */
  static final String DATA_ID = "llm-data";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String WEB = "web/";

  private HtmlPage() {}

  /**
   * @param title  the page title
   * @param app    the script that draws this kind of page ({@code report.js}, {@code compare.js})
   * @param data   the page's data
   */
  static String render(String title, String app, Map<String, Object> data) {
    return renderScript(title, resource(app), data);
  }

  /**
   * A page like {@link #render}, drawn by a script of another package (the sweep pages): the
   * same skeleton, style, policy, inlined charting library and shared helpers.
   *
   * @param appSource the script's text
   */
  public static String renderScript(String title, String appSource, Map<String, Object> data) {
    String json;
    try {
      json = JSON.writeValueAsString(data);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("report data is not JSON-writable: " + e.getMessage(), e);
    }
    // JSON has '<' only inside strings, where \u003c means the same: no "</script>" inside
    json = json.replace("<", "\\u003c");
    String charts = resource("echarts.common.min.js");
    if (charts.contains("</script")) {
      throw new IllegalStateException("the charting library cannot be inlined as it is");
    }
    Map<String, String> parts = Map.of("title", escape(title), "css", resource("report.css"),
        "data-id", DATA_ID, "data", json, "echarts", charts, "common", resource("common.js"),
        "app", appSource);
    return fill(resource("page.html"), parts);
  }

  /** The template with each {@code {{name}}} replaced once: inserted text is never scanned. */
  private static String fill(String template, Map<String, String> parts) {
    StringBuilder out = new StringBuilder(template.length()
        + parts.values().stream().mapToInt(String::length).sum());
    int pos = 0;
    int open;
    while ((open = template.indexOf("{{", pos)) >= 0) {
      int close = template.indexOf("}}", open);
      String value = close < 0 ? null : parts.get(template.substring(open + 2, close));
      if (value == null) {
        throw new IllegalStateException("unknown placeholder in the page template at " + open);
      }
      out.append(template, pos, open).append(value);
      pos = close + 2;
    }
    return out.append(template, pos, template.length()).toString();
  }

  /** The JSON in a page written by {@link #render}, or null when it holds none. */
  public static String data(String html) {
    String open = "<script type=\"application/json\" id=\"" + DATA_ID + "\">";
    int from = html.indexOf(open);
    if (from < 0) {
      return null;
    }
    from += open.length();
    int to = html.indexOf("</script>", from);
    return to < 0 ? null : html.substring(from, to);
  }

  static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        .replace("\"", "&quot;");
  }

  private static String resource(String name) {
    try (InputStream in = HtmlPage.class.getResourceAsStream(WEB + name)) {
      if (in == null) {
        throw new IllegalStateException("missing report resource " + WEB + name
            + " (the build copies the charting library in: run it through Maven)");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
