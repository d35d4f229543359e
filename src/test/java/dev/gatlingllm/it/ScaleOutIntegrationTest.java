package dev.gatlingllm.it;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.internal.arrival.ArrivalSchedule;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.report.Merge;
import dev.gatlingllm.internal.report.RecordLog;
import dev.gatlingllm.internal.report.RecordLogReader;
import dev.gatlingllm.internal.scale.InjectorFacts;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same benchmark run on one injector and as three injector JVMs on this machine, against
 * the simulator, then merged: the same requests at the same scheduled times, the same token
 * totals, and aggregates within measurement noise. The three injectors start together in one
 * project with one results folder, as the documented test on one machine does, and each
 * finds its own files in its own run folder.
 *
 * <p>One benchmark carries both things scale-out splits, so that one set of injector JVMs
 * (the expensive part: three Gatling JVMs starting on two cores) checks them together: seeded
 * Poisson arrivals, and a max concurrency that binds. Three requests in flight at about
 * 190 ms each serve about 15 req/s, so at 30 req/s the cap holds requests back, on one
 * injector (one pool of 3 permits) as on three (one permit each).
 */
class ScaleOutIntegrationTest {

  private static final JsonMapper JSON = new JsonMapper();
  private static final int PROMPTS = 60;
  private static final int RATE = 30;
  /**
   * A seed whose 60 arrivals at 30 req/s are all more than 3 ms apart (seed 30, the
   * simulation's default, has two within 1.9 ms): request ids follow the send order, which
   * is the slot order when arrivals are more than 2 ms apart.
   */
  private static final long SEED = 173;

  @TempDir
  Path work;

  @Test
  void poissonArrivalsUnderACapOnThreeInjectorsAreTheOneInjectorBenchmark() throws Exception {
    Map<String, String> props = Map.of(ScaleOutItSimulation.NUM_PROMPTS, "" + PROMPTS,
        ScaleOutItSimulation.RATE, "" + RATE, ScaleOutItSimulation.SEED, "" + SEED,
        ScaleOutItSimulation.MAX_CONCURRENCY, "3");
    // the injectors measure their clocks against the simulator's Date header
    Outcome o = runBoth(StrictServer.builder().ttft(Duration.ofMillis(30))
        .itl(Duration.ofMillis(20)).build(), props, "date");
    ArrivalSchedule schedule = ArrivalSchedule.compute(ArrivalProfile.builder()
        .numPrompts(PROMPTS).requestRate(RATE).seed(SEED).maxConcurrency(3).build());
    assertTrue(minGap(schedule) > 2_000_000, "request ids follow the send order, which is "
        + "the slot order when arrivals are more than 2 ms apart");

    // request by request: request i was scheduled at the schedule's offset i, everywhere
    assertEquals(byId(o.single), byId(o.split));
    assertEquals(PROMPTS, byId(o.split).size());
    for (Map.Entry<String, Long> e : byId(o.split).entrySet()) {
      int i = Integer.parseInt(e.getKey().replaceAll("\\D", ""));
      assertEquals(schedule.offsetNanos(i), (long) e.getValue(), e.getKey());
    }
    for (Read r : o.split) {
      // ... and each injector sent exactly its share
      for (RequestRecord rec : r.contents.records()) {
        int i = Integer.parseInt(rec.requestId().replaceAll("\\D", ""));
        assertEquals(r.facts.share().index(), i % 3, rec.requestId());
      }
      // one machine, one clock: the measured offset holds 0
      long offset = r.facts.clock().offsetNanos();
      assertEquals("date-header", r.facts.clock().source());
      assertTrue(Math.abs(offset) <= r.facts.clock().uncertaintyNanos() + 1_000_000,
          r.facts.clock().describe());
    }
    assertEquals(3, o.merged.get("max_concurrency").asInt(), "the benchmark's cap, not a share");
    assertSameBenchmark(o);
    // queued behind the cap: the 2 s schedule takes longer, on one injector as on three
    assertTrue(o.one.get("duration").asDouble() > 3.0, o.one.toString());
    assertTrue(o.merged.get("duration").asDouble() > 3.0, o.merged.toString());
  }

  private record Read(Path log, RecordLogReader.Contents contents, InjectorFacts facts) {
    static Read of(Path log) {
      RecordLogReader.Contents c = RecordLogReader.read(log);
      return new Read(log, c, InjectorFacts.fromJson((Map<?, ?>) c.settings().run().extras()
          .get("injector")));
    }
  }

  private record Outcome(List<Read> single, List<Read> split, JsonNode one, JsonNode merged) {}

