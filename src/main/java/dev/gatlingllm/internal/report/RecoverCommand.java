package dev.gatlingllm.internal.report;

import dev.gatlingllm.internal.tool.HelpOption;
import dev.gatlingllm.report.Recover;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gatling-llm recover} ({@code Recover}'s main): a run's result JSON and summary from
 * its record log. Exit status 0, 1 when the log cannot give a result, 2 for a bad command line.
 */
@Command(name = "recover", usageHelpWidth = 100,
    description = "Rebuilds the vLLM result JSON and console summary of a run whose JVM died, "
        + "from its record log (" + RecordLog.FILE_NAME + ").")
public final class RecoverCommand implements Callable<Integer> {

  @Mixin
  private HelpOption help;

  @Parameters(paramLabel = "RUN", description = "the run folder (e.g. target/gatling/<run>) or "
      + "its record log")
  Path input;

  @Option(names = "--out", paramLabel = "FILE", description = "the result JSON (default: the "
      + "run's result file name, beside the log; an existing file is never overwritten)")
  Path out;

  @Option(names = "--tokenizer", paramLabel = "TOKENIZER", description = "tokenizer.json, its "
      + "folder or a Hugging Face id: counts output tokens of responses without usage "
      + "(default: the run's)")
  String tokenizer;

  @Override
  public Integer call() {
    Recover.Recovered r = Recover.recover(input, out,
        tokenizer == null ? null : Recover.counter(tokenizer), System.out);
    if (!r.outcome().ok()) {
      throw new IllegalStateException(r.outcome().error());
    }
    System.out.println("gatling-llm: wrote " + r.outcome().resultFile());
    return 0;
  }
}
