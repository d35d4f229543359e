package dev.gatlingllm.internal.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.sweep.Sweep;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line refuses bad input before anything starts, naming the problem. */
class SweepCommandLineTest {

  @TempDir
  Path dir;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return Sweep.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void badCommandsFlagsAndValuesAreNamed() {
    // (sweep_all, once used here, is as far from repeat as from serve_sla: a tie)
    assertEquals(Sweep.USAGE_STATUS, run("serve_all"));
    assertTrue(err().contains("sweep: unknown command 'serve_all'; did you mean serve_sla?"),
        err());
    assertEquals(Sweep.USAGE_STATUS, run("repeat", "--num-runs", "3"));
    assertTrue(err().contains("sweep repeat: error: give --simulation CLASS or --bench-args ARGS "
        + "(one of them)"), err());
    assertEquals(Sweep.USAGE_STATUS, run("repeat", "--simulation", "a.B", "--num-runs", "1"));
    assertTrue(err().contains("sweep repeat: error: --num-runs must be at least 2 to have a "
        + "spread, got 1"), err());
    assertEquals(Sweep.USAGE_STATUS, run("serve", "--model", "m"));
    assertTrue(err().contains("sweep serve: Missing required option: '--bench-args=ARGS'"),
        err());
    assertEquals(Sweep.USAGE_STATUS, run("serve", "--bench-args", "--model m", "--num-run", "1"));
    assertTrue(err().contains("sweep serve: unknown flag --num-run; did you mean --num-runs?"),
        err());
    assertEquals(Sweep.USAGE_STATUS, run("serve", "--bench-args", "--modle m"));
    assertTrue(err().contains("unknown flag --modle; did you mean --model?"), err());
    assertEquals(Sweep.USAGE_STATUS, run("serve", "--bench-args", "--model m",
        "--num-runs", "0"));
    assertTrue(err().contains("`num_runs` should be at least 1."), err());
    assertEquals(Sweep.USAGE_STATUS, run("serve", "--bench-args", "--model m",
        "--bench-params", "{\"a\": 1}"));
    assertTrue(err().contains("but found item type: <class 'int'>"), err());
    assertEquals(Sweep.USAGE_STATUS, run("serve_sla", "--bench-args", "--model m",
        "--sla-params", "[{\"p99_e2el_ms\": \"=500\"}]"));
    assertTrue(err().contains("Invalid operator for SLA constraint 'p99_e2el_ms==500'"), err());
    assertEquals(Sweep.USAGE_STATUS, run("serve_sla", "--bench-args", "--model m",
        "--sla-params", "[{\"a\": \"<1\"}]", "--sla-variable", "concurrency"));
    assertTrue(err().contains("--sla-variable: invalid choice: 'concurrency'"), err());
    assertEquals(Sweep.USAGE_STATUS, run("serve", "--bench-args", "--model m",
        "--serve-params", "[{\"tp\": 2}]"));
    assertTrue(err().contains("--serve-params varies the server's flags, so it needs "
        + "--serve-cmd"), err());
    assertEquals(Sweep.USAGE_STATUS, run("plot", dir.resolve("none").toString()));
    assertTrue(err().contains("No parameter sweep results under"), err());
    assertEquals(Sweep.USAGE_STATUS, run("plot", dir.toString(), "--scale-x", "ln"));
    assertTrue(err().contains("--scale-x: invalid choice: 'ln' (choose from 'linear', 'log', "
        + "'symlog', 'logit', 'asinh', 'sqrt')"), err());
  }

  @Test
  void helpListsTheCommandsAndEachCommandsFlagsAndSucceeds() {
    assertEquals(0, run("--help"));
    String help = out.toString(StandardCharsets.UTF_8);
    List<String> commands = help.lines().dropWhile(l -> !l.equals("Commands:")).skip(1)
        .filter(l -> l.startsWith("  ") && !l.startsWith("    "))
        .map(l -> l.strip().split("  ")[0]).toList();
    assertEquals(List.of("serve", "serve_sla", "serve_workload, workload", "startup", "repeat",
        "plot", "plot_pareto"), commands, help);
    out.reset();
    assertEquals(0, run("startup", "--help"));
    help = out.toString(StandardCharsets.UTF_8);
    for (String flag : new String[] {"--serve-cmd=CMD", "--serve-params", "--startup-params",
        "--num-iters-cold=N", "--num-iters-warmup=N", "--num-iters-warm=N", "--base-url=URL",
        "--resume", "-e, --experiment-name=NAME", "--num-runs=N", "(default 1)"}) {
      assertTrue(help.contains(flag), flag + "\n" + help);
    }
    out.reset();
    assertEquals(0, run("plot", "--help"));
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("linear (default), log, symlog, "
        + "logit, asinh or sqrt"), out.toString(StandardCharsets.UTF_8));
    out.reset();
    assertEquals(0, run("serve_sla", "--help"));
    help = out.toString(StandardCharsets.UTF_8);
    for (String flag : new String[] {"--bench-args", "--link-vars", "--resume", "--dry-run",
        "--sla-params", "(default 3)"}) {
      assertTrue(help.contains(flag), flag);
    }
    out.reset();
    assertEquals(0, run("workload", "-h"));
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("--workload-iters=N"));
    out.reset();
    assertEquals(0, run("serve_workload", "-h"), "vLLM's newest name");
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("--workload-iters=N"));
    out.reset();
    assertEquals(0, run("--help"));
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("serve_workload, workload"),
        out.toString(StandardCharsets.UTF_8));
  }

  @Test
  void resumeAloneContinuesTheNamedExperiment() {
    assertEquals(Sweep.USAGE_STATUS, run("serve", "--bench-args", "--model m", "--resume"));
    assertTrue(err().contains("sweep serve: error: --resume without a folder continues the "
        + "-e/--experiment-name folder: give -e NAME, or --resume TIMESTAMP"), err());
    assertEquals(Sweep.USAGE_STATUS, run("serve", "--bench-args", "--model m", "-e", "x",
        "--resume", "-o", dir.toString()));
    assertTrue(err().contains("Cannot resume from non-existent directory (" + dir.resolve("x")
        + ")"), err());
  }

  @Test
  void aDryRunFromTheCommandLinePrintsTheCommands() {
    assertEquals(0, run("serve", "--bench-args", "--base-url http://127.0.0.1:9 --model m",
        "--bench-params", "[{\"max_concurrency\": 4}]", "--num-runs", "1", "--dry-run",
        "-o", dir.toString()));
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("Benchmark command: BenchServe "
        + "--base-url http://127.0.0.1:9 --model m --max-concurrency 4"), out.toString());
  }
}
