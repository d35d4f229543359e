package dev.gatlingllm.tokenizer;

/**
 * Keeps DJL from phoning home. On every tokenizer load DJL's {@code Ec2Utils.callHome}
 * queries the EC2 metadata address (169.254.169.254) and a telemetry bucket unless tracking
 * is opted out; a load tester must not send traffic nobody asked for, and the machines this
 * runs on may flag it. A user's own OPT_OUT_TRACKING setting (environment or system
 * property) is left alone.
 */
final class DjlQuiet {

  static final String OPT_OUT = "OPT_OUT_TRACKING";

  private DjlQuiet() {}

  static void apply() {
    if (System.getenv(OPT_OUT) == null && System.getProperty(OPT_OUT) == null) {
      System.setProperty(OPT_OUT, "true");
    }
  }
}
