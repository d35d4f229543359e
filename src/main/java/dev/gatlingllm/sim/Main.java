package dev.gatlingllm.sim;

import dev.gatlingllm.internal.sim.SimCommand;
import dev.gatlingllm.internal.tool.Tool;
import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;

/**
 * Runs the simulator standalone until the process is killed:
 * {@code java -cp <classpath> dev.gatlingllm.sim.Main --port 8000 --ttft-ms 80 --itl-ms 15},
 * the same as {@code gatling-llm sim ...}. Exit codes: 0 after {@code --help}, 1 when the
 * port cannot be bound, 2 for a bad flag ({@link SimCommand}).
 */
public final class Main {

  private Main() {}

  /** Parses the flags (see {@link SimCommand}), starts, and blocks until killed. */
  public static void main(String[] args) {
    System.exit(commandLine(new SimCommand(), System.out, System.err).execute(args));
  }

  /**
   * Everything {@link #main} does, without exiting: serves until {@code stop} is counted
   * down and returns the exit code.
   */
  static int run(String[] args, PrintStream out, PrintStream err, CountDownLatch stop) {
    return commandLine(new SimCommand(stop), out, err).execute(args);
  }

  /** The simulator's picocli command line, printing to {@code out} and {@code err}. */
  static CommandLine commandLine(SimCommand command, PrintStream out, PrintStream err) {
    return Tool.commandLine(command, out, err);
  }
}
