package dev.gatlingllm.internal.action;

import dev.gatlingllm.dataset.MixedServingBoundaryDataset;
import dev.gatlingllm.internal.arrival.BoundedConcurrencyLimiter;
import dev.gatlingllm.internal.client.CancelAfter;
import dev.gatlingllm.internal.client.EncodedRequest;
import dev.gatlingllm.internal.client.LlmRequest;
import dev.gatlingllm.internal.metrics.GoodputSlo;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.metrics.TaskType;
import dev.gatlingllm.internal.client.LlmClient;
import dev.gatlingllm.internal.metrics.RecordStore;
import dev.gatlingllm.internal.options.ResultOptionsAccess;
import dev.gatlingllm.internal.protocol.LlmComponents;
import dev.gatlingllm.internal.protocol.OutputTokens;
import dev.gatlingllm.internal.protocol.RunMeasures;
import dev.gatlingllm.internal.protocol.RunPacing;
import dev.gatlingllm.internal.protocol.RunParts;
import dev.gatlingllm.internal.protocol.RunRequests;
import dev.gatlingllm.internal.protocol.RunStop;
import dev.gatlingllm.internal.protocol.ServerCompliance;
import dev.gatlingllm.internal.selfcheck.SelfCheck;
import io.gatling.commons.stats.KO$;
import io.gatling.commons.stats.OK$;
import io.gatling.commons.stats.Status;
import io.gatling.commons.util.Clock;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import io.gatling.core.stats.StatsEngine;
import io.gatling.core.structure.ScenarioContext;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import java.util.function.IntFunction;
import scala.Option;

/**
 * Sends one streamed request and, when it is over, logs it to Gatling's stats (the request
 * with its end-to-end latency, plus a "TTFT" pseudo-request), stores its record and passes the
 * user on. Runs on the user's event loop from start to end. In a paced run, a user that has
 * not taken its arrival slot yet (no {@code awaitArrival()} before) takes it here, at its
 * first request: the pacing comes with the profile.
 */
public final class LlmRequestAction extends LlmAction {

  /** Session attribute a pacing action sets to the request's scheduled send time. */
  static final String SCHEDULED_NANOS_ATTRIBUTE = "gatling-llm.scheduledNanos";
  /**
   * Session attribute: when a wait that is not the client's own ended (a conversation's place
   * under {@code --multi-turn-concurrency}); the request's send lateness counts from there
   * when that is after its scheduled time.
   */
  static final String READY_NANOS_ATTRIBUTE = "gatling-llm.readyNanos";
  /**
   * How long before its slot a paced user is let go: the request is built (Jackson, headers)
   * in that time and the send itself waits for the slot, so building is not part of how
   * late the request goes out.
   */
  static final long PREPARE_LEAD_NANOS = 1_000_000;

  private final RequestTemplate spec;
  // What each request uses of its copy of the run, held here so that the per-request path
  // reaches each in one field read: when it goes out (pacing), what the run measures, the
  // client, the requests' ids, cancel choice, store and compliance check, and how output
  // tokens are counted for goodput.
  private final RunPacing pacing;
  private final RunMeasures measures;
  private final LlmClient client;
  private final RunRequests requests;
  private final RecordStore store;
  private final ServerCompliance compliance;
  private final OutputTokens outputTokens;
  /** The model name each request asks for. */
  private final String model;
  private final String ttftName;
  private final String goodputName;
  private final GoodputSlo slo;
  /** Holds a user that has not taken its arrival slot; null when the run is not paced. */
  private final ArrivalGate arrival;
  /** Whether a {@code --max-concurrency} cap can hold requests: only then is there a queue. */
  private final boolean capped;

  public LlmRequestAction(RequestTemplate spec, ScenarioContext ctx, Action next) {
    this(spec, LlmComponents.partsOf(ctx), ctx.coreComponents().statsEngine(),
        ctx.coreComponents().clock(), next);
    // actions are built last to first: the warm-up is done by now
    LlmComponents.partsOf(ctx).start().awaitCommonStart();
  }

