package dev.gatlingllm.internal.client;

import java.time.Duration;

/**
 * Client-wide settings. A zero timeout means "none".
 *
 * @param target            where requests go
 * @param connectTimeout    TCP (and TLS) connection establishment
 * @param firstTokenTimeout from send to the first content chunk
 * @param idleTimeout       longest silence between two reads once the response started
 * @param requestTimeout    whole request, send to end of stream
 * @param keepAliveTimeout  an idle connection older than this is not reused: servers close
 *                          idle keep-alive connections (uvicorn after 5 s), and a request
 *                          written into a closing connection has to be sent again; a
 *                          server's {@code Keep-Alive: timeout=T} lowers it to 80 % of T
 * @param insecureTls       accept any TLS certificate and skip the host name check
 */
public record ClientConfig(
    Target target,
    Duration connectTimeout,
    Duration firstTokenTimeout,
    Duration idleTimeout,
    Duration requestTimeout,
    Duration keepAliveTimeout,
    boolean insecureTls) {

  /** Certificates checked as usual. */
  public ClientConfig(Target target, Duration connectTimeout, Duration firstTokenTimeout,
      Duration idleTimeout, Duration requestTimeout, Duration keepAliveTimeout) {
    this(target, connectTimeout, firstTokenTimeout, idleTimeout, requestTimeout,
        keepAliveTimeout, false);
  }

  public ClientConfig {
    check("connectTimeout", connectTimeout);
    check("firstTokenTimeout", firstTokenTimeout);
    check("idleTimeout", idleTimeout);
    check("requestTimeout", requestTimeout);
    check("keepAliveTimeout", keepAliveTimeout);
  }

  private static void check(String name, Duration d) {
    if (d == null || d.isNegative()) {
      throw new IllegalArgumentException(name + " must be zero (none) or positive, got " + d);
    }
  }
}
