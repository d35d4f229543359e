package dev.gatlingllm.internal.protocol;

import io.gatling.commons.stats.KO$;
import io.gatling.commons.stats.OK$;
import io.gatling.commons.stats.Status;
import io.gatling.commons.util.Clock;
import io.gatling.core.CoreComponents;
import io.gatling.core.actor.ActorRef;
import io.gatling.core.actor.ActorSystem;
import io.gatling.core.session.Session;
import io.gatling.core.stats.DataWritersStatsEngine;
import io.gatling.core.stats.writer.ConsoleData;
import io.gatling.core.stats.writer.ConsoleDataWriter;
import io.gatling.core.stats.writer.ConsoleSummary;
import io.gatling.core.stats.writer.DataWriterMessage;
import io.gatling.core.stats.writer.LogFileDataWriter;
import io.gatling.core.stats.writer.RunMessage;
import io.gatling.core.stats.writer.ShortScenarioDescription;
import io.gatling.core.stats.writer.UserCounters;
import io.netty.channel.EventLoop;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import scala.Option;
import scala.collection.immutable.Map$;
import scala.collection.immutable.Nil$;
import scala.concurrent.Promise;
import scala.jdk.javaapi.CollectionConverters;
import scala.runtime.BoxedUnit;

/**
 * Runs Gatling's own per-request code on throwaway objects before the run, so that the JIT
 * compiles it before the measured window rather than inside it.
 *
 * <p>Why: the client warm-up ({@link RunWarmUp}) compiles the request and response path, but
 * a Gatling run also executes Gatling's code for every finished request: the stats engine
 * building a response message, the data-writer actors' mailbox, the {@code simulation.log}
 * serialiser, the console writer's counters, the {@link Session} updates an action makes,
 * and every five seconds the console summary (number and date formatting). A JIT log of a
 * run at concurrency 64 on one core (docs/client-overhead.md) showed ~150 compiles at the
 * first completions and ~100 at the first console summary, each burst lining up with a
 * cluster of inter-token errors above 1 ms: the compiler shares the event loops' core.
 *
 * <p>Nothing here reaches the run's statistics: the writers are new instances writing to a
 * temporary folder (deleted after), the console summary is formatted but never printed, and
 * the sessions belong to no user. The classes used are Gatling internals (public in the
 * bytecode, not an API): a Gatling version that changes them makes this a no-op with a log
 * line, never a failed run; {@code GatlingWarmUpTest} pins it for the version this project
 * builds with.
 */
final class GatlingWarmUp {

  /** Enough calls for the JIT to compile each path even at default thresholds. */
  static final int RESPONSES = 2_000;
  static final int SUMMARIES = 40;
  private static final String SCENARIO = "gatling-llm warm-up";
  private static final List<String> NAMES = List.of("warm-up", "warm-up TTFT", "warm-up goodput");
  private static final long STOP_WAIT_SECONDS = 10;

  private GatlingWarmUp() {}

  /**
   * Runs every part that the components allow.
   *
   * @return what could not be warmed, empty when everything was
   */
  static List<String> run(CoreComponents core, EventLoop loop) {
    List<String> problems = new ArrayList<>();
    attempt(problems, "stats writers", () -> {
      if (core.actorSystem() == null) {
        throw new IllegalStateException("no actor system");
      }
      statsWriters(core.actorSystem(), core.clock());
    });
    attempt(problems, "console summary", () -> console(core.clock(),
        core.configuration().data().console()));
    attempt(problems, "session", () -> sessions(loop));
    return problems;
  }

  private static void attempt(List<String> problems, String part, Runnable warmUp) {
    try {
      warmUp.run();
    } catch (RuntimeException | LinkageError e) {
      problems.add(part + ": " + e);
    }
  }

