package dev.gatlingllm.internal.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ConnectException;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The endpoint, headers and interval, as an OpenTelemetry user writes them. */
class OtlpSettingsTest {

  private static final Map<String, String> NO_ENV = Map.of();

  private static OtlpSettings resolve(String endpoint, Map<String, String> env) {
    return OtlpSettings.resolve(endpoint, null, env::get);
  }

  @Test
  void aCollectorsAddressGetsTheMetricsPathAndAPathEndingWithItIsKept() {
    assertEquals("http://127.0.0.1:4318/v1/metrics",
        resolve("http://127.0.0.1:4318", NO_ENV).endpoint().toString());
    assertEquals("http://127.0.0.1:4318/v1/metrics",
        resolve("http://127.0.0.1:4318/", NO_ENV).endpoint().toString());
    // Prometheus' OTLP receiver, given as a base or in full
    assertEquals("http://prom:9090/api/v1/otlp/v1/metrics",
        resolve("http://prom:9090/api/v1/otlp", NO_ENV).endpoint().toString());
    assertEquals("https://prom:9090/api/v1/otlp/v1/metrics",
        resolve("https://prom:9090/api/v1/otlp/v1/metrics", NO_ENV).endpoint().toString());
  }

  @Test
  void envTakesTheStandardVariablesTheMetricsOneAsItIs() {
    assertEquals("http://collector:4318/v1/metrics", resolve("env",
        Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318")).endpoint().toString());
    // the base variable always gets the signal's path, as the specification says
    assertEquals("http://collector:4318/otlp/v1/metrics", resolve("env",
        Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318/otlp/")).endpoint()
        .toString());
    assertEquals("http://other:4318/custom", resolve("ENV", Map.of(
        "OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318",
        "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "http://other:4318/custom")).endpoint()
        .toString());
    IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
        () -> resolve("env", NO_ENV));
    assertEquals("otlp endpoint env: neither OTEL_EXPORTER_OTLP_METRICS_ENDPOINT nor "
        + "OTEL_EXPORTER_OTLP_ENDPOINT is set", none.getMessage());
  }

  @Test
  void whatIsNotAnHttpUrlIsRefusedAndCredentialsInItToo() {
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> resolve("127.0.0.1:4317", NO_ENV)).getMessage().startsWith(
            "otlp endpoint: an http:// or https:// URL with a host is expected"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> resolve("grpc://collector:4317", NO_ENV)).getMessage().contains("got grpc://"));
    IllegalArgumentException secret = assertThrows(IllegalArgumentException.class,
        () -> resolve("http://user:pw123@collector:4318", NO_ENV));
    assertFalse(secret.getMessage().contains("pw123"), secret.getMessage());
  }

  @Test
  void headersAreReadAsTheSpecificationSaysAndAMalformedOneIsNotQuoted() {
    OtlpSettings s = resolve("http://c:4318", Map.of(
        "OTEL_EXPORTER_OTLP_HEADERS", "Authorization=Bearer%20abc, x-scope=team-a ,",
        "OTEL_EXPORTER_OTLP_METRICS_HEADERS", "x-scope=team-b"));
    assertEquals(Map.of("Authorization", "Bearer abc", "x-scope", "team-b"), s.headers());
    assertEquals(List.of("Authorization", "x-scope"), List.copyOf(s.headers().keySet()));
    assertFalse(s.toString().contains("abc"), s.toString());
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
        () -> resolve("http://c:4318", Map.of("OTEL_EXPORTER_OTLP_HEADERS",
            "a=1,tokenvalue-xyz")));
    assertEquals("OTEL_EXPORTER_OTLP_HEADERS: entry 2 is not key=value with a header name as "
        + "key", bad.getMessage());
  }

  @Test
  void theIntervalIsTheGivenOneElseTheVariableElseFiveSeconds() {
    assertEquals(Duration.ofSeconds(5), resolve("http://c:4318", NO_ENV).interval());
    assertEquals(Duration.ofMillis(1500), resolve("http://c:4318",
        Map.of("OTEL_METRIC_EXPORT_INTERVAL", "1500")).interval());
    assertEquals(Duration.ofSeconds(2), OtlpSettings.resolve("http://c:4318",
        Duration.ofSeconds(2), Map.of("OTEL_METRIC_EXPORT_INTERVAL", "1500")::get).interval());
    assertEquals("OTEL_METRIC_EXPORT_INTERVAL: a positive number of milliseconds is expected, "
        + "got '5s'", assertThrows(IllegalArgumentException.class, () -> resolve(
            "http://c:4318", Map.of("OTEL_METRIC_EXPORT_INTERVAL", "5s"))).getMessage());
    assertEquals("gzip", resolve("http://c:4318",
        Map.of("OTEL_EXPORTER_OTLP_COMPRESSION", "GZIP")).compression());
    assertEquals("none", resolve("http://c:4318", NO_ENV).compression());
  }

  @Test
  void aFailureIsSaidByItsExceptionsNotTheSdksWrapper() {
    ConnectException refused = new ConnectException();
    refused.initCause(new ClosedChannelException());
    assertEquals("ConnectException, ClosedChannelException", OtlpFigures.cause(refused));
    assertEquals("the export failed", OtlpFigures.cause(null));
  }
}
