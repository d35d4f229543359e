package dev.gatlingllm.internal.sweep;

import dev.gatlingllm.cli.BenchServe;
import dev.gatlingllm.internal.cli.CommandLine;
import dev.gatlingllm.internal.protocol.RunResults;
import io.gatling.app.Gatling$;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A sweep's run as a real Gatling run of {@link BenchServe} with the same flags and the same
 * run folder layout as {@link ForkedRun}, but inside the test's JVM: the benchmark, the
 * simulator's answers and the result JSON are the real ones; only the JVM start, Gatling's
 * class loading and the cold client (about 4 s a run on two cores) are saved. For the sweep
 * tests whose point is what the runs measure, once {@code ForkedRun} is covered by others.
 */
final class InProcessRun implements RunLauncher {

  int runs;

  @Override
  public synchronized Map<String, Object> run(List<String> benchArgs, Path runDir) {
    Path gatling = runDir.resolve(ForkedRun.GATLING_DIR).toAbsolutePath();
    System.setProperty(CommandLine.ARGS_PROPERTY, ForkedRun.shellJoin(benchArgs));
    System.setProperty(RunResults.RESULTS_FOLDER_PROPERTY, gatling.toString());
    int code;
    try {
      Files.createDirectories(gatling);
      code = Gatling$.MODULE$.fromArgs(new String[] {"--simulation", BenchServe.class.getName(),
          "--results-folder", gatling.toString(), "--launcher", "maven",
          "--build-tool-version", "sweep"});
      // as the forked JVM would exit, and never at this JVM's exit
      int verdict = RunResults.takeExitStatus();
      code = verdict != 0 ? verdict : code;
    } catch (IOException e) {
      throw new SweepFailure("cannot create " + gatling + ": " + e.getMessage(), e);
    } finally {
      System.clearProperty(CommandLine.ARGS_PROPERTY);
      System.clearProperty(RunResults.RESULTS_FOLDER_PROPERTY);
      // a run that crashed in-process leaves this thread interrupted
      Thread.interrupted();
    }
    runs++;
    Path result = runDir.resolve(ForkedRun.RESULT_FILE);
    if ((code != 0 && code != RunResults.NO_REQUEST_SUCCEEDED_STATUS)
        || !Files.isRegularFile(result)) {
      throw new SweepFailure("the benchmark run failed (exit status " + code
          + (Files.isRegularFile(result) ? "" : ", no result JSON") + ")");
    }
    return Params.readObject(result);
  }
}
