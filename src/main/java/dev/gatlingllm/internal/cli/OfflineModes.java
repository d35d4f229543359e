package dev.gatlingllm.internal.cli;

import dev.gatlingllm.internal.protocol.RunResults;
import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * The drop-in's modes that send nothing: {@code --compare A.json B.json} ({@link CompareRun})
 * and {@code --dry-run} ({@link DryRun}), both of vLLM's Rust client. They run instead of the
 * benchmark, from {@code gatling-llm bench serve} and from {@code gatling:test}.
 */
public final class OfflineModes {

  private OfflineModes() {}

  /** Whether the command line asks for a mode that sends nothing. */
  public static boolean requested(BenchArgs args) {
    return args.has("compare") || args.on("dry-run");
  }

  /**
   * Runs the mode asked for, its files going to {@code --result-dir}, else {@code folder}.
   *
   * @return the exit status: 0
   * @throws IllegalArgumentException for bad flags or files, naming them
   */
  public static int run(BenchArgs args, PrintWriter out, Path folder) {
    if (args.has("compare") && args.on("dry-run")) {
      throw new IllegalArgumentException("--compare and --dry-run: give one of them");
    }
    Path into = args.value("result-dir").map(Path::of).orElse(folder);
    int status = args.has("compare") ? CompareRun.run(args, out, into)
        : DryRun.run(args, out, into);
    out.flush();
    return status;
  }

  /**
   * Where a run under {@code gatling:test} writes files of its own: the results folder the
   * JVM was given ({@code -Dllm.resultsFolder}), else Gatling's Maven plugin's.
   */
  public static Path defaultFolder() {
    return Path.of(System.getProperty(RunResults.RESULTS_FOLDER_PROPERTY, "target/gatling"));
  }
}
