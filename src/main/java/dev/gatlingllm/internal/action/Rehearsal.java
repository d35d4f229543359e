package dev.gatlingllm.internal.action;

import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.dataset.SampleRequest;
import dev.gatlingllm.internal.arrival.ArrivalClock;
import dev.gatlingllm.internal.arrival.ArrivalSchedule;
import dev.gatlingllm.internal.protocol.RunParts;
import io.gatling.commons.stats.OK$;
import io.gatling.commons.stats.Status;
import io.gatling.commons.util.Clock;
import io.gatling.core.action.Action;
import io.gatling.core.actor.ActorRef;
import io.gatling.core.controller.Controller;
import io.gatling.core.controller.Controller$Command$StopLoadGenerator$Reason;
import io.gatling.core.session.GroupBlock;
import io.gatling.core.session.Session;
import io.gatling.core.stats.StatsEngine;
import io.netty.channel.EventLoop;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Option;
import scala.collection.immutable.Map$;
import scala.collection.immutable.Nil$;
import scala.runtime.BoxedUnit;

/**
 * The end of the warm-up: some of its requests sent through the run's own actions, on
 * copies of them, before the run.
 *
 * <p>Why: the warm-up's other requests go straight to the client, so the client's send and
 * response paths are compiled before the run, but not the actions' per-request code (reading
 * the user's session and Gatling's EL, building the body from a dataset prompt, the pacer's and
 * the limiter's callbacks, the self-check's histograms, recording the request). That code
 * compiled in the run's first 70 ms: at 1,000 req/s, 124 methods, the compiler thread taking
 * 38 ms of the client's core in the first 100 ms and half the sends of that window leaving
 * over 1 ms late (docs/client-overhead.md).
 *
 * <p>How: throwaway Gatling sessions carrying a dataset-shaped record ({@code prompt}, {@code
 * prompt_len}, {@code output_len}, {@code request_id}, with non-ASCII text; a conversation's
 * turn gets a one-turn conversation of that prompt) go through an
 * arrival action (when the run is paced, on a clock of its own at {@value #RATE} req/s) and
 * the request action, built over {@link RunParts#forRehearsal}: same client, loops and
 * pacer, but its own store, limiter, self-check and request ids ({@code warmup-action-<n>}),
 * statistics that go nowhere, and an end that only counts. A request whose template reads
 * other session attributes fails to build and ends as a failure here (logged at debug level
 * only), which compiles less but harms nothing. Nothing of it reaches the results, Gatling's
 * statistics or the record log. The user's own functions of the session do run for these
 * requests.
 */
public final class Rehearsal {

  private static final Logger LOG = LoggerFactory.getLogger(Rehearsal.class);
  /** Rate of the rehearsal's own arrival schedule: the pacer's timer and spin paths run. */
  static final double RATE = 500;
  /** Longest wait for the rehearsal, as for the rest of the warm-up; the run starts anyway. */
  private static final long MAX_WAIT_SECONDS = 120;
  /** Delay from the users' start to the first slot: every user waits, as in a run. */
  private static final long FIRST_SLOT_DELAY_NANOS = 20_000_000;
  /** Text with escapes and multi-byte characters, so Jackson's slower paths compile too. */
  static final String PROMPT = "Rehearsal before the run: « répétez » \"un, deux\"\n\ttrois — 四 🙂";

  /** Prompt tokens the rehearsal's records say they have. */
  private static final int PROMPT_LEN = 24;

  private Rehearsal() {}

