package dev.gatlingllm.internal.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.testing.StrictServer;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sweep's point in a JVM of its own: one at which no request succeeded (exit status 4, its
 * result written) is a point of the sweep, as in vLLM's; a refused run (exit 1) stops it.
 */
@Timeout(180)
class ForkedRunTest {

  @TempDir
  Path dir;

  private static final PrintStream NOWHERE = new PrintStream(OutputStream.nullOutputStream());

  private static List<String> args(String baseUrl, String model, Path runDir) {
    return List.of("--base-url", baseUrl, "--model", model, "--tokenizer", "gpt2",
        "--dataset-name", "random", "--random-input-len", "8", "--random-output-len", "2",
        "--num-prompts", "3", "--save-result", "--result-dir", runDir.toString(),
        "--result-filename", ForkedRun.RESULT_FILE);
  }

  @Test
  void aPointAtWhichNoRequestSucceededIsKeptWithItsResult() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    Path runDir = dir.resolve("point");
    ForkedRun run = new ForkedRun(null, List.of(), Duration.ofSeconds(150), false, NOWHERE,
        null);
    Map<String, Object> result = run.run(args("http://127.0.0.1:" + port, "m", runDir), runDir);
    assertEquals(0, ((Number) result.get("completed")).intValue());
    assertEquals(3, ((Number) result.get("failed")).intValue());
  }

  @Test
  void aRefusedRunStopsTheSweep() {
    try (Simulator sim = Simulator.start(StrictServer.builder().build())) {
      Path runDir = dir.resolve("refused");
      ForkedRun run = new ForkedRun(null, List.of(), Duration.ofSeconds(150), false, NOWHERE,
          null);
      SweepFailure e = assertThrows(SweepFailure.class,
          () -> run.run(args(sim.baseUrl(), "not-served", runDir), runDir));
      assertTrue(e.getMessage().startsWith("the benchmark run failed (exit status 1"),
          e.getMessage());
    }
  }
}
