package dev.gatlingllm.internal.live;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Where and how often the run's live figures are exported over OTLP, resolved once before the
 * run from what the user gave ({@code --otlp-endpoint}, {@code llm().otlp(...)}) and the
 * environment variables every OpenTelemetry SDK reads. The variables only fill in: the export
 * is turned on by the flag or the DSL call alone, so a variable left set in a shell or a pod
 * never starts sending figures (nor loads the SDK) on its own.
 *
 * <p>Read from the environment: {@code OTEL_EXPORTER_OTLP_METRICS_ENDPOINT} (used as it is)
 * and {@code OTEL_EXPORTER_OTLP_ENDPOINT} (a base, {@code /v1/metrics} appended) when the
 * endpoint given is {@code env}; {@code OTEL_EXPORTER_OTLP_HEADERS} and
 * {@code OTEL_EXPORTER_OTLP_METRICS_HEADERS} ({@code key=value,...}, values URL-encoded, the
 * second winning per key); {@code OTEL_METRIC_EXPORT_INTERVAL} (milliseconds) when no interval
 * is given; {@code OTEL_EXPORTER_OTLP_COMPRESSION} / {@code _METRICS_COMPRESSION}
 * ({@code gzip} or {@code none}).
 *
 * <p>Header values often carry a token: they are never in {@link #toString()}, in a message or
 * in a log line; only their names may be.
 *
 * @param endpoint    the full URL the metrics are POSTed to (its path ends with
 *                    {@code /v1/metrics} unless the user's URL or variable said otherwise)
 * @param headers     sent with every export
 * @param interval    time between two exports
 * @param compression {@code gzip} or {@code none}
 */
public record OtlpSettings(URI endpoint, Map<String, String> headers, Duration interval,
    String compression) {

  /** The endpoint value that takes the URL from the standard variables. */
  public static final String FROM_ENVIRONMENT = "env";
  /**
   * A few seconds, where OpenTelemetry's default is a minute: a benchmark lasts minutes, and a
   * dashboard showing one point per minute of it shows nothing.
   */
  public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(5);
  static final String METRICS_PATH = "/v1/metrics";
  private static final String EXPECTED = "an http:// or https:// URL with a host is expected "
      + "(OTLP over HTTP/protobuf, port 4318 by convention)";

  public OtlpSettings {
    Objects.requireNonNull(endpoint, "endpoint");
    headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers)); // in the given order
    Objects.requireNonNull(interval, "interval");
    Objects.requireNonNull(compression, "compression");
  }

  /**
   * The settings of an export to {@code endpoint}.
   *
   * @param endpoint an {@code http(s)} URL: a bare collector address
   *                 ({@code http://127.0.0.1:4318}) or a base path gets {@code /v1/metrics}
   *                 appended, a path already ending with it is kept; or {@link #FROM_ENVIRONMENT}
   * @param interval time between exports; null for {@code OTEL_METRIC_EXPORT_INTERVAL}, else
   *                 {@link #DEFAULT_INTERVAL}
   * @param env      the environment ({@code System::getenv}; a map in tests)
   * @throws IllegalArgumentException naming the bad value (or the variable holding it)
   */
  public static OtlpSettings resolve(String endpoint, Duration interval,
      Function<String, String> env) {
    Objects.requireNonNull(env, "env");
    if (endpoint == null || endpoint.isBlank()) {
      throw new IllegalArgumentException("otlp endpoint must not be empty: give a URL such as "
          + "http://127.0.0.1:4318, or env for OTEL_EXPORTER_OTLP_ENDPOINT");
    }
    URI uri = endpoint.strip().equalsIgnoreCase(FROM_ENVIRONMENT)
        ? fromEnvironment(env) : metricsUrl(endpoint.strip(), "otlp endpoint");
    Map<String, String> headers = new LinkedHashMap<>();
    headers.putAll(headers(env, "OTEL_EXPORTER_OTLP_HEADERS"));
    headers.putAll(headers(env, "OTEL_EXPORTER_OTLP_METRICS_HEADERS"));
    return new OtlpSettings(uri, headers, interval(interval, env), compression(env));
  }

  private static URI fromEnvironment(Function<String, String> env) {
    String metrics = present(env, "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT");
    if (metrics != null) {
      return url(metrics, "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT");
    }
    String base = present(env, "OTEL_EXPORTER_OTLP_ENDPOINT");
    if (base != null) {
      // the specification's rule for the base variable: the signal's path is always appended
      URI uri = url(base, "OTEL_EXPORTER_OTLP_ENDPOINT");
      String path = uri.getRawPath() == null ? "" : uri.getRawPath();
      return withPath(uri, (path.endsWith("/") ? path.substring(0, path.length() - 1) : path)
          + METRICS_PATH);
    }
    throw new IllegalArgumentException("otlp endpoint env: neither "
        + "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT nor OTEL_EXPORTER_OTLP_ENDPOINT is set");
  }

  /** A user's URL: {@code /v1/metrics} appended unless its path already ends with it. */
  static URI metricsUrl(String value, String what) {
    URI uri = url(value, what);
    String path = uri.getRawPath() == null ? "" : uri.getRawPath();
    if (path.endsWith(METRICS_PATH)) {
      return uri;
    }
    return withPath(uri, (path.endsWith("/") ? path.substring(0, path.length() - 1) : path)
        + METRICS_PATH);
  }

  private static URI url(String value, String what) {
    URI uri;
    try {
      uri = new URI(value.strip());
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(what + ": " + EXPECTED + ", got a malformed one ("
          + e.getReason() + ")");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
      throw new IllegalArgumentException(what + ": " + EXPECTED + ", got "
          + (uri.getHost() == null ? "no host" : redacted(uri)));
    }
    if (uri.getRawUserInfo() != null) {
      throw new IllegalArgumentException(what + ": credentials in the URL are not sent; put "
          + "them in OTEL_EXPORTER_OTLP_HEADERS (Authorization=...) instead");
    }
    return uri;
  }

  private static URI withPath(URI uri, String path) {
    try {
      return new URI(uri.getScheme(), null, uri.getHost(), uri.getPort(), path, null, null);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("otlp endpoint: " + e.getReason(), e);
    }
  }

  /**
   * {@code key1=value1,key2=value2}, values URL-decoded, as the specification reads
   * {@code OTEL_EXPORTER_OTLP_HEADERS}. A malformed entry is refused naming the variable and
   * the entry's position, never its text (it may hold a secret).
   */
  static Map<String, String> headers(Function<String, String> env, String variable) {
    String value = present(env, variable);
    Map<String, String> out = new LinkedHashMap<>();
    if (value == null) {
      return out;
    }
    String[] entries = value.split(",");
    for (int i = 0; i < entries.length; i++) {
      String entry = entries[i].strip();
      if (entry.isEmpty()) {
        continue;
      }
      int eq = entry.indexOf('=');
      String key = eq <= 0 ? "" : entry.substring(0, eq).strip();
      if (key.isEmpty() || !key.chars().allMatch(c -> c > 0x20 && c < 0x7f && c != ':')) {
        throw new IllegalArgumentException(variable + ": entry " + (i + 1)
            + " is not key=value with a header name as key");
      }
      String decoded;
      try {
        decoded = URLDecoder.decode(entry.substring(eq + 1).strip(), StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(variable + ": the value of " + key
            + " is not URL-encoded correctly");
      }
      out.put(key, decoded);
    }
    return out;
  }

  private static Duration interval(Duration given, Function<String, String> env) {
    if (given != null) {
      if (given.isNegative() || given.isZero()) {
        throw new IllegalArgumentException("otlp interval must be positive, got " + given);
      }
      return given;
    }
    String millis = present(env, "OTEL_METRIC_EXPORT_INTERVAL");
    if (millis == null) {
      return DEFAULT_INTERVAL;
    }
    try {
      long ms = Long.parseLong(millis.strip());
      if (ms > 0) {
        return Duration.ofMillis(ms);
      }
    } catch (NumberFormatException e) {
      // refused below, with the value (an interval is no secret)
    }
    throw new IllegalArgumentException("OTEL_METRIC_EXPORT_INTERVAL: a positive number of "
        + "milliseconds is expected, got '" + millis + "'");
  }

  private static String compression(Function<String, String> env) {
    String value = present(env, "OTEL_EXPORTER_OTLP_METRICS_COMPRESSION");
    String variable = "OTEL_EXPORTER_OTLP_METRICS_COMPRESSION";
    if (value == null) {
      value = present(env, "OTEL_EXPORTER_OTLP_COMPRESSION");
      variable = "OTEL_EXPORTER_OTLP_COMPRESSION";
    }
    if (value == null) {
      return "none";
    }
    String v = value.strip().toLowerCase(Locale.ROOT);
    if (!v.equals("gzip") && !v.equals("none")) {
      throw new IllegalArgumentException(variable + ": gzip or none, got '" + value + "'");
    }
    return v;
  }

  private static String present(Function<String, String> env, String name) {
    String v = env.apply(name);
    return v == null || v.isBlank() ? null : v;
  }

  /** The URL without its query, which may carry a token: for messages. */
  static String redacted(URI uri) {
    return uri.getScheme() + "://" + uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort())
        + (uri.getRawPath() == null ? "" : uri.getRawPath());
  }

  /** The endpoint as messages show it: no query. */
  public String where() {
    return redacted(endpoint);
  }

  @Override
  public String toString() {
    return "OtlpSettings{endpoint=" + where() + ", headers=" + headers.keySet()
        + ", interval=" + interval + ", compression=" + compression + "}";
  }
}
