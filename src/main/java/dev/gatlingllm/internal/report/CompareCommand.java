package dev.gatlingllm.internal.report;

import dev.gatlingllm.internal.tool.HelpOption;
import dev.gatlingllm.report.Compare;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gatling-llm compare} ({@code Compare}'s main): several runs side by side in one page.
 * Exit status 0, 1 when an input holds no run, 2 for a bad command line.
 */
@Command(name = "compare", usageHelpWidth = 100,
    description = "Several runs side by side in one compare.html: headline figures with their "
        + "differences from the first run, distributions and over-time charts overlaid.")
public final class CompareCommand implements Callable<Integer> {

  @Mixin
  private HelpOption help;

  @Parameters(paramLabel = "RUN", arity = "2..*", description = "run folders, llm-report.html "
      + "files or result JSON files (every line of an appended file is a run)")
  List<Path> inputs;

  @Option(names = {"-o", "--output"}, paramLabel = "FILE", defaultValue = "compare.html",
      description = "the page (default ${DEFAULT-VALUE})")
  Path out;

  @Override
  public Integer call() throws IOException {
    java.util.Map.Entry<Path, String> written = Compare.writeWithWarning(inputs, out);
    if (written.getValue() != null) {
      System.out.println("Warning: " + written.getValue());
    }
    System.out.println("Compared " + inputs.size() + " inputs: "
        + written.getKey().toAbsolutePath().toUri());
    return 0;
  }
}
