package dev.gatlingllm.tokenizer;

import ch.qos.logback.classic.Level;
import org.slf4j.LoggerFactory;

/**
 * Keeps DJL from phoning home and from warning about GPUs. On every tokenizer load DJL's
 * {@code Ec2Utils.callHome} queries the EC2 metadata address (169.254.169.254) and a
 * telemetry bucket unless tracking is opted out; a load tester must not send traffic nobody
 * asked for, and the machines this runs on may flag it. A user's own OPT_OUT_TRACKING setting
 * (environment or system property) is left alone.
 */
final class DjlQuiet {

  static final String OPT_OUT = "OPT_OUT_TRACKING";
  /** DJL's CUDA probe, which warns "Failed to detect GPU count" on a machine without one. */
  static final String CUDA_LOGGER = "ai.djl.util.cuda";

  private DjlQuiet() {}

  static void apply() {
    if (System.getenv(OPT_OUT) == null && System.getProperty(OPT_OUT) == null) {
      System.setProperty(OPT_OUT, "true");
    }
    quietGpuProbe();
  }

  /**
   * DJL probes for CUDA once per JVM, and where CUDA's runtime is installed without a driver
   * or a GPU it warns at every start; a tokenizer needs no GPU. A level the project's logging
   * file gives that logger is kept.
   */
  private static void quietGpuProbe() {
    if (LoggerFactory.getLogger(CUDA_LOGGER) instanceof ch.qos.logback.classic.Logger probe
        && probe.getLevel() == null) {
      probe.setLevel(Level.ERROR);
    }
  }
}