  /**
   * The action over the given parts of a run: the run's, whose first request action runs the
   * warm-up here, or a rehearsal's (see {@link Rehearsal}), whose warm-up is marked done.
   */
  LlmRequestAction(RequestTemplate spec, RunParts run, StatsEngine statsEngine,
      Clock gatlingClock, Action next) {
    super(spec.name(), next, statsEngine, gatlingClock);
    this.spec = spec;
    this.pacing = run.pacing();
    this.measures = run.measures();
    this.client = run.setup().client();
    this.requests = run.requests();
    this.store = requests.store();
    this.compliance = requests.compliance();
    this.outputTokens = run.setup().outputTokens();
    this.model = run.setup().protocol().requestModelName();
    this.ttftName = spec.name() + " TTFT";
    this.goodputName = spec.name() + " goodput";
    this.slo = ResultOptionsAccess.goodput(run.setup().protocol().results());
    this.arrival = pacing.arrivalClock().isPresent()
        ? new ArrivalGate(pacing, run.setup().share()) : null;
    this.capped = pacing.limiter() instanceof BoundedConcurrencyLimiter;
    requests.register(spec.endpointType(), spec.taskType());
    // The first body a JVM serialises costs tens of milliseconds (Jackson warms up): pay it
    // now, while the simulation is built, not on the event loop of the first arrival.
    IntFunction<byte[]> warmUp = spec.warmUpBody(model);
    if (warmUp != null) {
      warmUp.apply(1);
    }
    if (!slo.isEmpty() && spec.taskType() == TaskType.GENERATION) {
      // goodput rows may need outputs counted during the run
      outputTokens.prepareForRunTimeCounting();
    }
    if (warmUp != null) {
      run.start().warmUpOnce(run, spec.path(), warmUp, spec.reader(),
          (over, n) -> Rehearsal.run(spec, over, gatlingClock, n));
    }
  }

  @Override
  protected void run(Session session) {
    if (arrival != null && !ArrivalGate.arrived(session)) {
      // back through this action once the slot is near, as if it came after awaitArrival()
      arrival.await(session, this::$bang);
      return;
    }
    // an unpaced request arrives now: its wait for a permit starts here
    long arrived = System.nanoTime();
    if (!pacing.limiter().hasFreePermit()) {
      queueForPermit(session, arrived);
      return;
    }
    Prepared request = buildOrFail(session);
    if (request == null) {
      return;
    }
    SelfCheck check = measures.start();
    long due = request.encoded().request().scheduledNanos();
    if (due != LlmRequest.NOT_SCHEDULED && pacing.pacer() != null) {
      // The client's own lateness runs from when the request could go: its slot, or the end
      // of a wait the run asked for (a conversation's place), whichever is later.
      long ready = Math.max(due, longAttribute(session, READY_NANOS_ATTRIBUTE, due));
      // In schedule order across the loops: whichever loop's slot comes due first sends this
      // one too if it is due by then, from that loop (see PacedSends).
      pacing.pacedSends().await(pacing.pacer(), session.eventLoop(), due, loop -> {
        // Pacing precision; waiting for a concurrency permit comes after and is not lateness.
        check.recordSendLateness(System.nanoTime() - ready);
        pacing.limiter().acquire(loop, () -> send(loop, session, request, due));
      });
    } else {
      long from = due != LlmRequest.NOT_SCHEDULED ? due : arrived;
      pacing.limiter().acquire(session.eventLoop(),
          () -> send(session.eventLoop(), session, request, from));
    }
  }

