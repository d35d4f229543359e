package dev.gatlingllm.internal.logging;

/**
 * A run refused before it starts, by a tool that names itself on the console (such as
 * {@code gatling-llm bench serve}). When it ends a Gatling run, the console gets one line,
 * {@code <tool>: <message>}, and the stack trace goes to the log file (see
 * {@link CrashReport}). Validation elsewhere throws {@link IllegalArgumentException} or
 * {@link IllegalStateException}, which are reported the same way under the plugin's name.
 */
public final class Refusal extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final String tool;

  /**
   * @param tool what refused, as the user typed it (e.g. {@code gatling-llm bench serve})
   * @param message the problem and, where there is one, the fix
   * @param cause what was caught, kept for the log file's stack trace
   */
  public Refusal(String tool, String message, Throwable cause) {
    super(message, cause);
    this.tool = tool;
  }

  /** What refused, the prefix of its console line. */
  public String tool() {
    return tool;
  }
}
