package dev.gatlingllm.sim;

import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Runs the simulator standalone until the process is killed:
 * {@code java -cp <classpath> dev.gatlingllm.sim.Main --port 8000 --ttft-ms 80 --itl-ms 15}.
 * Exit codes: 0 after {@code --help}, 1 when the port cannot be bound, 2 for a bad flag.
 */
public final class Main {

  private Main() {}

  /** Parses the flags (see {@link SimulatorConfig#usage()}), starts, and blocks forever. */
  public static void main(String[] args) {
    // Without a logging config on the class path logback prints Netty's DEBUG start-up
    // chatter; the standalone server should print its one line and then stay quiet.
    InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
    System.exit(run(args, System.out, System.err, new CountDownLatch(1)));
  }

  /**
   * Everything {@link #main} does, without exiting: serves until {@code stop} is counted
   * down and returns the exit code.
   */
  static int run(String[] args, PrintStream out, PrintStream err, CountDownLatch stop) {
    List<String> list = List.of(args);
    if (list.contains("--help") || list.contains("-h")) {
      out.print(SimulatorConfig.usage());
      out.flush();
      return 0;
    }
    SimulatorConfig config;
    try {
      config = SimulatorConfig.fromArgs(args);
    } catch (IllegalArgumentException e) {
      err.println("error: " + e.getMessage());
      err.println();
      err.print(SimulatorConfig.usage());
      err.flush();
      return 2;
    }
    Simulator simulator;
    try {
      simulator = Simulator.start(config);
    } catch (IllegalStateException e) {
      err.println("error: " + e.getMessage());
      err.flush();
      return 1;
    }
    try (simulator) {
      out.println("gatling-llm simulator listening on " + simulator.baseUrl()
          + " (model " + config.model() + ")");
      out.flush();
      stop.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return 0;
  }
}