  /**
   * A user that can only wait for a permit builds its request when it gets one. At rate
   * {@code inf} with a cap, thousands of users start together; building every body up front
   * kept the event loops off their sockets for tens of ms (Netty runs queued tasks for at
   * least 100 ms before it polls again) while the first wave's tokens were arriving.
   */
  private void queueForPermit(Session session, long arrived) {
    measures.start();
    pacing.limiter().acquire(session.eventLoop(), () -> {
      Prepared request = buildOrFail(session);
      if (request == null) {
        pacing.limiter().release(); // the user was passed on without sending
        return;
      }
      long due = request.encoded().request().scheduledNanos();
      long from = due != LlmRequest.NOT_SCHEDULED ? due : arrived;
      if (due != LlmRequest.NOT_SCHEDULED && pacing.pacer() != null
          && due - System.nanoTime() > 0) {
        // a permit came back before this request's slot: hold it until then
        pacing.pacer().awaitSlot(session.eventLoop(), due,
            () -> send(session.eventLoop(), session, request, from));
      } else {
        send(session.eventLoop(), session, request, from);
      }
    });
  }

  /**
   * Runs with a permit held, possibly later from the limiter's queue: from here on the
   * permit must be given back and the user passed on whatever happens. {@code loop} is the
   * loop this runs on: the user's, or the one that sent a paced request in its place.
   * {@code arrivedNanos} is when the request arrived (its slot, or when its user reached it
   * unpaced): with a cap, the time from there to the send is its client queue time.
   */
  private void send(EventLoop loop, Session session, Prepared request, long arrivedNanos) {
    long startMillis = clock.nowMillis();
    RunStop.Ticket ticket = measures.sending();
    if (ticket == RunStop.STOPPED) { // the run is ending: nothing more goes out
      pacing.limiter().release();
      failBeforeSending(session, measures.refusal());
      return;
    }
    try {
      client.send(loop, request.encoded(), record -> {
        pacing.limiter().release();
        if (!measures.ended(ticket)) {
          // stopped from within, results written: recorded nowhere, but the user still
          // goes back to Gatling, which would otherwise wait for it
          next.$bang(session.markAsFailed());
          return;
        }
        try {
          RequestRecord sent = capped ? queued(record, arrivedNanos) : record;
          complete(session, request.audioSeconds() > 0
              ? sent.toBuilder().inputAudioSeconds(request.audioSeconds()).build() : sent,
              startMillis);
          // after it is stored and in Gatling's stats: a live stop it causes keeps it (a stop
          // at the first answer, before it, left Gatling a run with no request to report)
          compliance.record(request.asked(), record);
        } catch (RuntimeException e) {
          crashed(session, e);
        }
      });
    } catch (RuntimeException e) {
      pacing.limiter().release();
      // never on the wire: not in flight for the over-saturation check either
      measures.ended(ticket);
      crashed(session, e);
    }
  }

  /**
   * The request, encoded for the wire, or null once the user was failed and passed on: a
   * session value is missing or invalid, or the user's own function threw. Never throws (in
   * the limiter's queue it runs with a permit held). A paced request is built and encoded
   * here, in its user's lead before the slot: the send at the slot only writes it.
   */
  private Prepared buildOrFail(Session session) {
    try {
      return buildRequest(session);
    } catch (SessionValue.ResolutionException e) {
      failUnbuilt(session, e.getMessage());
    } catch (RuntimeException e) {
      if (requests.rehearsal()) {
        // a throwaway session lacks the user's own attributes: expected, not the run's error
        logger().underlying().debug("'{}' could not build a warm-up request: {}", name(),
            e.toString());
      } else {
        logger().underlying().error("'{}' crashed building its request: {}", name(),
            e.toString(), e);
      }
      failUnbuilt(session, "crashed: " + e.getClass().getSimpleName());
    }
    return null;
  }

  /**
   * A request that could not be built is a failed request like any other, as in vLLM's
   * client, where an exception before the send is a failure with its message: a KO row in
   * Gatling's statistics (so {@code failedRequests()} assertions see it), a failed record in
   * the result JSON, and a failed goodput row. Before, it was only a line in Gatling's errors
   * table, invisible to both.
   */
  private void failUnbuilt(Session session, String message) {
    long now = System.nanoTime();
    RequestRecord record = RequestRecord.builder(spec.name())
        .scheduledNanos(longAttribute(session, SCHEDULED_NANOS_ATTRIBUTE, now)).startNanos(now)
        .error(message).generatedText("").build();
    try {
      complete(session, record, clock.nowMillis());
    } catch (RuntimeException e) {
      crashed(session, e);
    }
  }

