package dev.gatlingllm.internal.client;

import java.time.Duration;
import java.util.List;

/**
 * Client-wide settings. A zero timeout means "none".
 *
 * @param target            where requests go: the first of {@code targets}
 * @param connectTimeout    TCP (and TLS) connection establishment
 * @param firstTokenTimeout from send to the first content chunk
 * @param idleTimeout       longest silence between two reads once the response started
 * @param requestTimeout    whole request, send to end of stream
 * @param keepAliveTimeout  an idle connection older than this is not reused: servers close
 *                          idle keep-alive connections (uvicorn after 5 s), and a request
 *                          written into a closing connection has to be sent again; a
 *                          server's {@code Keep-Alive: timeout=T} lowers it to 80 % of T
 * @param insecureTls       accept any TLS certificate and skip the host name check
 * @param targets           every server requests go to (replicas of one model, each with
 *                          its own connections), {@code target} first; one for a single
 *                          server
 * @param strategy          how each request's server is chosen among {@code targets}
 */
public record ClientConfig(
    Target target,
    Duration connectTimeout,
    Duration firstTokenTimeout,
    Duration idleTimeout,
    Duration requestTimeout,
    Duration keepAliveTimeout,
    boolean insecureTls,
    List<Target> targets,
    TargetChooser.Strategy strategy) {

  /** One server. */
  public ClientConfig(Target target, Duration connectTimeout, Duration firstTokenTimeout,
      Duration idleTimeout, Duration requestTimeout, Duration keepAliveTimeout,
      boolean insecureTls) {
    this(target, connectTimeout, firstTokenTimeout, idleTimeout, requestTimeout,
        keepAliveTimeout, insecureTls, List.of(target), TargetChooser.Strategy.ROUND_ROBIN);
  }

  /** Certificates checked as usual. */
  public ClientConfig(Target target, Duration connectTimeout, Duration firstTokenTimeout,
      Duration idleTimeout, Duration requestTimeout, Duration keepAliveTimeout) {
    this(target, connectTimeout, firstTokenTimeout, idleTimeout, requestTimeout,
        keepAliveTimeout, false);
  }

  public ClientConfig {
    targets = targets == null || targets.isEmpty() ? List.of(target) : List.copyOf(targets);
    if (!targets.get(0).equals(target)) {
      throw new IllegalArgumentException("target " + target + " must be the first of " + targets);
    }
    if (strategy == null) {
      strategy = TargetChooser.Strategy.ROUND_ROBIN;
    }
    check("connectTimeout", connectTimeout);
    check("firstTokenTimeout", firstTokenTimeout);
    check("idleTimeout", idleTimeout);
    check("requestTimeout", requestTimeout);
    check("keepAliveTimeout", keepAliveTimeout);
  }

  /** These settings sent to {@code servers} (the first is {@link #target()}), chosen by {@code how}. */
  public ClientConfig withTargets(List<Target> servers, TargetChooser.Strategy how) {
    return new ClientConfig(servers.get(0), connectTimeout, firstTokenTimeout, idleTimeout,
        requestTimeout, keepAliveTimeout, insecureTls, servers, how);
  }

  /** These settings sent to the one server {@code server}. */
  public ClientConfig withTarget(Target server) {
    return withTargets(List.of(server), strategy);
  }

  private static void check(String name, Duration d) {
    if (d == null || d.isNegative()) {
      throw new IllegalArgumentException(name + " must be zero (none) or positive, got " + d);
    }
  }
}
