package dev.gatlingllm.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.DictionaryFile;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;

/**
 * Fuzzes the chunk parser: {@link ChunkScanner} (the fast path) must never accept a body that
 * Jackson reads differently or rejects, must not look past the body's length (the bytes after
 * it are fuzzed too, as the SSE decoder's buffer holds older bytes there), and
 * {@link ChunkParser#parse} must end in the fields Jackson reads or in an {@link IOException}
 * with a message: no other exception, whatever the bytes.
 */
class ChunkJsonFuzzTest {

  @FuzzTest(maxDuration = "5s")
  @DictionaryFile(resourcePath = "/dev/gatlingllm/internal/client/chunk.dict")
  void scannerAgreesWithJackson(FuzzedDataProvider data) {
    check(data);
  }

  /** Entry point of Jazzer's command line (the long run). */
  public static void fuzzerTestOneInput(FuzzedDataProvider data) {
    check(data);
  }

  static void check(FuzzedDataProvider data) {
    byte[] after = data.consumeBytes(data.consumeInt(0, 16));
    byte[] body = data.consumeRemainingAsBytes();
    byte[] buffer = new byte[body.length + after.length];
    System.arraycopy(body, 0, buffer, 0, body.length);
    System.arraycopy(after, 0, buffer, body.length, after.length);
    int length = body.length;

    ChunkFields reference = new ChunkFields();
    IOException rejected = null;
    try {
      ChunkParser.parseWithJackson(body, length, reference); // exactly the body, nothing after
    } catch (IOException e) {
      rejected = e;
    }

    ChunkFields fast = new ChunkFields();
    if (ChunkScanner.scan(buffer, length, fast)) {
      if (rejected != null) {
        fail("the scanner took a body Jackson rejects (" + rejected.getMessage() + ")");
      }
      assertEquals(describe(reference), describe(fast), "scanner and Jackson disagree");
    }

    ChunkFields parsed = new ChunkFields();
    try {
      ChunkParser.parse(buffer, length, parsed);
      assertTrue(rejected == null, "parse accepted what Jackson rejects");
      assertEquals(describe(reference), describe(parsed));
    } catch (IOException e) {
      assertNotNull(rejected, "parse rejected what Jackson reads");
      String message = JsonErrors.describe(e);
      assertFalse(message.isBlank(), "an error without a message");
    }
  }

  static String describe(ChunkFields f) {
    return "choices=" + f.hasChoices + " text=" + f.text + " reasoning=" + f.reasoning
        + " finish=" + f.finishReason + " completion=" + f.completionTokens
        + " prompt=" + f.promptTokens + " error=" + f.error;
  }
}
