package dev.gatlingllm.internal.metrics;

/**
 * Where the requests' time went, from the phases the client stamped on each
 * ({@link RequestRecord#dnsNanos()} ...): the connection phases of the requests that opened
 * one, and the split of each successful request's TTFT into the network (clock start to the
 * last byte written: any connect, TLS and the write), the server (written to the response
 * head) and the stream (head to the first content chunk). The three parts of a request add up
 * to its TTFT exactly, since all are differences of the same stamps.
 *
 * <p>Names follow k6 and AIPerf's HTTP trace metrics where the meaning is the same: DNS
 * ({@code http_req_dns_lookup}), TCP connect ({@code http_req_connecting}: TCP alone, as k6;
 * AIPerf adds the TLS handshake to it) and TLS ({@code http_req_tls_handshaking}, k6's name;
 * AIPerf has none of its own).
 *
 * @param requests         requests with their phases stamped (records of older logs have none)
 * @param newConnections   of those, requests that opened their connection
 * @param reusedConnections of those, requests sent on a connection already open
 * @param dns              name resolution, over the requests that opened a connection
 * @param connect          TCP connect, idem
 * @param tls              TLS handshake, over those that made one (none over plain HTTP)
 * @param tlsCount         requests that made a TLS handshake
 * @param network          TTFT's network part, over the successful requests
 * @param server           TTFT's server part (AIPerf's {@code http_req_waiting}, to the head)
 * @param stream           TTFT's stream part
 * @param split            successful requests whose TTFT was split
 */
public record RequestPhases(int requests, int newConnections, int reusedConnections,
    Distribution dns, Distribution connect, Distribution tls, int tlsCount,
    Distribution network, Distribution server, Distribution stream, int split) {

  /** The phases of the records of {@code src}, with {@code percentiles}. */
  public static RequestPhases of(RecordSource src, double[] percentiles) {
    int n = src.size();
    double[] dns = new double[n];
    double[] connect = new double[n];
    double[] tls = new double[n];
    double[] network = new double[n];
    double[] server = new double[n];
    double[] stream = new double[n];
    int requests = 0;
    int opened = 0;
    int reused = 0;
    int tlsCount = 0;
    int split = 0;
    for (int i = 0; i < n; i++) {
      RequestRecord r = src.record(i);
      if (r.writtenNanos() < 0) {
        continue; // never written, or a record without phases
      }
      requests++;
      if (r.connectionReused()) {
        reused++;
      } else if (r.connectNanos() >= 0) {
        dns[opened] = Math.max(0, r.dnsNanos()) / 1e9;
        connect[opened++] = r.connectNanos() / 1e9;
        if (r.tlsNanos() >= 0) {
          tls[tlsCount++] = r.tlsNanos() / 1e9;
        }
      }
      Split s = Split.of(r);
      if (r.success() && s != null) {
        network[split] = s.networkNanos() / 1e9;
        server[split] = s.serverNanos() / 1e9;
        stream[split++] = s.streamNanos() / 1e9;
      }
    }
    return new RequestPhases(requests, opened, reused,
        Stats.ofSeconds(dns, opened, percentiles), Stats.ofSeconds(connect, opened, percentiles),
        Stats.ofSeconds(tls, tlsCount, percentiles), tlsCount,
        Stats.ofSeconds(network, split, percentiles), Stats.ofSeconds(server, split, percentiles),
        Stats.ofSeconds(stream, split, percentiles), split);
  }

  /** Whether any record had its phases stamped. */
  public boolean measured() {
    return requests > 0;
  }

  /**
   * One request's TTFT in three parts that add up to it: network (start to written), server
   * (written to head), stream (head to the first content chunk).
   */
  public record Split(long networkNanos, long serverNanos, long streamNanos) {

    /**
     * The split of {@code r}'s TTFT, or null when a stamp is missing or out of order (a head
     * before the write ends: a server that answers before reading the whole request).
     */
    public static Split of(RequestRecord r) {
      long written = r.writtenNanos();
      long head = r.headNanos();
      long ttft = r.ttftNanos();
      if (written < 0 || head < written || ttft < head) {
        return null;
      }
      return new Split(written, head - written, ttft - head);
    }

    public long ttftNanos() {
      return networkNanos + serverNanos + streamNanos;
    }
  }
}
