package dev.gatlingllm.internal.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gatling.commons.util.DefaultClock;
import io.gatling.core.CoreComponents;
import io.gatling.core.actor.ActorSystem;
import io.gatling.core.config.GatlingConfiguration$;
import io.gatling.core.config.GatlingConfiguration;
import io.netty.channel.DefaultEventLoopGroup;
import io.netty.channel.EventLoopGroup;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import scala.Option;
import scala.collection.immutable.Nil$;
import scala.collection.immutable.Seq;

/**
 * The warm-up of Gatling's own per-request code runs on the Gatling version this project
 * builds with (it uses Gatling internals: an upgrade that changes them fails here, not in a
 * user's run), leaves nothing behind and prints nothing.
 */
class GatlingWarmUpTest {

  private ActorSystem system;
  private EventLoopGroup group;
  private GatlingConfiguration configuration;

  @BeforeEach
  @SuppressWarnings({"unchecked", "rawtypes"})
  void setUp() {
    system = new ActorSystem();
    group = new DefaultEventLoopGroup(1);
    configuration = GatlingConfiguration$.MODULE$.loadForTest((Seq) Nil$.MODULE$);
  }

  @AfterEach
  void tearDown() {
    system.close();
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  @Test
  void everyPartRunsOnThisGatlingVersionAndPrintsNothing() throws IOException {
    CoreComponents core = new CoreComponents(system, group, null, Option.empty(), null,
        new DefaultClock(), null, configuration);
    List<Path> before = warmUpFolders();
    PrintStream out = System.out;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    List<String> problems;
    System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
    try {
      problems = GatlingWarmUp.run(core, group.next());
    } finally {
      System.setOut(out);
    }
    assertEquals(List.of(), problems);
    assertEquals("", printed.toString(StandardCharsets.UTF_8),
        "the console summary is formatted, never printed");
    assertEquals(before, warmUpFolders(), "the throwaway simulation.log is deleted");
  }

  @Test
  void theThrowawayWriterWritesEveryResponse() {
    long size = GatlingWarmUp.statsWriters(system, new DefaultClock());
    // each request record holds the scenario, the name, two timestamps and a status
    assertTrue(size > 20L * GatlingWarmUp.RESPONSES, "simulation.log of " + size + " bytes");
  }

  @Test
  void withoutAnActorSystemTheRestStillRunsAndTheGapIsNamed() {
    CoreComponents core = new CoreComponents(null, group, null, Option.empty(), null,
        new DefaultClock(), null, configuration);
    List<String> problems = GatlingWarmUp.run(core, group.next());
    assertEquals(1, problems.size(), problems.toString());
    assertTrue(problems.get(0).startsWith("stats writers: "), problems.get(0));
    assertFalse(problems.get(0).contains("console"), problems.get(0));
  }

  private static List<Path> warmUpFolders() throws IOException {
    try (Stream<Path> files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      return files.filter(f -> f.getFileName().toString().startsWith("gatling-llm-warm-up"))
          .sorted().toList();
    }
  }
}
