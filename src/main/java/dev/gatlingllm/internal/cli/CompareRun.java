package dev.gatlingllm.internal.cli;

import dev.gatlingllm.report.Compare;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code --compare A.json B.json} (vLLM's Rust client): run B against run A, each headline
 * figure with its difference and whether it got better or worse (or is the same within noise),
 * and a warning when the two were not run alike, on the console and in
 * {@code compare.html}; nothing is sent. The comparison is {@link Compare}'s, as
 * {@code gatling-llm compare} makes it.
 */
final class CompareRun {

  /** The page, in the results folder or {@code --result-dir}. */
  static final String PAGE = "compare.html";

  private CompareRun() {}

  static int run(BenchArgs args, PrintWriter out, Path folder) {
    List<String> files = args.values("compare");
    if (files.size() != 2) {
      throw new IllegalArgumentException("--compare takes two result files, A.json B.json "
          + "(run B is compared with run A); got " + files.size()
          + (files.size() > 2 ? ": `gatling-llm compare` puts more runs side by side" : ""));
    }
    Compare.Pair pair;
    try {
      pair = Compare.pair(Path.of(files.get(0)), Path.of(files.get(1)), folder.resolve(PAGE));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--compare: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new IllegalArgumentException("--compare: cannot read or write a file: " + e, e);
    }
    out.println("A: " + files.get(0) + " (" + pair.nameA() + ")");
    out.println("B: " + files.get(1) + " (" + pair.nameB() + ")");
    if (pair.warning() != null) {
      out.println("Warning: " + pair.warning());
    }
    out.print(pair.table());
    out.println("Comparison page: " + pair.page().toAbsolutePath().toUri());
    out.println("Nothing was sent (--compare).");
    return 0;
  }
}
