package dev.gatlingllm.internal.protocol;

import dev.gatlingllm.internal.scale.InjectorShare;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The headers of each request: the run's base headers (user headers, authorization) and its
 * {@code x-request-id}, given or numbered. Each copy of the run numbers its own requests.
 */
final class RequestHeaders {

  private static final String REQUEST_ID = "x-request-id";

  private final HttpHeaders base;
  private final String prefix;
  private final InjectorShare share;
  /** True on an injector of a scaled-out benchmark: ids are the requests' arrival slots. */
  private final boolean bySlot;
  private final AtomicLong counter = new AtomicLong();

  RequestHeaders(HttpHeaders base, String prefix, InjectorShare share, boolean bySlot) {
    this.base = base;
    this.prefix = prefix;
    this.share = share;
    this.bySlot = bySlot;
  }

  /**
   * Fresh headers for one request; without a given {@code requestId}, the id is the prefix
   * followed by a run-wide counter from 0 (this injector's share of the benchmark's numbers),
   * or on an injector of a scaled-out benchmark by {@code slotIndex}, the benchmark's index of
   * the request (its arrival slot), so that ids are unique over all injectors and name the
   * same request in every run of the benchmark.
   *
   * @param slotIndex the request's index in the benchmark; -1 when it was not paced
   */
  HttpHeaders forRequest(String requestId, long slotIndex) {
    String id = requestId != null ? requestId : prefix + (bySlot && slotIndex >= 0 ? slotIndex
        : share.global(counter.getAndIncrement()));
    return withId(base, id);
  }

  /** Fresh headers: {@code base} and the given request id. */
  static HttpHeaders withId(HttpHeaders base, String id) {
    return new DefaultHttpHeaders().add(base).set(REQUEST_ID, id);
  }
}
