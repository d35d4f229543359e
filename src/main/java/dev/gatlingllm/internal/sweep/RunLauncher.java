package dev.gatlingllm.internal.sweep;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Runs one benchmark: the drop-in's flags in, the result JSON out. */
public interface RunLauncher {

  /**
   * @param benchArgs the drop-in's flags, the sweep's result flags included
   * @param runDir    the run's own folder (result JSON, LLM report, Gatling report, console)
   * @return the result JSON as written
   * @throws SweepFailure when the run failed; the message says why and where to look
   */
  Map<String, Object> run(List<String> benchArgs, Path runDir);
}
