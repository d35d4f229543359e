package dev.gatlingllm.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * What a failed request's message says: the server's own words from the error body shapes
 * vLLM, OpenAI, FastAPI and proxies use, clipped and on one line, and JSON errors without
 * parser positions. These strings become rows of Gatling's errors table.
 */
class ServerErrorMessagesTest {

  private static String message(String body) {
    return ErrorBodies.message(body.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void vllmTopLevelMessage() {
    assertEquals("max_tokens is too large",
        message("{\"object\":\"error\",\"message\":\"max_tokens is too large\",\"code\":400}"));
  }

  @Test
  void openAiNestedErrorMessage() {
    assertEquals("Rate limit reached",
        message("{\"error\":{\"message\":\"Rate limit reached\",\"type\":\"requests\"}}"));
  }

  @Test
  void errorAsAPlainString() {
    assertEquals("model not loaded", message("{\"error\":\"model not loaded\"}"));
  }

  @Test
  void fastApiDetail() {
    assertEquals("Not Found", message("{\"detail\":\"Not Found\"}"));
  }

  @Test
  void jsonWithoutAKnownFieldFallsBackToTheText() {
    assertEquals("{\"status\": 503}", message("{\"status\": 503}"));
    // A non-text message is not a message either.
    assertEquals("{\"message\": 42}", message("{\"message\": 42}"));
  }

  @Test
  void plainTextIsStrippedAndPutOnOneLine() {
    assertEquals("<html> <body>502 Bad Gateway</body> </html>",
        message("\n  <html>\n  <body>502 Bad Gateway</body>\r\n</html>\n"));
  }

  @Test
  void emptyBodyIsSaidToBeEmpty() {
    assertEquals("(empty body)", ErrorBodies.message(new byte[0]));
  }

  @Test
  void longMessagesAreClippedAt300CharactersWithAnEllipsis() {
    String exact = "a".repeat(300);
    assertEquals(exact, message("{\"message\":\"" + exact + "\"}"), "300 fit");
    assertEquals("a".repeat(300) + "…", message("{\"message\":\"" + exact + "b\"}"));
    assertEquals("x".repeat(300) + "…", message("x".repeat(1000)));
  }

  @Test
  void eachLongMessageShapeIsClippedToo() {
    String longText = "m".repeat(400);
    String clipped = "m".repeat(300) + "…";
    assertEquals(clipped, message("{\"error\":{\"message\":\"" + longText + "\"}}"));
    assertEquals(clipped, message("{\"error\":\"" + longText + "\"}"));
    assertEquals(clipped, message("{\"detail\":\"" + longText + "\"}"));
  }

  @Test
  void jsonErrorKeepsTheParsersMessageWithoutItsLocation() {
    Exception e = org.junit.jupiter.api.Assertions.assertThrows(JsonParseException.class,
        () -> new ObjectMapper().readTree("{\"a\": x}"));
    String described = JsonErrors.describe(e);
    assertEquals("Unrecognized token 'x': was expecting (JSON String, Number, Array, Object or "
        + "token 'null', 'true' or 'false')", described);
  }

  @Test
  void jsonErrorWithoutAMessageIsNamedByItsKind() {
    // Jackson's getMessage() would say "N/A" plus a location; the kind says more.
    assertEquals("JsonParseException",
        JsonErrors.describe(new JsonParseException(null, (String) null)));
    assertEquals("IllegalStateException", JsonErrors.describe(new IllegalStateException()));
  }

  @Test
  void otherErrorsKeepTheirFirstLineOnly() {
    assertEquals("first line", JsonErrors.describe(new RuntimeException("  first line \nsecond")));
    assertEquals("", JsonErrors.describe(new RuntimeException("\nonly a second line")));
  }
}
