package dev.gatlingllm.internal.protocol;

import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.internal.client.ChunkReader;
import dev.gatlingllm.internal.client.LlmClient;
import dev.gatlingllm.internal.client.LlmRequest;
import dev.gatlingllm.internal.client.WarmUpRequests;
import dev.gatlingllm.internal.metrics.RecordStore;
import dev.gatlingllm.internal.report.RecordCodec;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.HttpHeaders;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plans and runs the warm-up of one run (see {@link WarmUpOptions}): a probe request, then the
 * warm-up proper at the run's concurrency. Its requests carry {@code x-request-id:
 * warmup-<n>} and are recorded nowhere.
 */
final class RunWarmUp {

  private static final Logger LOG = LoggerFactory.getLogger(RunWarmUp.class);
  /** Longest wait for each phase; a server this slow is reported, and the run goes on. */
  private static final Duration MAX_WAIT = Duration.ofMinutes(2);

  private RunWarmUp() {}

  /**
   * @param body     the body of a warm-up request with the given {@code max_tokens}
   * @param reader   how its answers are read (the API's)
   * @param headers  fresh request headers carrying the given request id
   * @param requestNanos how long the run's requests take, to size the warm-up's concurrency
   *                 for a paced run, when the warm-up goes to a stand-in; 0 when it goes to
   *                 the run's server (the probe request's time is taken)
   */
  static void run(LlmProtocol protocol, WarmUpOptions options, String target, LlmClient client,
      List<EventLoop> loops, String path, IntFunction<byte[]> body, ChunkReader reader,
      Function<String, HttpHeaders> headers, IntConsumer rehearse, long requestNanos) {
    // Each request builds its body and headers and encodes its record as a run's request
    // does, so that code is compiled before the run too, not only the response path.
    IntFunction<LlmRequest> request = i -> new LlmRequest("warm-up", path,
        headers.apply("warmup-" + i), body.apply(options.maxTokens()), -1,
        LlmRequest.NOT_SCHEDULED, false, reader);
    WarmUpRequests.Outcome probe =
        WarmUpRequests.run(client, loops, request, 1, 1, MAX_WAIT);
    if (!probe.finished() || probe.failed() > 0) {
      if (requestNanos > 0) {
        // a gap of the stand-in's, never the server's: the server was sent nothing
        LOG.warn("warm-up: the client's {} could not answer its warm-up request ({}): a gap in "
            + "the stand-in, not a reply of your server; the run's first requests meet a colder "
            + "client", target, probe.finished() ? probe.firstError()
                : "no answer in " + MAX_WAIT.toSeconds() + " s");
        return;
      }
      String outcome = probe.finished() ? "failed (" + probe.firstError() + ")"
          : "got no answer in " + MAX_WAIT.toSeconds() + " s";
      LOG.warn("the warm-up request to {} {}: skipping the warm-up; the run's requests will "
          + "probably fail the same way", target, outcome);
      return;
    }
    int concurrency = options.concurrency() > 0
        ? options.concurrency()
        : concurrency(protocol, requestNanos > 0 ? requestNanos : probe.meanNanos(), loops.size());
    int requests = options.requests() >= 0 ? options.requests()
        : autoRequests(concurrency, probe.chunks(), probe.meanNanos());
    // The last of them go through the run's own actions (Gatling sessions, the pacer, the
    // limiter, the record path) rather than straight to the client: see action.Rehearsal.
    int rehearsed = Math.min(requests, REHEARSED_REQUESTS);
    requests -= rehearsed;
    IntFunction<LlmRequest> after = i -> request.apply(i + 1);
    WarmUpRequests.Outcome warm;
    // The records go where a run's go, a store mirrored to the record log's encoding, but a
    // throwaway one: the store and the codec are compiled, nothing is kept.
    RecordStore scratch = new RecordStore();
    try {
      ByteArrayOutputStream encoded = new ByteArrayOutputStream();
      scratch.mirrorTo(r -> {
        encoded.reset();
        RecordCodec.encode(r, encoded);
      });
      warm = WarmUpRequests.run(client, loops, after, requests, concurrency, MAX_WAIT, r -> {
        try {
          scratch.add(r);
        } catch (IllegalStateException closed) {
          // a straggler after the wait gave up: nothing to compile it for any more
        }
      });
    } finally {
      scratch.close();
    }
    long rehearsalStart = System.nanoTime();
    if (rehearsed > 0) {
      rehearse.accept(rehearsed);
    }
    long rehearsalNanos = System.nanoTime() - rehearsalStart;
    closeSomeConnections(client, loops);
    String failures = warm.failed() == 0 ? ""
        : ", " + warm.failed() + " failed (first: " + warm.firstError() + ")";
    LOG.info("warm-up: {} requests to {} at concurrency {} ({} of them through the run's "
        + "actions) in {} s{}{}; not part of the results", warm.sent() + 1 + rehearsed, target,
        concurrency,
        rehearsed, String.format(Locale.ROOT, "%.1f",
            (probe.elapsedNanos() + warm.elapsedNanos() + rehearsalNanos) / 1e9), failures,
        warm.finished() ? "" : ", still running after " + MAX_WAIT.toSeconds() + " s");
  }

