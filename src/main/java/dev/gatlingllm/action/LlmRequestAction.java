package dev.gatlingllm.action;

import dev.gatlingllm.client.LlmRequest;
import dev.gatlingllm.metrics.GoodputSlo;
import dev.gatlingllm.metrics.RequestRecord;
import dev.gatlingllm.protocol.LlmComponents;
import dev.gatlingllm.protocol.LlmProtocolKey;
import dev.gatlingllm.selfcheck.SelfCheck;
import io.gatling.commons.stats.KO$;
import io.gatling.commons.stats.OK$;
import io.gatling.commons.stats.Status;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import io.gatling.core.structure.ScenarioContext;
import io.netty.handler.codec.http.HttpHeaders;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import scala.Option;

/**
 * Sends one streamed request and, when it is over, logs it to Gatling's stats (the request
 * with its end-to-end latency, plus a "TTFT" pseudo-request), stores its record and passes the
 * user on. Runs on the user's event loop from start to end.
 */
final class LlmRequestAction extends LlmAction {

  /** Session attribute a pacing action sets to the request's scheduled send time. */
  static final String SCHEDULED_NANOS_ATTRIBUTE = "gatling-llm.scheduledNanos";
  /**
   * How long before its slot a paced user is let go: the request is built (Jackson, headers)
   * in that time and the send itself waits for the slot, so building is not part of how
   * late the request goes out.
   */
  static final long PREPARE_LEAD_NANOS = 1_000_000;

  private final RequestSpec spec;
  private final LlmComponents components;
  private final String ttftName;
  private final String goodputName;
  private final GoodputSlo slo;

  LlmRequestAction(RequestSpec spec, ScenarioContext ctx, Action next) {
    super(spec.name(), next, ctx.coreComponents().statsEngine(), ctx.coreComponents().clock());
    this.spec = spec;
    this.components = ctx.protocolComponentsRegistry().components(LlmProtocolKey.INSTANCE);
    this.ttftName = spec.name() + " TTFT";
    this.goodputName = spec.name() + " goodput";
    this.slo = components.protocol().results().goodput();
    components.registerEndpointType(spec.endpoint().endpointType);
    // The first body a JVM serialises costs tens of milliseconds (Jackson warms up): pay it
    // now, while the simulation is built, not on the event loop of the first arrival.
    RequestBodies.build(spec, "warm-up", "warm-up", List.of(message("user", "warm-up")), 1);
    if (!slo.isEmpty()) {
      // goodput rows may need outputs counted during the run
      components.outputTokens().prepareForRunTimeCounting();
    }
    components.warmUpOnce(spec.path(), maxTokens -> RequestBodies.build(spec,
        components.protocol().requestModelName(), WARM_UP_PROMPT,
        spec.endpoint() == RequestSpec.Endpoint.CHAT ? userTurn(WARM_UP_PROMPT) : null,
        maxTokens));
  }

  /** What warm-up requests ask; their answers are thrown away. */
  private static final String WARM_UP_PROMPT = "Warm-up request: please count from one to ten.";

  @Override
  protected void run(Session session) {
    if (!components.limiter().hasFreePermit()) {
      queueForPermit(session);
      return;
    }
    LlmRequest request = buildOrFail(session);
    if (request == null) {
      return;
    }
    SelfCheck check = components.selfCheck();
    long due = request.scheduledNanos();
    if (due != LlmRequest.NOT_SCHEDULED && components.pacer() != null) {
      components.pacer().awaitSlot(session.eventLoop(), due, () -> {
        // Pacing precision; waiting for a concurrency permit comes after and is not lateness.
        check.recordSendLateness(System.nanoTime() - due);
        components.limiter().acquire(session.eventLoop(), () -> send(session, request));
      });
    } else {
      components.limiter().acquire(session.eventLoop(), () -> send(session, request));
    }
  }

  /**
   * A user that can only wait for a permit builds its request when it gets one. At rate
   * {@code inf} with a cap, thousands of users start together; building every body up front
   * kept the event loops off their sockets for tens of ms (Netty runs queued tasks for at
   * least 100 ms before it polls again) while the first wave's tokens were arriving.
   */
  private void queueForPermit(Session session) {
    components.selfCheck();
    components.limiter().acquire(session.eventLoop(), () -> {
      LlmRequest request = buildOrCrash(session);
      if (request == null) {
        components.limiter().release(); // the user was passed on without sending
        return;
      }
      long due = request.scheduledNanos();
      if (due != LlmRequest.NOT_SCHEDULED && components.pacer() != null
          && due - System.nanoTime() > 0) {
        // a permit came back before this request's slot: hold it until then
        components.pacer().awaitSlot(session.eventLoop(), due, () -> send(session, request));
      } else {
        send(session, request);
      }
    });
  }

  /**
   * Runs with a permit held, possibly later from the limiter's queue: from here on the
   * permit must be given back and the user passed on whatever happens.
   */
  private void send(Session session, LlmRequest request) {
    long startMillis = clock.nowMillis();
    try {
      components.client().send(session.eventLoop(), request, record -> {
        components.limiter().release();
        try {
          complete(session, record, startMillis);
        } catch (RuntimeException e) {
          crashed(session, e);
        }
      });
    } catch (RuntimeException e) {
      components.limiter().release();
      crashed(session, e);
    }
  }

