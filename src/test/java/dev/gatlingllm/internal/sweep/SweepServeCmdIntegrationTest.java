package dev.gatlingllm.internal.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.sweep.Sweep;
import dev.gatlingllm.sweep.SweepConfig;
import dev.gatlingllm.sweep.SweepOutcome;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The grid with a server per server combination: a shell script stands in for
 * {@code vllm serve}. It logs its start and stop and runs the embedded simulator (or, asked
 * with {@code --never-ready}, only sleeps). Real Gatling runs, one JVM each.
 */
@Timeout(420)
class SweepServeCmdIntegrationTest {

  @TempDir
  Path dir;

  private final ByteArrayOutputStream console = new ByteArrayOutputStream();

  private Path script(Path log) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String text = """
        #!/bin/bash
        # fake-server.sh PORT [simulator flags]: logs start/stop to %s
        port=$1; shift
        echo "start $*" >> '%s'
        trap 'echo "stop $*" >> "%s"; kill $child 2>/dev/null; wait $child; exit 0' TERM
        if [[ " $* " == *" --never-ready "* ]]; then
          sleep 600 & child=$!
        else
          '%s' -cp '%s' dev.gatlingllm.sim.Main --port "$port" "$@" & child=$!
        fi
        echo "pids $$ $child" >> '%s'
        wait $child
        """.formatted(log, log, log, java, System.getProperty("java.class.path"), log);
    Path file = dir.resolve("fake-server.sh");
    Files.writeString(file, text);
    return file;
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private SweepConfig.Builder config(Path script, int port) {
    return SweepConfig.builder()
        .serveCmd(List.of("bash", script.toString(), String.valueOf(port), "--ttft-ms", "20",
            "--itl-ms", "5"))
        .benchArgs("--base-url http://127.0.0.1:" + port + " --model sim-model --tokenizer gpt2 "
            + "--random-input-len 16 --random-output-len 4 --ignore-eos --num-prompts 12 "
            + "--max-concurrency 4 --ready-check-timeout-sec 10 --disable-tqdm")
        .outputDir(dir.resolve("results")).serverReadyTimeout(Duration.ofSeconds(60))
        .runTimeout(Duration.ofSeconds(120))
        .out(new PrintStream(console, true, StandardCharsets.UTF_8));
  }

  private String console() {
    return console.toString(StandardCharsets.UTF_8);
  }

  @Test
  void serversStartAndStopInTurnResumeSkipsAndDryRunRunsNothing() throws Exception {
    Path log = dir.resolve("server-events.log");
    Path script = script(log);
    int port = freePort();
    Path afterLog = dir.resolve("after.log");
    SweepConfig c = config(script, port)
        .serveParams(Params.parse("[{\"max_running\": 1}, {\"max_running\": 4}]"))
        .afterBenchCmd("bash -c 'echo after >> " + afterLog + "'")
        .numRuns(2).build();
    SweepOutcome o = Sweep.serve(c);

    List<String> events = Files.readAllLines(log).stream()
        .filter(l -> !l.startsWith("pids")).toList();
    String a = "--ttft-ms 20 --itl-ms 5 --max-running 1";
    String b = "--ttft-ms 20 --itl-ms 5 --max-running 4";
    assertEquals(List.of("start " + a, "stop " + a, "start " + b, "stop " + b), events);
    assertEquals(4, o.records().size());
    assertEquals(4, Files.readAllLines(afterLog).size(), "--after-bench-cmd after every run");
    Path point = o.folder().resolve("SERVE-max_running=1-BENCH");
    assertTrue(Files.exists(point.resolve("run=0.json")));
    assertTrue(Files.exists(point.resolve("run=1.json")));
    assertTrue(Files.exists(o.folder().resolve("SERVE-max_running=1.server.log")));
    // with two runs per point the report has means with intervals
    assertTrue(Files.readString(o.folder().resolve("sweep-report.html"))
        .contains("\"hasIntervals\":true"));
    for (Map<String, Object> r : o.records()) {
      assertEquals(12, ((Number) r.get("completed")).intValue(), r.toString());
    }
    // the server with one slot served one request at a time: longer E2EL than with four
    double one = SweepData.number(o.records().get(0), "mean_e2el_ms");
    double four = SweepData.number(o.records().get(2), "mean_e2el_ms");
    assertTrue(one > four * 1.5, "1 slot " + one + " ms vs 4 slots " + four + " ms");

    // --resume: every run is there, so no server starts and nothing runs
    console.reset();
    SweepOutcome resumed = Sweep.serve(config(script, port).serveParams(c.serveParams())
        .afterBenchCmd("bash -c 'echo after >> " + afterLog + "'").numRuns(2)
        .resume(o.folder().getFileName().toString()).build());
    assertEquals(4, resumed.records().size());
    assertEquals(4, Files.readAllLines(log).stream().filter(l -> !l.startsWith("pids")).count());
    assertEquals(4, Files.readAllLines(afterLog).size());
    assertTrue(console().contains("Found existing results. Skipping."));

    // --dry-run: the commands, nothing started
    console.reset();
    SweepOutcome dry = Sweep.serve(config(script, port).serveParams(c.serveParams())
        .numRuns(2).dryRun(true).build());
    assertTrue(dry.records().isEmpty());
    assertEquals(4, Files.readAllLines(log).stream().filter(l -> !l.startsWith("pids")).count());
    assertTrue(console().contains("Server command: bash " + script + " " + port + " " + a),
        console());
    assertEquals(4, console().split("\\[BEGIN BENCHMARK\\]", -1).length - 1);
  }

  @Test
  void aServerThatNeverBecomesReadyFailsItsCombinationAndIsKilled() throws Exception {
    Path log = dir.resolve("server-events.log");
    Path script = script(log);
    int port = freePort();
    SweepFailure e = assertThrows(SweepFailure.class, () -> Sweep.serve(config(script, port)
        .serveParams(Params.parse("[{\"never_ready\": true}]")).numRuns(1)
        .serverReadyTimeout(Duration.ofSeconds(3)).build()));
    assertTrue(e.getMessage().contains("SERVE-never_ready=True: the server did not become ready "
        + "within 3 s (--server-ready-timeout): GET http://127.0.0.1:" + port + "/health"),
        e.getMessage());
    assertTrue(e.getMessage().contains("the server and its child processes were killed"));
    assertTrue(e.getMessage().contains("--resume"));
    String pids = Files.readAllLines(log).stream().filter(l -> l.startsWith("pids"))
        .findFirst().orElseThrow();
    for (String pid : pids.substring(5).split(" ")) {
      assertFalse(ProcessHandle.of(Long.parseLong(pid)).map(ProcessHandle::isAlive)
          .orElse(false), "process " + pid + " of the server's tree is gone");
    }
    assertTrue(e.outcome().records().isEmpty());
  }
}