  private Prepared buildRequest(Session session) {
    long slot = longAttribute(session, ArrivalGate.REQUEST_INDEX_ATTRIBUTE, -1);
    HttpHeaders headers = requests.headers(spec.requestId(session), slot);
    spec.addHeaders(session, headers);
    RequestTemplate.Body body = spec.body(session, model, headers.get(REQUEST_ID));
    int promptTokens = spec.promptTokens(session);
    if (!body.contentType().equals(RequestTemplate.Body.JSON)) {
      headers.set(HttpHeaderNames.CONTENT_TYPE, body.contentType());
    }
    return new Prepared(client.encode(new LlmRequest(spec.name(), spec.path(),
        headers, body.bytes(), promptTokens,
        longAttribute(session, SCHEDULED_NANOS_ATTRIBUTE, LlmRequest.NOT_SCHEDULED),
        spec.taskType() != TaskType.GENERATION, spec.reader(), body.schema(),
        spec.taskType() == TaskType.GENERATION ? requests.cancelFor(slot) : CancelAfter.NEVER,
        spec.target(session))),
        body.asked(), body.audioSeconds());
  }

  /**
   * The record with its wait for a permit, vLLM's {@code client_queue_time}: from the arrival
   * to the send, pacing's own lateness of a few microseconds included as in vLLM's client.
   */
  private static RequestRecord queued(RequestRecord sent, long arrivedNanos) {
    return sent.toBuilder().clientQueueNanos(Math.max(0, sent.startNanos() - arrivedNanos))
        .build();
  }

  /**
   * A request ready to write, what it asks of the server (null: nothing checked) and the
   * seconds of audio it sends (0 for none).
   */
  private record Prepared(EncodedRequest encoded, ServerCompliance.Asked asked,
      double audioSeconds) {}

  private static final String REQUEST_ID = "x-request-id";

  /** A {@code long} the pacing action left in the session, or {@code otherwise}. */
  private static long longAttribute(Session session, String name, long otherwise) {
    Object value = session.attributes().get(name).getOrElse(() -> null);
    return value instanceof Long l ? l : otherwise;
  }

  /**
   * One pseudo-request per request, OK when it completed within every SLO, so that goodput
   * can gate a build with Gatling's assertions ({@code details("x goodput")}), then passes the
   * user on. The output length follows the result file's rule ({@link
   * dev.gatlingllm.internal.protocol.OutputTokens}): when the server sent no usage the text is counted
   * on the counting thread, and the user goes on from there once its row is logged.
   */
  private void logGoodputThenContinue(Session session, RequestRecord record, long startMillis,
      long endMillis, Session next, String goodputRow) {
    if (!record.success()) {
      logGoodput(session, goodputRow, startMillis, endMillis, "request failed");
      this.next.$bang(next);
      return;
    }
    outputTokens.outputLen(record, outputLen -> {
      try {
        logGoodput(session, goodputRow, startMillis, endMillis,
            slo.isGood(record, outputLen) ? null : "SLO missed");
      } finally {
        this.next.$bang(next);
      }
    }, countFailed -> {
      try {
        logger().underlying().error("'{}' could not count the output tokens: {}", name(),
            countFailed.toString(), countFailed);
        logGoodput(session, goodputRow, startMillis, endMillis, "token count failed");
      } finally {
        this.next.$bang(next);
      }
    });
  }

  /** @param koMessage null for OK */
  private void logGoodput(Session session, String goodputRow, long startMillis, long endMillis,
      String koMessage) {
    statsEngine.logResponse(session.scenario(), session.groups(), goodputRow, startMillis,
        endMillis, koMessage == null ? OK$.MODULE$ : KO$.MODULE$, Option.empty(),
        Option.apply(koMessage));
  }