  /**
   * The stats engine, the writer actor's mailbox and the {@code simulation.log} serialiser:
   * a new {@link DataWritersStatsEngine} over a new file writer in a temporary folder.
   *
   * @return the size the throwaway {@code simulation.log} reached
   */
  static long statsWriters(ActorSystem system, Clock clock) {
    Path folder = null;
    try {
      folder = Files.createTempDirectory("gatling-llm-warm-up");
      LogFileDataWriter writer = LogFileDataWriter.apply(runMessage(clock), scenarios(),
          scalaList(List.of()), folder);
      ActorRef<DataWriterMessage> ref = system.actorOf(writer);
      DataWritersStatsEngine engine =
          new DataWritersStatsEngine(scalaList(List.of(ref)), system, clock);
      engine.start();
      long now = clock.nowMillis();
      for (int i = 0; i < RESPONSES; i++) {
        engine.logUserStart(SCENARIO);
        engine.logResponse(SCENARIO, scalaList(List.of()), NAMES.get(i % NAMES.size()), now,
            now + i % 50, status(i), Option.apply("200"), message(i));
        engine.logUserEnd(SCENARIO);
      }
      ref.$bang(DataWriterMessage.Flush$.MODULE$);
      Promise<BoxedUnit> stopped = scala.concurrent.Promise$.MODULE$.apply();
      CompletableFuture<Void> done = new CompletableFuture<>();
      stopped.future().onComplete(r -> done.complete(null), system.executionContext());
      ref.$bang(new DataWriterMessage.Stop(stopped));
      done.get(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
      try (Stream<Path> files = Files.walk(folder)) {
        return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (Exception e) {
      throw new IllegalStateException("the throwaway writer did not stop: " + e, e);
    } finally {
      deleteQuietly(folder);
    }
  }

  /**
   * The console writer's counters and the summary it prints every few seconds, formatted
   * (never printed) from counters like a run's.
   */
  static void console(Clock clock, io.gatling.core.config.ConsoleDataWriterConfiguration config) {
    ConsoleDataWriter writer = new ConsoleDataWriter(runMessage(clock), scenarios(), clock, config);
    DateTimeFormatter format = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss O")
        .withZone(ZoneId.systemDefault());
    ConsoleData data = new ConsoleData(clock.nowMillis(), format, () -> true);
    data.usersCounters().put(SCENARIO, new UserCounters(Option.apply((Object) (long) RESPONSES)));
    // The messages a stats engine sends, built by a stats engine (they are Scala case
    // classes that Java cannot name), then handed to the writer as its actor would.
    List<DataWriterMessage> messages = new ArrayList<>(3 * RESPONSES);
    DataWritersStatsEngine engine = new DataWritersStatsEngine(
        scalaList(List.of(new Collecting(messages))), null, clock);
    long now = clock.nowMillis();
    for (int i = 0; i < RESPONSES; i++) {
      engine.logUserStart(SCENARIO);
      engine.logResponse(SCENARIO, scalaList(List.of()), NAMES.get(i % NAMES.size()), now,
          now + 1, status(i), Option.apply("200"), message(i));
      engine.logUserEnd(SCENARIO);
    }
    for (DataWriterMessage m : messages) {
      writer.onMessage((DataWriterMessage.LoadEvent) m, data);
    }
    if (data.globalRequestCounters().successfulCount() != RESPONSES - RESPONSES / 10) {
      throw new IllegalStateException("the console writer counted "
          + data.globalRequestCounters().successfulCount() + " successes");
    }
    int length = 0;
    for (int i = 0; i < SUMMARIES; i++) {
      length += ConsoleSummary.apply(i * 5L, data.usersCounters(), data.globalRequestCounters(),
          data.requestsCounters(), data.errorsCounters(), config.light(), ZonedDateTime.now(),
          format).text().length();
    }
    if (length == 0) {
      throw new IllegalStateException("empty console summaries");
    }
  }

  /** What an action does to its user's session when a request ends. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static void sessions(EventLoop loop) {
    for (int i = 0; i < RESPONSES; i++) {
      scala.collection.immutable.Map attributes = (scala.collection.immutable.Map)
          Map$.MODULE$.empty().updated("gatling-llm.scheduledNanos", (long) i)
              .updated("gatling-llm.requestIndex", (long) i).updated("prompt", "warm up");
      Session session = new Session(SCENARIO, i, attributes, OK$.MODULE$,
          (scala.collection.immutable.List) Nil$.MODULE$, s -> BoxedUnit.UNIT, loop);
      if (session.groups().nonEmpty() || session.attributes().get("prompt").isEmpty()) {
        throw new IllegalStateException("a new session is not as built");
      }
      Session next = session.logGroupRequestTimings(i, i + 1L)
          .remove("gatling-llm.scheduledNanos").remove("gatling-llm.requestIndex")
          .set("generated", "text");
      if (i % 10 == 0) {
        next = next.markAsFailed();
      }
      if (next.contains("gatling-llm.requestIndex")) {
        throw new IllegalStateException("a removed attribute is still there");
      }
    }
  }

  /** An actor reference that keeps what it is sent. */
  private record Collecting(List<DataWriterMessage> messages)
      implements ActorRef<DataWriterMessage> {

    @Override
    public void $bang(DataWriterMessage message) {
      messages.add(message);
    }

    @Override
    public String name() {
      return "gatling-llm-warm-up";
    }

    @Override
    public <R> Promise<R> replyPromise(scala.concurrent.duration.FiniteDuration timeout) {
      return scala.concurrent.Promise$.MODULE$.apply();
    }
  }

  private static Status status(int i) {
    return i % 10 == 0 ? KO$.MODULE$ : OK$.MODULE$;
  }

  private static Option<String> message(int i) {
    return i % 10 == 0 ? Option.apply("HTTP 500: warm-up") : Option.empty();
  }

  private static RunMessage runMessage(Clock clock) {
    return new RunMessage("gatling-llm.WarmUp", "warm-up", clock.nowMillis(), "", "warm-up",
        ZoneId.systemDefault());
  }

  private static scala.collection.immutable.Seq<ShortScenarioDescription> scenarios() {
    return scalaList(List.of(new ShortScenarioDescription(SCENARIO, Option.apply((Object) (long) RESPONSES))));
  }

  private static <T> scala.collection.immutable.List<T> scalaList(List<T> list) {
    return CollectionConverters.asScala(list).toList();
  }

  private static void deleteQuietly(Path folder) {
    if (folder == null) {
      return;
    }
    try (Stream<Path> paths = Files.walk(folder)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      // a temporary folder left behind: nothing the run depends on
    }
  }
}
