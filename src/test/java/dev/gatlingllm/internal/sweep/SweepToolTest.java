package dev.gatlingllm.internal.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.LlmDsl;
import dev.gatlingllm.sweep.Sweep;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * {@code LlmDsl.sweep(...)} reaches the sweep as a {@link java.util.spi.ToolProvider}, so that
 * the DSL's package does not depend on this one (the loop DSL → sweep → cli → DSL, issue 37).
 */
class SweepToolTest {

  @Test
  void theDslFindsTheSweepByItsToolName() {
    // without the services file, or under another name, the DSL throws instead of answering
    assertEquals(0, LlmDsl.sweep("serve", "--help"));
    assertEquals(Sweep.USAGE_STATUS, LlmDsl.sweep("no_such_command"));
  }

  @Test
  void theDslClassDoesNotNameTheSweepPackage() throws IOException {
    // a direct call (import dev.gatlingllm.sweep.Sweep) puts the package into LlmDsl's
    // constant pool, closing the loop again
    try (InputStream in = LlmDsl.class.getResourceAsStream("LlmDsl.class")) {
      String bytes = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
      assertFalse(bytes.contains("dev/gatlingllm/sweep/"), "LlmDsl refers to the sweep package");
    }
  }

  @Test
  void theWriterFormPrintsWhatTheCommandSays() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status = new SweepTool().run(new PrintWriter(out), new PrintWriter(err), "serve",
        "--help");
    assertEquals(0, status);
    assertTrue(out.toString().contains("--bench-args=ARGS"), out.toString());
    assertEquals("", err.toString());

    status = new SweepTool().run(new PrintWriter(out), new PrintWriter(err), "serve");
    assertEquals(Sweep.USAGE_STATUS, status);
    assertTrue(err.toString().contains("--bench-args"), err.toString());
  }
}