  private Outcome runBoth(SimulatorConfig config, Map<String, String> props, String clock)
      throws Exception {
    try (Simulator sim = Simulator.start(config)) {
      Map<String, String> common = new HashMap<>(props);
      common.put(ScaleOutItSimulation.BASE_URL, sim.baseUrl());

      Map<String, String> whole = new HashMap<>(common);
      whole.put("llm.injector", "0/1");
      whole.put("llm.clockOffset", "local");
      whole.put("llm.resultsFolder", work.resolve("single").toString());
      GatlingRunner.Result single = GatlingRunner.run(ScaleOutItSimulation.class,
          work.resolve("single"), whole);
      assertEquals(0, single.exitCode());

      // a shared folder as the start barrier: JVMs that start slowly on a busy machine cannot
      // miss it, as they could a fixed -Dllm.startAt
      Path barrier = work.resolve("barrier");
      // the documented test on one machine: the injectors started together in one project,
      // with its one results folder, as ./mvnw gatling:test runs them
      Path project = Files.createDirectories(work.resolve("project"));
      List<CompletableFuture<ForkedGatling.Result>> injectors = new ArrayList<>();
      for (int k = 0; k < 3; k++) {
        Map<String, String> mine = new HashMap<>(common);
        mine.put("llm.injector", k + "/3");
        mine.put("llm.startBarrier", barrier.toString());
        mine.put("llm.clockOffset", clock);
        mine.put("llm.clockProbes", "8");
        Path output = work.resolve("injector-" + k + ".out");
        injectors.add(CompletableFuture.supplyAsync(() -> {
          try {
            return ForkedGatling.run(ScaleOutItSimulation.class, Path.of("target", "gatling"),
                mine, Map.of(), output, project, null);
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }));
      }
      for (CompletableFuture<ForkedGatling.Result> injector : injectors) {
        ForkedGatling.Result r = injector.get();
        assertEquals(0, r.exitCode(), r.output());
      }
    }
    List<Read> single = logs(work.resolve("single")).stream().map(Read::of).toList();
    List<Read> split = logs(work.resolve("project")).stream().map(Read::of).toList();
    assertEquals(1, single.size());
    assertEquals(3, split.size());
    assertEachFolderHoldsItsOwnFiles(split);
    PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    Merge.Merged one = Merge.merge(List.of(single.get(0).log), work.resolve("merged-single"),
        false, null, quiet);
    Merge.Merged three = Merge.merge(split.stream().map(Read::log).toList(),
        work.resolve("merged"), false, null, quiet);
    assertTrue(one.outcome().ok() && three.outcome().ok());
    assertTrue(Files.exists(three.outcome().htmlReport()));
    return new Outcome(single, split, JSON.readTree(one.outcome().resultFile().toFile()),
        JSON.readTree(three.outcome().resultFile().toFile()));
  }

  /**
   * Each injector's record log, result JSON and LLM report are in a run folder of their own,
   * the three of them side by side in the project's one results folder (or, for injectors
   * started in the same millisecond, in an {@code llm-run-<n>} subfolder of the one Gatling
   * gave both): the result JSON beside a log is that injector's.
   */
  private static void assertEachFolderHoldsItsOwnFiles(List<Read> split) throws Exception {
    List<Integer> indexes = new ArrayList<>();
    for (Read r : split) {
      Path folder = r.log.getParent();
      assertTrue(Files.isRegularFile(gatlingFolder(r).resolve("simulation.log")),
          "Gatling's run folder");
      assertTrue(Files.isRegularFile(folder.resolve("llm-report.html")), folder.toString());
      List<Path> own;
      try (Stream<Path> files = Files.list(folder)) {
        own = files.filter(p -> p.getFileName().toString().matches(
            "llm-records(-\\d+)?\\.bin|.*\\.json")).sorted().toList();
      }
      assertEquals(2, own.size(), "one record log and one result JSON: " + own);
      Path json = own.stream().filter(p -> p.toString().endsWith(".json")).findFirst()
          .orElseThrow();
      JsonNode result = JSON.readTree(json.toFile());
      int index = r.facts.share().index();
      assertEquals(index, result.get("injector").get("index").asInt(), json.toString());
      assertEquals(PROMPTS / 3, result.get("completed").asInt());
      indexes.add(index);
    }
    assertEquals(List.of(0, 1, 2), indexes.stream().sorted().toList());
    assertEquals(1, split.stream().map(r -> gatlingFolder(r).getParent()).distinct().count(),
        "one results folder");
  }

  /** The log's Gatling run folder: its own, or (runs of one millisecond) the one it is in. */
  private static Path gatlingFolder(Read r) {
    Path folder = r.log.getParent();
    return folder.getFileName().toString().startsWith("llm-run-") ? folder.getParent() : folder;
  }

  private static void assertSameBenchmark(Outcome o) {
    JsonNode one = o.one;
    JsonNode merged = o.merged;
    assertEquals(PROMPTS, merged.get("completed").asInt(), merged.toString());
    assertEquals(0, merged.get("failed").asInt());
    // the same prompts were sent: exact token totals
    assertEquals(one.get("total_input_tokens").asLong(), merged.get("total_input_tokens").asLong());
    assertEquals(one.get("total_output_tokens").asLong(),
        merged.get("total_output_tokens").asLong());
    assertEquals(sorted(one.get("input_lens")), sorted(merged.get("input_lens")));
    // Timings within measurement noise: 20 % (per-request medians) or 30 % (the union window)
    // plus what the client self-checks measured of their own distortion (event-loop lag, late
    // sends: on a quiet machine a few ms, on a shared and overloaded one much more). The
    // throughputs are the same token and request totals (equal above) over these windows.
    double lagMs = 0;
    double lateMs = 0;
    StringBuilder table = new StringBuilder("figure: one injector | three injectors\n");
    for (Read r : concat(o.single, o.split)) {
      JsonNode check = JSON.valueToTree(r.contents.settings().run().extras()
          .get("client_self_check"));
      lagMs = Math.max(lagMs, check.get("p99_loop_lag_ms").asDouble());
      lateMs = Math.max(lateMs, check.get("max_send_lateness_ms").asDouble());
      table.append("injector ").append(r.facts.share()).append(": p99 loop lag ")
          .append(check.get("p99_loop_lag_ms")).append(" ms, max send lateness ")
          .append(check.get("max_send_lateness_ms")).append(" ms\n");
    }
    List<String> off = new ArrayList<>();
    for (String key : List.of("median_ttft_ms", "median_itl_ms", "median_e2el_ms",
        "mean_tpot_ms", "duration", "request_throughput", "output_throughput")) {
      double a = one.get(key).asDouble();
      double b = merged.get(key).asDouble();
      table.append(key).append(": ").append(a).append(" | ").append(b).append('\n');
      double bound = key.equals("duration") ? 0.3 * Math.max(a, b) + 2 * (lagMs + lateMs) / 1e3
          : 0.2 * Math.max(a, b) + 3.0 + lagMs;
      if (!key.endsWith("throughput") && Math.abs(a - b) > bound) {
        off.add(key + " (allowed " + bound + ")");
      }
    }
    System.out.print(table);
    assertEquals(List.of(), off, table.toString());
    // one common start, and each injector's arrival clock started exactly at it
    Instant start = o.split.get(0).facts.startAt();
    for (Read r : o.split) {
      assertEquals(start, r.facts.startAt());
      long own = r.contents.settings().benchmarkStartNanos().orElseThrow()
          + r.facts.toReferenceEpoch();
      assertEquals(start.getEpochSecond() * 1_000_000_000L + start.getNano(), own);
    }
    // every injector's own result counts only its share
    for (Read r : o.split) {
      assertEquals(PROMPTS / 3, r.contents.records().size());
      assertTrue(r.contents.complete());
    }
  }

  private static List<Read> concat(List<Read> a, List<Read> b) {
    List<Read> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  private static List<Path> logs(Path root) throws Exception {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(p -> p.getFileName().toString().equals(RecordLog.FILE_NAME)).sorted()
          .toList();
    }
  }

  /** Request id -> scheduled offset from its injector's start (the arrival clock's). */
  private static Map<String, Long> byId(List<Read> reads) {
    Map<String, Long> m = new TreeMap<>();
    for (Read r : reads) {
      long start = r.contents.settings().benchmarkStartNanos().orElseThrow();
      for (RequestRecord rec : r.contents.records()) {
        m.put(rec.requestId(), rec.scheduledNanos() - start);
      }
    }
    return m;
  }

  private static long minGap(ArrivalSchedule s) {
    long min = Long.MAX_VALUE;
    for (int i = 1; i < s.size(); i++) {
      min = Math.min(min, s.offsetNanos(i) - s.offsetNanos(i - 1));
    }
    return min;
  }

  private static List<Integer> sorted(JsonNode array) {
    List<Integer> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asInt()));
    out.sort(null);
    return out;
  }
}
