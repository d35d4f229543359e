package dev.gatlingllm.internal.client;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/** Where requests go: scheme, host, port and the path prefix of a base URL. */
public record Target(boolean tls, String host, int port, String pathPrefix) {

  /**
   * Parses a base URL such as {@code http://127.0.0.1:8000} or {@code https://api.example.com/v1}
   * (a path prefix is kept and put in front of every endpoint path).
   */
  public static Target parse(String baseUrl) {
    if (baseUrl == null || baseUrl.isBlank()) {
      throw new IllegalArgumentException("baseUrl is required, e.g. http://127.0.0.1:8000");
    }
    URI uri;
    try {
      uri = new URI(baseUrl.trim());
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("baseUrl '" + baseUrl + "' is not a valid URL: " + e.getMessage());
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw new IllegalArgumentException(
          "baseUrl '" + baseUrl + "' must start with http:// or https://");
    }
    if (uri.getHost() == null) {
      throw new IllegalArgumentException("baseUrl '" + baseUrl + "' has no host");
    }
    String host = uri.getHost();
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1); // IPv6 literal: brackets are URL syntax
    }
    boolean tls = scheme.equals("https");
    int port = uri.getPort() > 0 ? uri.getPort() : tls ? 443 : 80;
    String path = uri.getRawPath() == null ? "" : uri.getRawPath();
    while (path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    return new Target(tls, host, port, path);
  }

  /** The value of the Host header. */
  public String hostHeader() {
    boolean defaultPort = port == (tls ? 443 : 80);
    String h = host.contains(":") ? "[" + host + "]" : host;
    return defaultPort ? h : h + ":" + port;
  }

  /** The request path for an endpoint such as {@code /v1/completions}. */
  public String path(String endpoint) {
    String e = endpoint.startsWith("/") ? endpoint : "/" + endpoint;
    if (!pathPrefix.isEmpty() && e.startsWith(pathPrefix + "/")) {
      return e; // base URL already ends with /v1 and the endpoint repeats it
    }
    return pathPrefix + e;
  }

  @Override
  public String toString() {
    return (tls ? "https://" : "http://") + hostHeader() + pathPrefix;
  }
}
