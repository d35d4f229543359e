package dev.gatlingllm.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class MainTest {

  final ByteArrayOutputStream out = new ByteArrayOutputStream();
  final ByteArrayOutputStream err = new ByteArrayOutputStream();

  int run(CountDownLatch stop, String... args) {
    return Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), stop);
  }

  String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void helpPrintsTheUsageAndExitsZero() {
    assertEquals(0, run(new CountDownLatch(0), "--port", "1", "--help"));
    assertEquals(SimCommand.usage(), out());
    assertEquals("", err());
  }

  @Test
  void anUnknownFlagExitsTwoWithTheReasonAndTheNearestFlag() {
    assertEquals(2, run(new CountDownLatch(0), "--prot", "1"));
    assertEquals("sim: unknown flag --prot; did you mean --port?\n'sim --help' lists the flags.\n",
        err());
    assertEquals("", out());
  }

  @Test
  void aBadValueExitsTwo() {
    assertEquals(2, run(new CountDownLatch(0), "--itl-ms", "fast"));
    assertTrue(err().startsWith("sim: --itl-ms must be a number, got 'fast'\n"), err());
  }

  @Test
  void aTakenPortExitsOne() {
    try (Simulator taken = Simulator.start(SimulatorConfig.defaults())) {
      assertEquals(1, run(new CountDownLatch(0), "--port", String.valueOf(taken.port())));
      assertTrue(err().startsWith("error: simulator cannot listen on 127.0.0.1:" + taken.port()), err());
    }
  }

  @Test
  void servesAfterPrintingOneLineUntilStopped() throws Exception {
    CountDownLatch stop = new CountDownLatch(1);
    CompletableFuture<Integer> code = CompletableFuture.supplyAsync(
        () -> run(stop, "--port", "0", "--model", "m1", "--ttft-ms", "1", "--itl-ms", "0"));
    Pattern line = Pattern.compile(
        "gatling-llm simulator listening on http://127\\.0\\.0\\.1:(\\d+) \\(model m1\\)\n");
    long deadline = System.nanoTime() + 10_000_000_000L;
    Matcher m = line.matcher(out());
    while (!m.matches() && System.nanoTime() < deadline) {
      Thread.sleep(10);
      m = line.matcher(out());
    }
    assertTrue(m.matches(), "printed: " + out() + err());
    int port = Integer.parseInt(m.group(1));
    try (TestClient c = new TestClient(port)) {
      assertEquals(200, c.get("/health").status());
      assertEquals("m1", c.get("/v1/models").json().at("/data/0/id").asText());
    }
    stop.countDown();
    assertEquals(0, code.get(10, TimeUnit.SECONDS));
  }
}