  /**
   * A request the client cancelled on purpose ({@code --cancel-fraction}) is logged OK under a
   * row of its own, {@code <request> cancelled}, from its start to the cancel: it did what the
   * run asked, so it is no KO (a KO would fail the error assertions of a run that cancels by
   * design, and say the server failed), and its truncated latency and its TTFT stay out of the
   * request's own rows, as they stay out of vLLM's figures in the result. No goodput row: it
   * was not completed. The user goes on as after any request.
   */
  private void cancelled(Session session, RequestRecord record, String row, long startMillis,
      Option<String> code) {
    long endMillis = startMillis + Math.round((record.endNanos() - record.startNanos()) / 1e6);
    statsEngine.logResponse(session.scenario(), session.groups(), row + " cancelled",
        startMillis, endMillis, OK$.MODULE$, code, Option.empty());
    Session next = session.logGroupRequestTimings(startMillis, endMillis)
        .remove(SCHEDULED_NANOS_ATTRIBUTE).remove(ArrivalGate.REQUEST_INDEX_ATTRIBUTE)
        .remove(READY_NANOS_ATTRIBUTE);
    if (spec.saveTextAs() != null) {
      next = next.set(spec.saveTextAs(), record.generatedText());
    }
    this.next.$bang(spec.after(next, record));
  }

  private void complete(Session session, RequestRecord sent, long startMillis) {
    int turn = spec.turn(session);
    // the class a dataset gave the request (mixed_serving_boundary), for the per-class figures
    Object requestClass = session.attributes().get(MixedServingBoundaryDataset.WORKLOAD_CLASS)
        .getOrElse(() -> null);
    RequestRecord record = turn == 0 && !(requestClass instanceof String) ? sent
        : sent.toBuilder().turn(turn)
            .requestClass(requestClass instanceof String name ? name : null).build();
    // a conversation's turns have rows of their own, for assertions on turn k
    String row = spec.rowName(session);
    boolean ownRow = !row.equals(name());
    store.add(record);
    measures.markSend(record.startNanos());
    long endMillis = startMillis + Math.round(
        (record.success() ? record.latencyNanos() : record.endNanos() - record.startNanos()) / 1e6);
    Option<String> code = record.httpStatus() == 0
        ? Option.empty() : Option.apply(Integer.toString(record.httpStatus()));
    if (record.cancelled()) {
      cancelled(session, record, row, startMillis, code);
      return;
    }
    Status status = record.success() ? OK$.MODULE$ : KO$.MODULE$;
    Option<String> message = record.success()
        ? Option.empty() : Option.apply(KoMessages.lowCardinality(record.error()));
    statsEngine.logResponse(session.scenario(), session.groups(), row, startMillis, endMillis,
        status, code, message);
    if (record.ttftNanos() >= 0 && spec.taskType() == TaskType.GENERATION) {
      statsEngine.logResponse(session.scenario(), session.groups(),
          ownRow ? row + " TTFT" : ttftName, startMillis,
          startMillis + Math.round(record.ttftNanos() / 1e6), OK$.MODULE$, code, Option.empty());
    }
    // The scheduled time belongs to this request only, not to the next ones of the journey.
    Session next = session.logGroupRequestTimings(startMillis, endMillis)
        .remove(SCHEDULED_NANOS_ATTRIBUTE).remove(ArrivalGate.REQUEST_INDEX_ATTRIBUTE)
        .remove(READY_NANOS_ATTRIBUTE);
    if (!record.success()) {
      next = next.markAsFailed();
    }
    if (spec.saveTextAs() != null) {
      next = next.set(spec.saveTextAs(), record.generatedText());
    }
    next = spec.after(next, record);
    if (slo.isEmpty() || spec.taskType() != TaskType.GENERATION) {
      // vLLM has no goodput for pooling requests
      this.next.$bang(next);
    } else {
      logGoodputThenContinue(session, record, startMillis, endMillis, next,
          ownRow ? row + " goodput" : goodputName);
    }
  }
}
