package dev.gatlingllm.internal.sweep;

import dev.gatlingllm.internal.http.AuxHttp;
import dev.gatlingllm.internal.http.AuxHttpException;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The server of one server combination ({@code --serve-cmd}): started with its output in a
 * file, waited for until its health endpoint answers, reset or hooked after each benchmark
 * run, and stopped with its whole process tree.
 */
final class ServerProcess implements AutoCloseable {

  /** How long a stopping server gets between SIGTERM and SIGKILL. */
  static final long STOP_GRACE_MS = 10_000;
  private static final long POLL_MS = 250;
  /** The health poll of a start-up measurement: its resolution. */
  static final long STARTUP_POLL_MS = 20;

  private final List<String> command;
  private final Process process;
  private final Path log;
  private final PrintStream out;
  /** When the process was started ({@link System#nanoTime()}): start-up times count from it. */
  private final long startedNanos;
  private boolean stopped;

  private ServerProcess(List<String> command, Process process, Path log, PrintStream out,
      long startedNanos) {
    this.command = command;
    this.process = process;
    this.log = log;
    this.out = out;
    this.startedNanos = startedNanos;
  }

  static ServerProcess start(List<String> command, Path log, boolean showStdout,
      PrintStream out) {
    return start(command, Map.of(), log, showStdout, out);
  }

  /** {@link #start(List, Path, boolean, PrintStream)} with {@code env} added. */
  static ServerProcess start(List<String> command, Map<String, String> env, Path log,
      boolean showStdout, PrintStream out) {
    // as vLLM's sweep does: a vllm server needs it for the cache-reset endpoints
    Map<String, String> all = new java.util.HashMap<>(env);
    all.put("VLLM_SERVER_DEV_MODE", "1");
    long started = System.nanoTime();
    try {
      return new ServerProcess(command, Processes.start(command, all, log,
          showStdout ? out : null), log, out, started);
    } catch (IOException e) {
      throw new SweepFailure("cannot start the server " + command + ": " + e.getMessage(), e);
    }
  }

  long pid() {
    return process.pid();
  }

  /**
   * Waits until {@code GET health} answers 2xx at every replica: a sweep's server command may
   * start several, and a run sent before the last is up would count its refusals. Kills the
   * server's tree and fails when it exits first or the time runs out.
   */
  void awaitReady(List<URI> health, Duration timeout) {
    awaitReady(health, timeout, POLL_MS);
  }

  /**
   * As {@link #awaitReady(List, Duration)} for one address, polling every {@code pollMs}.
   *
   * @return the start-up time: from the process' start to the first 2xx answer
   */
  Duration awaitReady(URI health, Duration timeout, long pollMs) {
    return awaitReady(List.of(health), timeout, pollMs);
  }

  /** As {@link #awaitReady(List, Duration)}; returns when the last replica answered 2xx. */
  private Duration awaitReady(List<URI> health, Duration timeout, long pollMs) {
    long deadline = startedNanos + timeout.toNanos();
    // each replica not yet ready, with what it last gave
    Map<URI, String> waiting = new LinkedHashMap<>();
    health.forEach(uri -> waiting.put(uri, "no answer yet"));
    while (true) {
      if (!process.isAlive()) {
        stopped = true;
        throw new SweepFailure("the server exited with status " + process.exitValue()
            + " before it became ready (" + String.join(", ", waiting.keySet().stream()
            .map(URI::toString).toList()) + "); its output: " + log + "\n"
            + Processes.tail(log, 15));
      }
      for (Iterator<Map.Entry<URI, String>> it = waiting.entrySet().iterator(); it.hasNext(); ) {
        Map.Entry<URI, String> replica = it.next();
        try {
          int status = get(replica.getKey());
          if (status / 100 == 2) {
            it.remove();
          } else {
            replica.setValue("HTTP " + status);
          }
        } catch (AuxHttpException e) {
          replica.setValue(e.getMessage());
        }
      }
      if (waiting.isEmpty()) {
        return Duration.ofNanos(System.nanoTime() - startedNanos);
      }
      if (System.nanoTime() > deadline) {
        kill();
        StringBuilder last = new StringBuilder();
        waiting.forEach((uri, gave) -> last.append(last.length() == 0 ? "" : "; ")
            .append("GET ").append(uri).append(" last gave ").append(gave));
        throw new SweepFailure("the server did not become ready within "
            + timeout.toSeconds() + " s (--server-ready-timeout): " + last
            + "; the server and its child processes were killed; its "
            + "output: " + log + "\n" + Processes.tail(log, 15));
      }
      try {
        Thread.sleep(pollMs);
      } catch (InterruptedException e) {
        kill();
        Thread.currentThread().interrupt();
        throw new SweepFailure("interrupted while waiting for the server; it was killed", e);
      }
    }
  }

