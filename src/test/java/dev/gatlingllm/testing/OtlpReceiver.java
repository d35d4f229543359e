package dev.gatlingllm.testing;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.GZIPInputStream;

/**
 * An OTLP HTTP/protobuf receiver on 127.0.0.1 (a free port), as a collector's {@code otlphttp}
 * receiver answers: {@code POST /v1/metrics} with an {@code ExportMetricsServiceRequest} body,
 * decoded with OTLP's own protobuf classes, 200 with an empty response. Everything else is a
 * 404. Keeps each export and the headers it came with.
 */
public final class OtlpReceiver implements AutoCloseable {

  /** One export as received. */
  public record Export(Map<String, List<String>> headers, ExportMetricsServiceRequest request) {}

  private final HttpServer server;
  private final List<Export> exports = new CopyOnWriteArrayList<>();

  public OtlpReceiver() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      try (exchange) {
        if (!exchange.getRequestMethod().equals("POST")
            || !exchange.getRequestURI().getPath().equals("/v1/metrics")) {
          exchange.sendResponseHeaders(404, -1);
          return;
        }
        InputStream body = exchange.getRequestBody();
        if ("gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))) {
          body = new GZIPInputStream(body);
        }
        ExportMetricsServiceRequest request = ExportMetricsServiceRequest.parseFrom(body);
        exports.add(new Export(Map.copyOf(exchange.getRequestHeaders()), request));
        byte[] answer = ExportMetricsServiceResponse.getDefaultInstance().toByteArray();
        exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
        exchange.sendResponseHeaders(200, answer.length == 0 ? -1 : answer.length);
        exchange.getResponseBody().write(answer);
      }
    });
    server.start();
  }

  /** The collector's base URL, as a user gives it ({@code http://127.0.0.1:PORT}). */
  public String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  public List<Export> exports() {
    return List.copyOf(exports);
  }

  /** Every metric of every export, in the order received. */
  public List<Metric> metrics(String name) {
    List<Metric> out = new ArrayList<>();
    for (Export e : exports) {
      for (ResourceMetrics rm : e.request().getResourceMetricsList()) {
        for (ScopeMetrics sm : rm.getScopeMetricsList()) {
          for (Metric m : sm.getMetricsList()) {
            if (m.getName().equals(name)) {
              out.add(m);
            }
          }
        }
      }
    }
    return out;
  }

  /** The last export's point of a sum or gauge {@code name}; empty when never exported. */
  public Optional<NumberDataPoint> lastNumber(String name) {
    List<Metric> all = metrics(name);
    if (all.isEmpty()) {
      return Optional.empty();
    }
    Metric last = all.get(all.size() - 1);
    List<NumberDataPoint> points = last.hasSum() ? last.getSum().getDataPointsList()
        : last.getGauge().getDataPointsList();
    return points.isEmpty() ? Optional.empty() : Optional.of(points.get(points.size() - 1));
  }

  /** The last export's point of histogram {@code name}; empty when never exported. */
  public Optional<HistogramDataPoint> lastHistogram(String name) {
    List<Metric> all = metrics(name);
    if (all.isEmpty()) {
      return Optional.empty();
    }
    List<HistogramDataPoint> points = all.get(all.size() - 1).getHistogram().getDataPointsList();
    return points.isEmpty() ? Optional.empty() : Optional.of(points.get(points.size() - 1));
  }

  /** The string value of attribute {@code key} in {@code attributes}; null when absent. */
  public static String attribute(List<KeyValue> attributes, String key) {
    return attributes.stream().filter(kv -> kv.getKey().equals(key)).findFirst()
        .map(kv -> kv.getValue().getStringValue()).orElse(null);
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
