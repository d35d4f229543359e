package dev.gatlingllm.internal.sweep;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Child processes of a sweep: output to a file (and the console), whole trees stopped. */
final class Processes {

  private Processes() {}

  /**
   * Starts {@code command} with stdout and stderr going to {@code log}, and to {@code echo}
   * as well when it is not null.
   */
  static Process start(List<String> command, Path log, PrintStream echo) throws IOException {
    return start(command, Map.of(), log, echo);
  }

  /** {@link #start(List, Path, PrintStream)} with {@code env} added to the environment. */
  static Process start(List<String> command, Map<String, String> env, Path log,
      PrintStream echo) throws IOException {
    Files.createDirectories(log.toAbsolutePath().getParent());
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().putAll(env);
    if (echo == null) {
      builder.redirectOutput(log.toFile());
      return builder.start();
    }
    Process process = builder.start();
    OutputStream file = Files.newOutputStream(log);
    Thread pump = new Thread(() -> copy(process.getInputStream(), file, echo),
        "sweep-output-" + process.pid());
    pump.setDaemon(true);
    pump.start();
    return process;
  }

  private static void copy(InputStream in, OutputStream file, PrintStream echo) {
    byte[] buffer = new byte[8192];
    try (in; file) {
      int n;
      while ((n = in.read(buffer)) >= 0) {
        file.write(buffer, 0, n);
        file.flush();
        echo.write(buffer, 0, n);
        echo.flush();
      }
    } catch (IOException e) {
      // the process ended or the file went away: nothing left to copy
    }
  }

  /**
   * Stops a process and all its descendants: SIGTERM to each, then after {@code graceMs}
   * SIGKILL to whatever still runs. The tree is listed first, since children orphaned by
   * their parent's exit no longer count as its descendants.
   *
   * @return whether everything had stopped before the kill
   */
  static boolean stopTree(ProcessHandle root, long graceMs) {
    List<ProcessHandle> tree = tree(root);
    tree.forEach(ProcessHandle::destroy);
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(graceMs);
    boolean clean = true;
    for (ProcessHandle p : tree) {
      long left = deadline - System.nanoTime();
      try {
        p.onExit().get(Math.max(0, left), TimeUnit.NANOSECONDS);
      } catch (Exception e) {
        clean = false;
      }
    }
    if (!clean) {
      killTree(root, tree);
    }
    return clean;
  }

  /** SIGKILL to a process and all its descendants, waiting (briefly) until they are gone. */
  static void killTree(ProcessHandle root) {
    killTree(root, tree(root));
  }

  private static void killTree(ProcessHandle root, List<ProcessHandle> tree) {
    List<ProcessHandle> all = new ArrayList<>(tree);
    tree(root).stream().filter(p -> !all.contains(p)).forEach(all::add);
    all.forEach(ProcessHandle::destroyForcibly);
    for (ProcessHandle p : all) {
      try {
        p.onExit().get(5, TimeUnit.SECONDS);
      } catch (Exception e) {
        // a zombie or a process we may not signal: nothing more can be done from here
      }
    }
  }

  private static List<ProcessHandle> tree(ProcessHandle root) {
    List<ProcessHandle> tree = new ArrayList<>(root.descendants().toList());
    tree.add(root);
    return tree;
  }

  /** The last {@code lines} lines of a text file, for error messages. */
  static String tail(Path file, int lines) {
    try {
      List<String> all = Files.readAllLines(file);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException | RuntimeException e) {
      return "(" + file + " unreadable: " + e.getMessage() + ")";
    }
  }
}