  /**
   * Connections close in a run too (idle past the keep-alive timeout, or closed by the
   * server): open and close a few on each loop, so that path is compiled before the run.
   * Separate connections: the pool the warm-up filled stays as it is.
   */
  private static void closeSomeConnections(LlmClient client, List<EventLoop> loops) {
    for (int i = 0; i < CLOSES_PER_LOOP; i++) {
      for (EventLoop loop : loops) {
        String problem = client.openAndClose(loop);
        if (problem != null) {
          LOG.debug("warm-up: could not open a connection to close ({})", problem);
          return;
        }
      }
    }
  }

  /**
   * Warm-up requests sent through the run's actions at most: with the forked JVM's compile
   * thresholds (a fiftieth of the usual) a few dozen calls compile a method.
   */
  static final int REHEARSED_REQUESTS = 64;

  /** Enough closes for the JIT to compile the close path (it compiles after a handful). */
  private static final int CLOSES_PER_LOOP = 12;

  /**
   * The dataset, the tokenizer and the warm-up leave a young generation full of objects that
   * live on: the first young collection of the run would copy them all, a pause of hundreds
   * of ms on one core (measured: 205-224 ms at 4,096 prompts) inside the measured window.
   * A full collection now, with nothing measured, moves them out of the way.
   */
  static void collectBeforeTheRun() {
    long start = System.nanoTime();
    System.gc();
    LOG.debug("collected before the run in {} ms", (System.nanoTime() - start) / 1_000_000);
  }

  /**
   * Two rounds at the run's concurrency, more when that is too few chunks to compile the
   * per-chunk path, but no more rounds than fit in {@link WarmUpOptions#MAX_EXTRA_NANOS}.
   */
  static int autoRequests(int concurrency, long chunksPerRequest, long requestNanos) {
    int forChunks = (int) Math.ceil(
        (double) WarmUpOptions.TARGET_CHUNKS / Math.max(1, chunksPerRequest));
    long rounds = Math.max(2, WarmUpOptions.MAX_EXTRA_NANOS / Math.max(1, requestNanos));
    return (int) Math.max(2L * concurrency, Math.min(forChunks, rounds * concurrency));
  }

  /** The run's concurrency, as well as it can be known before the run. */
  static int concurrency(LlmProtocol protocol, long requestNanos, int loops) {
    Optional<ArrivalProfile> profile = protocol.arrivals();
    int limit = profile.map(ArrivalProfile::numPrompts).orElse(WarmUpOptions.MAX_AUTO_CONCURRENCY);
    int c;
    if (protocol.maxConcurrency().isPresent()) {
      c = protocol.maxConcurrency().get();
    } else if (profile.isEmpty()) {
      c = loops;
    } else if (profile.get().rampUpEndRps().isPresent()) {
      c = (int) Math.ceil(profile.get().rampUpEndRps().getAsInt() * requestNanos / 1e9);
    } else if (Double.isInfinite(profile.get().requestRate())) {
      c = limit;
    } else {
      c = (int) Math.ceil(profile.get().requestRate() * requestNanos / 1e9);
    }
    return Math.max(1, Math.min(c, Math.min(limit, WarmUpOptions.MAX_AUTO_CONCURRENCY)));
  }
}
