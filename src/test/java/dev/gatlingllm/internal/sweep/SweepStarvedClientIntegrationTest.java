package dev.gatlingllm.internal.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import dev.gatlingllm.sweep.Sweep;
import dev.gatlingllm.sweep.SweepConfig;
import dev.gatlingllm.sweep.SweepOutcome;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The case: a sweep over concurrency 1 / 4 / 16 whose concurrency-1 run had its
 * client starved on purpose: threads spinning on every core of the client's JVM while it ran,
 * and the JVM stopped for full collections of a long linked list every 100 ms. The spinning
 * alone starves a 2-core machine but not a many-core one (a CI machine read it as fair); the
 * collections stop every thread on any machine, for as long as marking a list takes, which
 * is serial work that more cores do not shorten.
 * That run's figures are the client's, and the sweep says so: flagged in its record, in the
 * console's table with the reason, and on the report's points. The other runs may be flagged
 * too on a loaded machine (their own self-check decides): only the starved one is asserted.
 */
@Timeout(600)
class SweepStarvedClientIntegrationTest {

  @TempDir
  Path dir;

  /** Runs in this JVM; the concurrency-1 run with spinning threads beside it. */
  private static final class Starving implements RunLauncher {
    private final InProcessRun inner = new InProcessRun();

    @Override
    public Map<String, Object> run(List<String> benchArgs, Path runDir) {
      if (!benchArgs.containsAll(List.of("--max-concurrency", "1"))) {
        return inner.run(benchArgs, runDir);
      }
      AtomicBoolean stop = new AtomicBoolean();
      List<Thread> spinners = new ArrayList<>();
      for (int i = 0; i < 3 * Runtime.getRuntime().availableProcessors(); i++) {
        Thread t = new Thread(() -> {
          long x = 0;
          while (!stop.get()) {
            x += System.nanoTime() % 7;
          }
          if (x == 42) {
            System.out.print("");
          }
        }, "starver-" + i);
        t.setDaemon(true);
        t.start();
        spinners.add(t);
      }
      Thread stopper = new Thread(() -> {
        Object[] list = null;
        for (int i = 0; i < 3_000_000; i++) {
          list = new Object[] {list};
        }
        while (!stop.get()) {
          System.gc();
          try {
            Thread.sleep(100);
          } catch (InterruptedException e) {
            return;
          }
        }
        if (list.length == 42) {
          System.out.print("");
        }
      }, "starver-gc");
      stopper.setDaemon(true);
      stopper.start();
      spinners.add(stopper);
      try {
        return inner.run(benchArgs, runDir);
      } finally {
        stop.set(true);
        spinners.forEach(t -> {
          try {
            t.join();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
      }
    }
  }

  @Test
  void theStarvedRunIsFlaggedInTheRecordTheTableAndTheChart() throws Exception {
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    SweepOutcome o;
    try (Simulator sim = Simulator.start(SimulatorConfig.builder().ttft(Duration.ofMillis(20))
        .itl(Duration.ofMillis(4)).maxRunning(4).build())) {
      o = Sweep.serve(SweepAccess.withLauncher(SweepConfig.builder()
          .benchArgs("--base-url " + sim.baseUrl() + " --model sim-model --tokenizer gpt2 "
              + "--dataset-name random --random-input-len 16 --random-output-len 24 "
              + "--num-prompts 40 --ready-check-timeout-sec 10 --disable-tqdm")
          .benchParams(Params.parse("[{\"max_concurrency\": 1}, {\"max_concurrency\": 4}, "
              + "{\"max_concurrency\": 16}]"))
          .numRuns(1).outputDir(dir)
          .out(new PrintStream(console, true, StandardCharsets.UTF_8)), new Starving()).build());
    }
    Map<String, Object> starved = Params.readObject(o.folder().resolve(
        "SERVE-BENCH-max_concurrency=1/run=0.json"));
    List<String> flags = RunFlags.in(starved);
    assertTrue(flags.stream().anyMatch(f -> f.startsWith("client: ")), String.valueOf(flags));

    String text = console.toString(StandardCharsets.UTF_8);
    assertTrue(text.matches("(?s).*\nSERVE-BENCH-max_concurrency=1 +1 [^\n]*FLAGGED client[^\n]*\n.*"),
        text);
    assertTrue(text.contains("  - SERVE-BENCH-max_concurrency=1/run=0: client: "), text);

    String html = Files.readString(o.folder().resolve(SweepReport.FILE_NAME));
    String open = "<script type=\"application/json\" id=\"llm-data\">";
    int from = html.indexOf(open) + open.length();
    JsonNode data = Params.json().readTree(html.substring(from, html.indexOf("</script>", from)));
    JsonNode points = data.at("/figures/0/panels/0/curves/0/points");
    assertEquals(3, points.size(), "one curve through the three concurrencies");
    // in the order of the load: concurrency 1 first
    assertTrue(points.at("/0/flags").toString().contains("client"), points.toString());
    assertTrue(data.at("/summary/flagged").asInt() >= 1);
  }
}
