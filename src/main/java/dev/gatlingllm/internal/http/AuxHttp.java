package dev.gatlingllm.internal.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import javax.net.ssl.HttpsURLConnection;

/**
 * The one HTTP stack for the plugin's auxiliary calls: everything that is not the measured
 * stream (which has its own Netty client), such as the hub downloads, the server's metrics,
 * its model list, its profiler and health endpoints, and the clock probe. One immutable
 * request: {@code AuxHttp.get(uri).headers(h).timeout(t).send()}.
 *
 * <p>It is blocking and runs on the caller's thread alone (over the JDK's
 * {@link HttpURLConnection}): no selector or worker threads of its own, so a scrape during
 * the run costs the client's cores only the scraping thread. HTTP/1.1 only, with the JDK's
 * keep-alive pool, the default {@link java.net.ProxySelector} (the {@code http(s).proxyHost}
 * system properties) and the JDK's trust store unless {@link #insecureTls(boolean)}.
 *
 * <p>Redirects are followed here, not by the JDK, so that credentials stay with the origin
 * they were meant for: after a redirect to another scheme, host or port, the headers that
 * carry a credential ({@link #isCredential(String)}) are dropped. Header values are never
 * written into a message, a log line or {@link #toString()}; URLs in messages lose their user
 * info and query (where signed URLs carry their secrets). Headers the JDK writes itself
 * ({@code Host}, {@code Connection}, {@code Content-Length}, ...) are left to it, as
 * {@link HttpURLConnection} does.
 */
public final class AuxHttp {

  /** Bodies are cut beyond this unless {@link #maxBody(int)} says otherwise. */
  public static final int DEFAULT_MAX_BODY = 8 << 20;
  /** Redirects followed at most, as the Python hub client and browsers. */
  public static final int MAX_REDIRECTS = 10;
  /** A refused certificate in words, not the JDK's {@code PKIX path building failed: ...}. */
  public static final String UNTRUSTED = "the server's certificate is not trusted (self-signed?)";
  private static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
  private static final Set<String> CREDENTIALS =
      Set.of("authorization", "proxy-authorization", "cookie");

  private final String method;
  private final URI uri;
  private final byte[] body;
  private final Map<String, String> headers;
  private final Duration connectTimeout;
  private final Duration timeout;
  private final int maxBody;
  private final boolean followRedirects;
  private final boolean insecureTls;

  private AuxHttp(String method, URI uri, byte[] body, Map<String, String> headers,
      Duration connectTimeout, Duration timeout, int maxBody, boolean followRedirects,
      boolean insecureTls) {
    this.method = method;
    this.uri = uri;
    this.body = body;
    this.headers = headers;
    this.connectTimeout = connectTimeout;
    this.timeout = timeout;
    this.maxBody = maxBody;
    this.followRedirects = followRedirects;
    this.insecureTls = insecureTls;
  }

  /** A GET of {@code uri} (http or https). */
  public static AuxHttp get(URI uri) {
    return create("GET", uri, null, Map.of());
  }

  /** A POST of {@code body} to {@code uri}, sent with the given {@code Content-Type}. */
  public static AuxHttp post(URI uri, byte[] body, String contentType) {
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(contentType, "contentType");
    return create("POST", uri, body.clone(), Map.of("Content-Type", contentType));
  }

  private static AuxHttp create(String method, URI uri, byte[] body, Map<String, String> h) {
    Objects.requireNonNull(uri, "uri");
    if (!isHttpUrl(uri)) {
      throw new IllegalArgumentException("Not an http(s) URL with a host: " + redact(uri));
    }
    return new AuxHttp(method, uri, body, caseInsensitive(h), DEFAULT_CONNECT_TIMEOUT,
        DEFAULT_TIMEOUT, DEFAULT_MAX_BODY, true, false);
  }

  /** Adds (or replaces, names compared without case) one request header. */
  public AuxHttp header(String name, String value) {
    return headers(Map.of(Objects.requireNonNull(name, "header name"),
        Objects.requireNonNull(value, "value of header " + name)));
  }

  /** Adds (or replaces) these request headers, e.g. the run's own, authorization included. */
  public AuxHttp headers(Map<String, String> more) {
    Map<String, String> merged = caseInsensitive(headers);
    more.forEach((name, value) -> {
      if (name.isBlank() || name.chars().anyMatch(c -> c <= ' ' || c == ':' || c >= 127)) {
        throw new IllegalArgumentException("Not an HTTP header name: '" + name + "'");
      }
      // a line break in a value would start a header of the caller's choosing
      if (value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
        throw new IllegalArgumentException("The value of header " + name
            + " contains a line break");
      }
      merged.put(name, value);
    });
    return new AuxHttp(method, uri, body, merged, connectTimeout, timeout, maxBody,
        followRedirects, insecureTls);
  }

  /** Time allowed to open the connection. Default 10 s. */
  public AuxHttp connectTimeout(Duration value) {
    return new AuxHttp(method, uri, body, headers, positive("connect timeout", value), timeout,
        maxBody, followRedirects, insecureTls);
  }

