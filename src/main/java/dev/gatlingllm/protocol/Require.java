package dev.gatlingllm.protocol;

import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.internal.client.CancelAfter;
import dev.gatlingllm.internal.client.Target;
import dev.gatlingllm.internal.protocol.Cancellation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The builder's checks: of one value, naming the setter, and of two settings that must agree,
 * when the protocol is built.
 */
final class Require {

  private Require() {}

  static String text(String what, String value) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(what + " must not be empty");
    }
    return value;
  }

  /** Headers the client sets itself; a user value would be overwritten or conflict. */
  private static final Set<String> RESERVED_HEADERS =
      Set.of("host", "content-length", "content-type", "transfer-encoding");

  static void headerName(String name) {
    text("header name", name);
    if (RESERVED_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
      throw new IllegalArgumentException(
          "header '" + name + "' is set by the client; reserved: " + RESERVED_HEADERS);
    }
  }

  /** The replicas' root URLs, at least one, each a server root and each given once. */
  static List<String> replicas(String... urls) {
    if (urls == null || urls.length == 0) {
      throw new IllegalArgumentException("baseUrls needs at least one URL");
    }
    List<String> given = List.of(urls);
    List<Target> parsed = new ArrayList<>();
    for (String url : given) {
      Target target = Target.parse(url);
      if (parsed.contains(target)) {
        throw new IllegalArgumentException("baseUrls: " + url + " is given twice; each replica "
            + "once");
      }
      parsed.add(target);
    }
    return given;
  }

  static void atLeast(String what, int value, int min) {
    if (value < min) {
      throw new IllegalArgumentException(what + " must be >= " + min + ", got " + value);
    }
  }

  static Duration positive(String what, Duration d) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(what + " must be a positive duration, got " + d);
    }
    return d;
  }

  /**
   * The cap on requests in flight: {@code maxConcurrency}, or the arrival profile's, which
   * must then be the same.
   */
  static Integer sameConcurrency(Integer cap, ArrivalProfile profile) {
    if (profile == null || profile.maxConcurrency().isEmpty()) {
      return cap;
    }
    int fromProfile = profile.maxConcurrency().getAsInt();
    if (cap != null && cap != fromProfile) {
      throw new IllegalArgumentException("llm protocol: maxConcurrency(" + cap
          + ") conflicts with the arrival profile's max concurrency " + fromProfile);
    }
    return fromProfile;
  }

  /** The requests cancelled on purpose, picked with the arrival profile's seed; none at 0. */
  static Cancellation cancellation(double fraction, CancelAfter after, ArrivalProfile profile) {
    if (fraction > 0 && !after.cancels()) {
      throw new IllegalArgumentException("llm protocol: cancelFraction(" + fraction
          + ") needs cancelAfterTokens(...) or cancelAfter(...): when do the users leave?");
    }
    return fraction > 0
        ? new Cancellation(fraction, after, profile != null ? profile.seed() : 0)
        : Cancellation.NONE;
  }
}
