package dev.gatlingllm.internal.report;

import dev.gatlingllm.internal.tool.HelpOption;
import dev.gatlingllm.report.Merge;
import dev.gatlingllm.report.Recover;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gatling-llm merge} ({@code Merge}'s main): the result of a scaled-out benchmark from
 * its injectors' record logs. Exit status 0, 1 when the logs cannot be merged, 2 for a bad
 * command line.
 */
@Command(name = "merge", usageHelpWidth = 100,
    description = "Merges the record logs of the injectors of one scaled-out benchmark into "
        + "its result JSON, summary and LLM report.")
public final class MergeCommand implements Callable<Integer> {

  @Mixin
  private HelpOption help;

  @Parameters(paramLabel = "LOG", arity = "1..*", description = "record logs, or folders "
      + "searched for " + RecordLog.FILE_NAME)
  List<Path> inputs;

  @Option(names = "--out-dir", paramLabel = "DIR", defaultValue = "merged",
      description = "where to write (default ${DEFAULT-VALUE})")
  Path outDir;

  @Option(names = "--tokenizer", paramLabel = "TOKENIZER", description = "as recover's")
  String tokenizer;

  @Option(names = "--allow-missing", description = "merge although some injector left no log; "
      + "the result is then partial")
  boolean allowMissing;

  @Override
  public Integer call() {
    Merge.Merged merged = Merge.merge(inputs, outDir, allowMissing,
        tokenizer == null ? null : Recover.counter(tokenizer), System.out);
    if (!merged.outcome().ok()) {
      throw new IllegalStateException(merged.outcome().error());
    }
    System.out.println("gatling-llm: wrote " + merged.outcome().resultFile()
        + (merged.outcome().htmlReport() == null ? "" : " and " + merged.outcome().htmlReport()));
    return 0;
  }
}