  /** Time allowed for each wait on the server: its headers, then each read of the body. */
  public AuxHttp timeout(Duration value) {
    return new AuxHttp(method, uri, body, headers, connectTimeout, positive("timeout", value),
        maxBody, followRedirects, insecureTls);
  }

  /** Bytes of body kept at most by {@link #send()}; the rest is not read. */
  public AuxHttp maxBody(int bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("Body limit must not be negative, got " + bytes);
    }
    return new AuxHttp(method, uri, body, headers, connectTimeout, timeout, bytes,
        followRedirects, insecureTls);
  }

  /** Whether 3xx answers are followed (default) or handed back as they are. */
  public AuxHttp followRedirects(boolean value) {
    return new AuxHttp(method, uri, body, headers, connectTimeout, timeout, maxBody, value,
        insecureTls);
  }

  /** Accept any certificate and host name over https, as {@code llm().insecureTls()} does. */
  public AuxHttp insecureTls(boolean value) {
    return new AuxHttp(method, uri, body, headers, connectTimeout, timeout, maxBody,
        followRedirects, value);
  }

  /**
   * Sends the request and reads the answer's body, up to the limit, whatever its status.
   *
   * @throws AuxHttpException when no answer could be had (its message names the method, the
   *                          URL without query and the cause, never a header value)
   */
  public Response send() throws AuxHttpException {
    return exchange(null);
  }

  /**
   * Sends the request and, on a 2xx answer, writes its whole body to {@code file} (the body
   * limit does not apply); any other answer is handed back with its body, to be judged.
   *
   * @throws AuxHttpException when no answer could be had or the file cannot be written
   */
  public Response download(Path file) throws AuxHttpException {
    return exchange(Objects.requireNonNull(file, "file"));
  }

  private Response exchange(Path file) throws AuxHttpException {
    String currentMethod = method;
    byte[] currentBody = body;
    URI current = uri;
    Map<String, String> currentHeaders = headers;
    for (int hop = 0; ; hop++) {
      Response response = once(currentMethod, current, currentBody, currentHeaders, file);
      Optional<String> location = response.header("Location");
      if (!followRedirects || !isRedirect(response.status()) || location.isEmpty()) {
        return response;
      }
      if (hop == MAX_REDIRECTS) {
        throw new AuxHttpException(method + " " + redact(uri) + " failed: more than "
            + MAX_REDIRECTS + " redirects", redact(uri), response.status(), null);
      }
      URI next;
      try {
        next = current.resolve(location.get().trim());
      } catch (IllegalArgumentException e) {
        next = null;
      }
      if (next == null || !isHttpUrl(next)) {
        throw new AuxHttpException(method + " " + redact(current) + " redirects to a location "
            + "that is not an http(s) URL", redact(current), response.status(), null);
      }
      if (!sameOrigin(current, next)) {
        currentHeaders = withoutCredentials(currentHeaders);
      }
      // as browsers and the JDK: 303, and 301/302 after a POST, go on as a GET without body
      if (response.status() == 303
          || (currentBody != null && response.status() != 307 && response.status() != 308)) {
        currentMethod = "GET";
        currentBody = null;
      }
      current = next;
    }
  }

  private Response once(String verb, URI target, byte[] payload, Map<String, String> sent,
      Path file) throws AuxHttpException {
    String where = verb + " " + redact(target);
    HttpURLConnection c = null;
    boolean reusable = false;
    try {
      c = (HttpURLConnection) target.toURL().openConnection();
      if (insecureTls && c instanceof HttpsURLConnection https) {
        https.setSSLSocketFactory(TrustAll.socketFactory());
        https.setHostnameVerifier((host, session) -> true);
      }
      c.setInstanceFollowRedirects(false);
      c.setUseCaches(false);
      c.setConnectTimeout(millis(connectTimeout));
      c.setReadTimeout(millis(timeout));
      c.setRequestMethod(verb);
      c.setRequestProperty("User-Agent", "gatling-llm");
      sent.forEach(c::setRequestProperty);
      if (payload != null) {
        c.setDoOutput(true);
        c.setFixedLengthStreamingMode(payload.length);
        try (OutputStream out = c.getOutputStream()) {
          out.write(payload);
        }
      }
      int status = c.getResponseCode();
      if (status < 0) {
        throw new IOException("the answer is not HTTP");
      }
      Map<String, List<String>> answerHeaders = answerHeaders(c);
      InputStream in = status >= 400 ? c.getErrorStream() : inputStream(c);
      if (in == null) {
        reusable = true;
        return new Response(verb, redact(target), status, answerHeaders, new byte[0], false);
      }
      try (in) {
        if (file != null && status / 100 == 2) {
          Files.createDirectories(file.toAbsolutePath().getParent());
          Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
          reusable = true;
          return new Response(verb, redact(target), status, answerHeaders, new byte[0], false);
        }
        byte[] read = in.readNBytes(maxBody);
        boolean truncated = in.read() >= 0;
        reusable = !truncated;
        return new Response(verb, redact(target), status, answerHeaders, read, truncated);
      }
    } catch (SocketTimeoutException e) {
      throw new AuxHttpException(where + " failed: no answer within " + describe(
          e.getMessage() != null && e.getMessage().contains("connect") ? connectTimeout : timeout)
          + " (" + e.getMessage() + ")", redact(target), -1, e);
    } catch (IOException e) {
      if (AuxHttpException.untrustedCertificate(e)) {
        throw new AuxHttpException(where + " failed: " + UNTRUSTED, redact(target), -1, e);
      }
      throw new AuxHttpException(where + " failed: " + e, redact(target), -1, e);
    } finally {
      // a connection whose answer was read to its end goes back to the keep-alive pool
      if (c != null && !reusable) {
        c.disconnect();
      }
    }
  }

  private static InputStream inputStream(HttpURLConnection c) throws IOException {
    try {
      return c.getInputStream();
    } catch (IOException e) {
      // a 1xx/3xx the JDK will not open: the error stream, if any, is the body
      InputStream error = c.getErrorStream();
      if (error == null) {
        throw e;
      }
      return error;
    }
  }

  private static Map<String, List<String>> answerHeaders(HttpURLConnection c) {
    Map<String, List<String>> out = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    c.getHeaderFields().forEach((name, values) -> {
      if (name != null) {
        out.put(name, List.copyOf(values));
      }
    });
    return Collections.unmodifiableMap(out);
  }

  /**
   * Whether a header carries a credential that must not follow a redirect to another origin:
   * authorization and cookies, and any header whose name speaks of a key, token or secret
   * ({@code api-key}, {@code X-Api-Key}, ...).
   */
  public static boolean isCredential(String headerName) {
    String n = headerName.toLowerCase(Locale.ROOT);
    return CREDENTIALS.contains(n) || n.contains("key") || n.contains("token")
        || n.contains("secret");
  }

  private static Map<String, String> withoutCredentials(Map<String, String> h) {
    Map<String, String> kept = caseInsensitive(Map.of());
    h.forEach((name, value) -> {
      if (!isCredential(name)) {
        kept.put(name, value);
      }
    });
    return kept;
  }

  /** Same scheme, host and port (the default one when none is written). */
  public static boolean sameOrigin(URI a, URI b) {
    return a.getScheme() != null && a.getScheme().equalsIgnoreCase(b.getScheme())
        && a.getHost() != null && a.getHost().equalsIgnoreCase(b.getHost())
        && port(a) == port(b);
  }

  private static int port(URI u) {
    if (u.getPort() != -1) {
      return u.getPort();
    }
    return "https".equalsIgnoreCase(u.getScheme()) ? 443 : 80;
  }

  /**
   * {@code uri} as it may be shown: scheme, host, port and path, without user info, query or
   * fragment (where tokens and signatures travel).
   */
  public static String redact(URI uri) {
    return uri.getScheme() + "://" + uri.getHost() + (uri.getPort() > 0 ? ":" + uri.getPort() : "")
        + (uri.getRawPath() == null ? "" : uri.getRawPath());
  }

  private static boolean isHttpUrl(URI uri) {
    return uri.getHost() != null
        && ("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()));
  }

  private static boolean isRedirect(int status) {
    return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
  }

  private static Map<String, String> caseInsensitive(Map<String, String> h) {
    Map<String, String> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    copy.putAll(h);
    return copy;
  }

  private static Duration positive(String what, Duration value) {
    if (value == null || value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException("The HTTP " + what + " must be positive, got " + value);
    }
    return value;
  }

  private static int millis(Duration d) {
    return (int) Math.min(Integer.MAX_VALUE, Math.max(1, d.toMillis()));
  }

  private static String describe(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
  }

  /** The method and URL without query, and the header names only. */
  @Override
  public String toString() {
    return method + " " + redact(uri) + " headers=" + headers.keySet();
  }

  /**
   * One answer: the method and URL it came from (without query, after any redirect), its
   * status and headers, and its body up to the limit ({@code truncated} when there was more).
   */
  public record Response(String method, String url, int status,
      Map<String, List<String>> headers, byte[] body, boolean truncated) {

    /** Whether the status is 2xx. */
    public boolean ok() {
      return status / 100 == 2;
    }

    /** The first value of a header, names compared without case. */
    public Optional<String> header(String name) {
      List<String> values = headers.get(name);
      return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
    }

    /** The body as UTF-8 text. */
    public String text() {
      return new String(body, StandardCharsets.UTF_8);
    }

    /**
     * This answer when it is 2xx.
     *
     * @throws AuxHttpException naming the URL and the status otherwise
     */
    public Response requireOk() throws AuxHttpException {
      if (!ok()) {
        throw new AuxHttpException(method + " " + url + " answered HTTP " + status, url, status,
            null);
      }
      return this;
    }

    @Override
    public String toString() {
      return "HTTP " + status + " from " + method + " " + url + " (" + body.length + " bytes"
          + (truncated ? ", cut" : "") + ")";
    }
  }
}