  /** {@link #buildOrFail}, where a crash must not escape either (it runs with a permit held). */
  private LlmRequest buildOrCrash(Session session) {
    try {
      return buildOrFail(session);
    } catch (RuntimeException e) {
      crashed(session, e);
      return null;
    }
  }

  /** The request, or null once the user was failed and passed on (a session value is missing). */
  private LlmRequest buildOrFail(Session session) {
    try {
      return buildRequest(session);
    } catch (SessionValue.ResolutionException e) {
      failBeforeSending(session, e.getMessage());
      return null;
    }
  }

  private LlmRequest buildRequest(Session session) {
    String prompt = spec.prompt() == null ? null : spec.prompt().resolve(session);
    List<Map<String, Object>> messages = null;
    if (spec.endpoint() == RequestSpec.Endpoint.CHAT) {
      messages = spec.messages() != null ? spec.messages().resolve(session) : userTurn(prompt);
    }
    Integer maxTokens = spec.maxTokens() == null ? null : spec.maxTokens().resolve(session);
    if (maxTokens != null && maxTokens < 1) {
      throw new SessionValue.ResolutionException("maxTokens must be >= 1, got " + maxTokens);
    }
    int promptTokens = spec.promptTokens() == null ? -1 : spec.promptTokens().resolve(session);
    String model = spec.model() != null ? spec.model().resolve(session)
        : components.protocol().requestModelName();
    byte[] body = RequestBodies.build(spec, model, prompt, messages, maxTokens);
    HttpHeaders headers = components.requestHeaders(
        spec.requestId() != null ? spec.requestId().resolve(session) : null);
    Object scheduled = session.attributes().get(SCHEDULED_NANOS_ATTRIBUTE).getOrElse(() -> null);
    long scheduledNanos = scheduled instanceof Long l ? l : LlmRequest.NOT_SCHEDULED;
    return new LlmRequest(spec.name(), spec.path(), headers, body, promptTokens, scheduledNanos);
  }

  /**
   * One pseudo-request per request, OK when it completed within every SLO, so that goodput
   * can gate a build with Gatling's assertions ({@code details("x goodput")}), then passes the
   * user on. The output length follows the result file's rule ({@link
   * dev.gatlingllm.protocol.OutputTokens}): when the server sent no usage the text is counted
   * on the counting thread, and the user goes on from there once its row is logged.
   */
  private void logGoodputThenContinue(Session session, RequestRecord record, long startMillis,
      long endMillis, Session next) {
    if (!record.success()) {
      logGoodput(session, startMillis, endMillis, "request failed");
      this.next.$bang(next);
      return;
    }
    components.outputTokens().outputLen(record, outputLen -> {
      try {
        logGoodput(session, startMillis, endMillis,
            slo.isGood(record, outputLen) ? null : "SLO missed");
      } finally {
        this.next.$bang(next);
      }
    }, countFailed -> {
      try {
        logger().underlying().error("'{}' could not count the output tokens: {}", name(),
            countFailed.toString(), countFailed);
        logGoodput(session, startMillis, endMillis, "token count failed");
      } finally {
        this.next.$bang(next);
      }
    });
  }

  /** @param koMessage null for OK */
  private void logGoodput(Session session, long startMillis, long endMillis, String koMessage) {
    statsEngine.logResponse(session.scenario(), session.groups(), goodputName, startMillis,
        endMillis, koMessage == null ? OK$.MODULE$ : KO$.MODULE$, Option.empty(),
        Option.apply(koMessage));
  }

  private List<Map<String, Object>> userTurn(String prompt) {
    List<Map<String, Object>> messages = new ArrayList<>(2);
    if (spec.systemPrompt() != null) {
      messages.add(message("system", spec.systemPrompt()));
    }
    messages.add(message("user", prompt));
    return messages;
  }

  private static Map<String, Object> message(String role, String content) {
    Map<String, Object> m = new LinkedHashMap<>(2);
    m.put("role", role);
    m.put("content", content);
    return m;
  }

  private void complete(Session session, RequestRecord record, long startMillis) {
    components.store().add(record);
    components.markSend(record.startNanos());
    long endMillis = startMillis + Math.round(
        (record.success() ? record.latencyNanos() : record.endNanos() - record.startNanos()) / 1e6);
    Option<String> code = record.httpStatus() == 0
        ? Option.empty() : Option.apply(Integer.toString(record.httpStatus()));
    Status status = record.success() ? OK$.MODULE$ : KO$.MODULE$;
    Option<String> message = record.success()
        ? Option.empty() : Option.apply(KoMessages.lowCardinality(record.error()));
    statsEngine.logResponse(session.scenario(), session.groups(), name(), startMillis, endMillis,
        status, code, message);
    if (record.ttftNanos() >= 0) {
      statsEngine.logResponse(session.scenario(), session.groups(), ttftName, startMillis,
          startMillis + Math.round(record.ttftNanos() / 1e6), OK$.MODULE$, code, Option.empty());
    }
    // The scheduled time belongs to this request only, not to the next ones of the journey.
    Session next = session.logGroupRequestTimings(startMillis, endMillis)
        .remove(SCHEDULED_NANOS_ATTRIBUTE);
    if (!record.success()) {
      next = next.markAsFailed();
    }
    if (spec.saveTextAs() != null) {
      next = next.set(spec.saveTextAs(), record.generatedText());
    }
    if (slo.isEmpty()) {
      this.next.$bang(next);
    } else {
      logGoodputThenContinue(session, record, startMillis, endMillis, next);
    }
  }
}
