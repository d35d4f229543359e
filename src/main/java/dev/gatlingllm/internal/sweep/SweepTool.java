package dev.gatlingllm.internal.sweep;

import dev.gatlingllm.sweep.Sweep;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.spi.ToolProvider;

/**
 * The sweep's command line as a JDK {@link ToolProvider} named {@value #NAME}, registered in
 * {@code META-INF/services/java.util.spi.ToolProvider}. This is how {@code LlmDsl.sweep(...)}
 * reaches the sweep: the DSL looks the tool up by name, so the DSL's package does not depend
 * on this one. The dependency runs one way only: the sweep drives {@code bench serve}
 * ({@code cli}), which builds its simulation with the DSL.
 */
public final class SweepTool implements ToolProvider {

  /** The tool's name, as {@code ToolProvider.findFirst} and {@code LlmDsl.sweep} look it up. */
  public static final String NAME = "gatling-llm-sweep";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public int run(PrintStream out, PrintStream err, String... args) {
    return Sweep.run(args, out, err);
  }

  @Override
  public int run(PrintWriter out, PrintWriter err, String... args) {
    PrintStream o = printStream(out);
    PrintStream e = printStream(err);
    try {
      return Sweep.run(args, o, e);
    } finally {
      o.flush(); // a last print without a line end
      e.flush();
    }
  }

  /**
   * A stream that hands what it gets to {@code writer} at each flush: with auto-flush a
   * line or a whole write at a time, so no character is cut in two.
   */
  private static PrintStream printStream(PrintWriter writer) {
    OutputStream bytes = new ByteArrayOutputStream() {
      @Override
      public synchronized void flush() {
        writer.write(toString(StandardCharsets.UTF_8));
        writer.flush();
        reset();
      }
    };
    return new PrintStream(bytes, true, StandardCharsets.UTF_8);
  }
}