  /**
   * Sends {@code requests} requests through copies of the run's actions and waits for them.
   *
   * @param run the parts of the run rehearsed: whether it is paced, its loops and warm-up
   *            settings, and what its copy for the rehearsal ({@link RunParts#forRehearsal})
   *            is made from
   * @return how many ended as failures, or -1 when they were not all back in time
   */
  public static int run(RequestTemplate spec, RunParts run, Clock gatlingClock, int requests) {
    ArrivalClock clock = run.pacing().arrivalClock().isPresent()
        ? ArrivalClock.of(ArrivalSchedule.compute(ArrivalProfile.builder()
            .numPrompts(requests).requestRate(RATE).seed(0).build()))
        : null;
    RunParts copy = run.forRehearsal(clock);
    CountDownLatch done = new CountDownLatch(requests);
    AtomicInteger failed = new AtomicInteger();
    Action end = new End(gatlingClock, done, failed);
    Action request = new LlmRequestAction(spec, copy, NoStats.INSTANCE, gatlingClock, end);
    Action first = clock == null ? request
        : new ArrivalAction(copy.pacing(), copy.setup().share(), NoStats.INSTANCE,
            gatlingClock, request);
    List<EventLoop> loops = run.setup().eventLoops();
    int maxTokens = run.setup().protocol().warmUp().maxTokens();
    // Started now, stopped at the end: a straggler past the deadline then records into this
    // stopped check, and never hooks the client's write times again during the run.
    copy.measures().start();
    if (clock != null) {
      clock.start(System.nanoTime() + FIRST_SLOT_DELAY_NANOS);
    }
    for (int i = 0; i < requests; i++) {
      EventLoop loop = loops.get(i % loops.size());
      Session session = spec.rehearsal(session(i, loop, maxTokens), PROMPT + " " + i,
          PROMPT_LEN, maxTokens);
      loop.execute(() -> first.$bang(session));
    }
    boolean finished;
    try {
      finished = done.await(MAX_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      finished = false;
    }
    copy.measures().stopSelfCheck();
    if (!finished) {
      // The store stays open: a straggler's record then lands in a store nobody reads, not in
      // an error on the run's log.
      LOG.warn("warm-up: {} of the {} requests sent through the run's actions were not back "
          + "after {} s; the run starts anyway", done.getCount(), requests, MAX_WAIT_SECONDS);
      return -1;
    }
    copy.requests().store().close();
    if (failed.get() > 0) {
      LOG.info("warm-up: {} of the {} requests sent through the run's actions failed (a request "
          + "that reads other session attributes than a dataset's cannot be built here)",
          failed.get(), requests);
    }
    return failed.get();
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  static Session session(int i, EventLoop loop, int maxTokens) {
    scala.collection.immutable.Map attributes = (scala.collection.immutable.Map)
        Map$.MODULE$.empty().updated(SampleRequest.PROMPT, PROMPT + " " + i)
            .updated(SampleRequest.PROMPT_LEN, PROMPT_LEN)
            .updated(SampleRequest.OUTPUT_LEN, maxTokens)
            .updated(SampleRequest.REQUEST_ID, "warmup-action-" + i);
    return new Session("gatling-llm rehearsal", i, attributes, OK$.MODULE$,
        (scala.collection.immutable.List) Nil$.MODULE$, s -> BoxedUnit.UNIT, loop);
  }

  /** Where a rehearsal's user ends: counted, nothing else. */
  private static final class End extends LlmAction {
    private final CountDownLatch done;
    private final AtomicInteger failed;

    End(Clock clock, CountDownLatch done, AtomicInteger failed) {
      super("rehearsal end", null, NoStats.INSTANCE, clock);
      this.done = done;
      this.failed = failed;
    }

    @Override
    protected void run(Session session) {
      if (session.isFailed()) {
        failed.incrementAndGet();
      }
      done.countDown();
    }
  }

  /** Statistics that go nowhere (a test's recording engine extends it). */
  static class NoStats implements StatsEngine {
    static final NoStats INSTANCE = new NoStats();

    @Override
    public void start() {}

    @Override
    public void stop(ActorRef<Controller.Command> controller,
        Controller$Command$StopLoadGenerator$Reason reason) {}

    @Override
    public void logUserStart(String scenario) {}

    @Override
    public void logUserEnd(String scenario) {}

    @Override
    public void logResponse(String scenario, scala.collection.immutable.List<String> groups,
        String requestName, long start, long end, Status status, Option<String> responseCode,
        Option<String> message) {}

    @Override
    public void logGroupEnd(String scenario, GroupBlock groupBlock, long exitTimestamp) {}

    @Override
    public void logRequestCrash(String scenario, scala.collection.immutable.List<String> groups,
        String requestName, String error) {}
  }
}
