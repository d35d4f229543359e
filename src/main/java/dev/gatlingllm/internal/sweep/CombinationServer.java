package dev.gatlingllm.internal.sweep;

import dev.gatlingllm.sweep.SweepConfig;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The server of one server combination, started with {@code --serve-cmd} and its overrides,
 * cleaned after each run ({@code --after-bench-cmd}, else vLLM's cache resets); a no-op
 * without {@code --serve-cmd}, when the server in {@code --bench-args} runs already.
 */
final class CombinationServer {

  private final SweepConfig config;
  private final RunArgs runArgs;
  private final PrintStream out;
  private final Path root;
  private final Map<String, Object> serve;
  private ServerProcess process;
  /** Every replica's root URL ({@code --base-url} repeated), the first one first. */
  private List<String> baseUrls;
  private Path log;
  private boolean started;

  CombinationServer(SweepConfig config, RunArgs runArgs, Path root, Map<String, Object> serve) {
    this.config = config;
    this.runArgs = runArgs;
    this.out = config.out();
    this.root = root;
    this.serve = serve;
  }

  /**
   * Starts the server and waits for the {@code /health} of every replica; prints the command on
   * a dry run.
   */
  void start(Map<String, Object> firstBench, String name) {
    List<String> command = Params.overrideServe(config.serveCmd(), serve);
    out.println("[BEGIN SERVER]");
    out.println("Server overrides: " + serve);
    out.println("Server command: " + ForkedRun.shellJoin(command));
    started = true;
    baseUrls = runArgs.baseUrls(firstBench);
    log = root.resolve(name + ".server.log");
    if (config.dryRun()) {
      return;
    }
    process = ServerProcess.start(command, log, config.showStdout(), out);
    process.awaitReady(baseUrls.stream().map(url -> URI.create(url + "/health")).toList(),
        config.serverReadyTimeout());
    out.println("Server ready: " + String.join(", ", baseUrls) + " (pid " + process.pid() + ", output in " + log
        + ")");
  }

  void afterBench() {
    if (config.serveCmd().isEmpty() && config.afterBenchCmd().isEmpty()) {
      return;
    }
    ServerProcess.afterBench(config.afterBenchCmd(), config.serveCmd(),
        baseUrls != null ? baseUrls : runArgs.baseUrls(Map.of()), config.showStdout(), out,
        root.resolve("after-bench.log"));
  }

  void kill() {
    if (process != null) {
      process.kill();
    }
  }

  void close() {
    if (process != null) {
      process.close();
    }
    if (started) {
      out.println("[END SERVER]");
    }
  }
}