  /**
   * Refuses to time a start-up at {@code health} while something already answers there (a
   * user's own server, or a child the last server left behind): its answer would be taken
   * for the new server's readiness, a start-up of a few milliseconds.
   *
   * @throws SweepFailure naming the address when it answers
   */
  static void requireNothingServes(URI health) {
    int status;
    try {
      status = get(health);
    } catch (AuxHttpException nothingThere) {
      return;
    }
    throw new SweepFailure("something already serves " + health + " (HTTP " + status + ") "
        + "before the server was started: its answer would be timed as the start-up; stop it "
        + "or use another port");
  }

  private static int get(URI uri) throws AuxHttpException {
    return AuxHttp.get(uri).connectTimeout(Duration.ofSeconds(2)).timeout(Duration.ofSeconds(5))
        .send().status();
  }

  /**
   * After a benchmark run: {@code --after-bench-cmd} when given; for a {@code vllm} server
   * vLLM's cache resets ({@code POST /reset_prefix_cache}, {@code /reset_mm_cache}); other
   * servers have no known reset, which is said once. With several replicas each is reset (each
   * has its own caches).
   */
  static void afterBench(List<String> afterBenchCmd, List<String> serveCmd, List<String> baseUrls,
      boolean showStdout, PrintStream out, Path log) {
    if (!afterBenchCmd.isEmpty()) {
      try {
        Process p = Processes.start(afterBenchCmd, log, showStdout ? out : null);
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
          Processes.killTree(p.toHandle());
          throw new SweepFailure("--after-bench-cmd did not finish within 10 min: "
              + afterBenchCmd);
        }
        if (p.exitValue() != 0) {
          throw new SweepFailure("--after-bench-cmd " + afterBenchCmd + " exited with status "
              + p.exitValue() + "; its output: " + log + "\n" + Processes.tail(log, 10));
        }
      } catch (IOException e) {
        throw new SweepFailure("cannot run --after-bench-cmd " + afterBenchCmd + ": "
            + e.getMessage(), e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SweepFailure("interrupted in --after-bench-cmd", e);
      }
      return;
    }
    if (!serveCmd.isEmpty() && serveCmd.get(0).endsWith("vllm")) {
      for (String baseUrl : baseUrls) {
        resetCaches(baseUrl, out);
      }
    }
  }

  /** vLLM's cache resets at one replica; a refusal names its address and the fix. */
  private static void resetCaches(String baseUrl, PrintStream out) {
    out.println("Resetting caches at " + baseUrl);
    for (String path : List.of("/reset_prefix_cache", "/reset_mm_cache")) {
      try {
        AuxHttp.post(URI.create(baseUrl + path), new byte[0], "application/json")
            .connectTimeout(Duration.ofSeconds(5)).timeout(Duration.ofSeconds(60)).send()
            .requireOk();
      } catch (AuxHttpException e) {
        throw new SweepFailure(e.getMessage() + (e.status() > 0 ? " (vLLM needs "
            + "VLLM_SERVER_DEV_MODE=1 for it, which the sweep sets; or give --after-bench-cmd)"
            : ""), e);
      }
    }
  }

  /** Stops the server cleanly (SIGTERM to the tree, SIGKILL after a grace period). */
  @Override
  public void close() {
    if (stopped) {
      return;
    }
    stopped = true;
    if (!Processes.stopTree(process.toHandle(), STOP_GRACE_MS)) {
      out.println("The server did not stop within " + STOP_GRACE_MS / 1000 + " s of SIGTERM: "
          + "killed " + command.get(0) + " and its child processes");
    }
  }

  /** Kills the server's tree at once (on failure). */
  void kill() {
    stopped = true;
    Processes.killTree(process.toHandle());
  }
}
