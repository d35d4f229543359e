package dev.gatlingllm.internal.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gatling.core.actor.ActorRef;
import io.gatling.core.actor.ActorSystem;
import io.gatling.core.stats.DataWritersStatsEngine;
import io.gatling.core.stats.StatsEngine;
import io.gatling.core.stats.writer.DataWriterMessage;
import io.gatling.core.stats.writer.LogFileDataWriter;
import io.gatling.core.stats.writer.RunMessage;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/** A run's own folder: Gatling's run id read from its stats engine, and the claim on it. */
class GatlingRunFolderTest {

  @TempDir
  Path dir;

  @Test
  void theRunIdIsTheOneGatlingsFileWriterWasGiven() {
    // 2026-11-26T15:04:05.678Z in Paris (UTC+1 in November): Gatling formats in its zone
    long start = Instant.parse("2026-11-26T15:04:05.678Z").toEpochMilli();
    RunMessage run = new RunMessage("dev.example.MySim", "mysim", start, "", "3.15.1",
        ZoneId.of("Europe/Paris"));
    LogFileDataWriter file = new LogFileDataWriter(run, new HashMap<>(), seq(List.of()), null);
    try (ActorSystem system = new ActorSystem()) {
      // as Gatling makes it: the file writer's actor, behind its ref
      ActorRef<DataWriterMessage> ref = system.actorOf(file);
      StatsEngine engine = new DataWritersStatsEngine(seq(List.of(ref)), system, null);

      assertEquals(Optional.of("mysim-20261126160405678"), GatlingRunFolder.runId(engine));
    }
  }

  @Test
  void aStatsEngineWithoutGatlingsWritersHasNoRunId() {
    StatsEngine other = (StatsEngine) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {StatsEngine.class}, (proxy, method, args) -> null);
    assertEquals(Optional.empty(), GatlingRunFolder.runId(other));
  }

  @Test
  void theFolderIsTheOneNamedByTheRunIdInTheFirstRootThatHasIt() throws Exception {
    Path empty = Files.createDirectories(dir.resolve("elsewhere"));
    Path root = Files.createDirectories(dir.resolve("target/gatling"));
    Path mine = Files.createDirectories(root.resolve("mysim-20261126160405678"));
    Files.writeString(mine.resolve("simulation.log"), "");
    // a run started a millisecond later, of the same simulation, in the same project
    Path next = Files.createDirectories(root.resolve("mysim-20261126160405679"));
    Files.writeString(next.resolve("simulation.log"), "");

    assertEquals(Optional.of(mine),
        GatlingRunFolder.find("mysim-20261126160405678", List.of(empty, root)));
    assertEquals(Optional.empty(),
        GatlingRunFolder.find("mysim-20261126160405677", List.of(empty, root)));
  }

  @Test
  void aFolderSharedByRunsOfOneMillisecondGivesEachItsOwnPlace() throws Exception {
    Path shared = Files.createDirectories(dir.resolve("mysim-20261126160405678"));
    int runs = 8;
    ExecutorService pool = Executors.newFixedThreadPool(runs);
    try {
      List<Callable<Path>> claims = new ArrayList<>();
      for (int i = 0; i < runs; i++) {
        claims.add(() -> GatlingRunFolder.claim(shared));
      }
      Set<Path> places = new HashSet<>();
      for (Future<Path> f : pool.invokeAll(claims)) {
        places.add(f.get());
      }
      Set<Path> expected = new HashSet<>(List.of(shared));
      for (int n = 2; n <= runs; n++) {
        expected.add(shared.resolve("llm-run-" + n));
      }
      assertEquals(expected, places);
      assertTrue(Files.isRegularFile(shared.resolve(GatlingRunFolder.CLAIM_FILE)));
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void withoutARunIdTheNewestFolderStartedSinceThisJvmIsTaken() throws Exception {
    Path root = Files.createDirectories(dir.resolve("results"));
    // started before the JVM (an older build's), at it, and after now (not this run's)
    Path older = run(root, "mysim-20261126155958999");
    Path mine = run(root, "othersim-20261126160001500");
    Path earlier = run(root, "mysim-20261126160001000");
    Path future = run(root, "mysim-20261126160010000");
    Files.createDirectories(root.resolve("nolog-20261126160002000")); // no simulation.log
    long jvmStart = millis("2026-11-26T16:00:00.500");
    long now = millis("2026-11-26T16:00:05.000");

    assertEquals(Optional.of(mine), GatlingRunFolder.startedByThisJvm(List.of(root), now,
        jvmStart));
    // one second of slack before the JVM's start, not one millisecond more
    assertEquals(Optional.of(older), GatlingRunFolder.startedByThisJvm(List.of(root),
        millis("2026-11-26T16:00:00.000"), millis("2026-11-26T15:59:59.999")));
    assertEquals(Optional.empty(), GatlingRunFolder.startedByThisJvm(List.of(root),
        millis("2026-11-26T16:00:00.000"), millis("2026-11-26T16:00:00.000")));
    assertEquals(Optional.of(future), GatlingRunFolder.startedByThisJvm(List.of(root),
        millis("2026-11-26T16:00:10.000"), jvmStart));
    assertTrue(GatlingRunFolder.startMillis(earlier) < GatlingRunFolder.startMillis(mine));
  }

  private static Path run(Path root, String name) throws Exception {
    Path folder = Files.createDirectories(root.resolve(name));
    Files.writeString(folder.resolve("simulation.log"), "");
    return folder;
  }

  /** A local time of this JVM's zone (Gatling names its folders in it), epoch ms. */
  private static long millis(String localDateTime) {
    return java.time.LocalDateTime.parse(localDateTime).atZone(ZoneId.systemDefault())
        .toInstant().toEpochMilli();
  }

  private static <T> Seq<T> seq(List<T> items) {
    return CollectionConverters.asScala(items).toList();
  }
}
