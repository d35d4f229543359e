package dev.gatlingllm.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.sim.SimCommand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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

  /** Every flag of {@code sim}, as its help line begins, in the help's order. */
  private static final List<String> FLAGS = List.of(
      "-h, --help",
      "--host=HOST",
      "--port=N",
      "--model=NAME",
      "--served-model-name=NAME[,NAME...]",
      "--tokenizer=gpt2|PATH|MODEL-ID",
      "--startup-delay-ms=MS",
      "--io-threads=N",
      "--transport=auto|nio|epoll",
      "--ttft-ms=MS",
      "--prefill-us-per-token=US",
      "--itl-ms=MS",
      "--jitter=F",
      "--seed=N",
      "--tokens-per-chunk=K",
      "--max-running=N",
      "--max-tokens=N",
      "--reasoning-tokens=N",
      "--reasoning-field=NAME",
      "--session-cache",
      "--error-rate=F",
      "--disconnect-rate=F",
      "--inband-error-rate=F",
      "--stall-rate=F",
      "--stall-ms=MS",
      "--connection=POLICY",
      "--keep-alive-max=N",
      "--dialect=vllm|llamacpp",
      "--context-tokens=N",
      "--merged-token-rate=F",
      "--missing-role-rate=F",
      "--gpus=N",
      "--gpu-idle-watts=W",
      "--gpu-watts-per-request=W",
      "--gpu-max-watts=W",
      "--chunk-log");

  @Test
  void helpListsEveryFlagWithItsValueAndExitsZero() {
    assertEquals(0, run(new CountDownLatch(0), "--port", "1", "--help"));
    String help = out();
    assertTrue(help.startsWith("Usage: sim [-h] "), help);
    assertTrue(help.contains("An OpenAI-compatible server that imitates vLLM's timing and "
        + "output, for testing load generators."), help);
    // the lines that begin an option's entry, in order, against the hand-written list
    List<String> listed = help.lines()
        .filter(l -> l.startsWith("  -h, ") || l.startsWith("      --"))
        .map(l -> l.strip().split(" {2,}| (?=[a-z])", 2)[0])
        .toList();
    assertEquals(FLAGS, listed);
    for (String flag : FLAGS.subList(1, FLAGS.size())) {
      assertTrue(help.contains("[" + flag + "]"), "the synopsis shows " + flag);
    }
    assertEquals("", err());
  }

  @Test
  void theManualShowsTheHelpAsItIs() throws Exception {
    String manual = Files.readString(Path.of("docs/simulator.md"));
    int start = manual.indexOf("```\nUsage: sim ") + 4;
    assertTrue(start > 3, "docs/simulator.md shows sim --help");
    assertEquals(SimCommand.usage(), manual.substring(start, manual.indexOf("```", start)),
        "docs/simulator.md's copy of sim --help");
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
