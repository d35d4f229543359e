package dev.gatlingllm.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ChunkParserTest {

  /**
   * Jackson's reading of {@code json}; the fast path ({@link ChunkParser#parse}, which tries
   * {@link ChunkScanner} first) must read it the same way.
   */
  private static ChunkFields parse(String json) throws IOException {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    ChunkFields fields = new ChunkFields();
    ChunkParser.parseWithJackson(bytes, bytes.length, fields);
    ChunkFields fast = new ChunkFields();
    ChunkParser.parse(bytes, bytes.length, fast);
    assertEquals(describe(fields), describe(fast), json);
    return fields;
  }

  private static String describe(ChunkFields f) {
    return f.hasChoices + "|" + f.text + "|" + f.reasoning + "|" + f.finishReason + "|"
        + f.completionTokens + "|" + f.promptTokens + "|" + f.cachedTokens + "|" + f.error;
  }

  @Test
  void theCachedPromptTokensAreReadFromTheUsageDetails() throws IOException {
    ChunkFields f = parse("{\"choices\":[],\"usage\":{\"prompt_tokens\":300,"
        + "\"total_tokens\":316,\"completion_tokens\":16,"
        + "\"prompt_tokens_details\":{\"audio_tokens\":null,\"cached_tokens\":256}}}");
    assertEquals(256, f.cachedTokens);
    assertEquals(300, f.promptTokens);
    // vLLM without --enable-prompt-tokens-details: details null, nothing reported
    ChunkFields none = parse("{\"choices\":[],\"usage\":{\"prompt_tokens\":3,"
        + "\"completion_tokens\":1,\"prompt_tokens_details\":null}}");
    assertEquals(-1, none.cachedTokens);
    assertEquals(3, none.promptTokens);
  }

  @Test
  void theReasoningCountIsReadFromTheCompletionDetailsAndNothingElseThere() throws IOException {
    byte[] bytes = ("{\"choices\":[],\"usage\":{\"prompt_tokens\":7,\"completion_tokens\":30,"
        + "\"completion_tokens_details\":{\"audio_tokens\":2,\"reasoning_tokens\":24,"
        + "\"accepted_prediction_tokens\":{\"x\":1}},\"total_tokens\":37}}")
        .getBytes(StandardCharsets.UTF_8);
    ChunkFields f = new ChunkFields();
    ChunkParser.parse(bytes, bytes.length, f);
    assertEquals(24, f.reasoningTokens);
    assertEquals(30, f.completionTokens, "the members after the details still read");
    assertEquals(7, f.promptTokens);
    // details that are null or not an object say nothing
    byte[] none = ("{\"choices\":[],\"usage\":{\"completion_tokens\":3,"
        + "\"completion_tokens_details\":null,\"prompt_tokens\":2}}")
        .getBytes(StandardCharsets.UTF_8);
    ChunkFields g = new ChunkFields();
    ChunkParser.parse(none, none.length, g);
    assertEquals(-1, g.reasoningTokens);
    assertEquals(3, g.completionTokens);
    assertEquals(2, g.promptTokens);
  }

  @Test
  void completionsChunkGivesTextOfFirstChoice() throws IOException {
    ChunkFields f = parse("{\"id\":\"cmpl-1\",\"object\":\"text_completion\",\"created\":1,"
        + "\"model\":\"m\",\"choices\":[{\"index\":0,\"text\":\" hi\",\"logprobs\":null,"
        + "\"finish_reason\":null,\"stop_reason\":null}],\"usage\":null}");
    assertTrue(f.hasChoices);
    assertEquals(" hi", f.text);
    assertEquals(-1, f.completionTokens);
    assertNull(f.error);
  }

  @Test
  void chatDeltaContentAndRoleOnlyChunk() throws IOException {
    ChunkFields content = parse("{\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
        + "\"delta\":{\"content\":\"Hel\"},\"logprobs\":null,\"finish_reason\":null}]}");
    assertTrue(content.hasChoices);
    assertEquals("Hel", content.text);

    ChunkFields role = parse("{\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\","
        + "\"content\":\"\"}}]}");
    assertTrue(role.hasChoices, "a role chunk has choices, so it counts as a content chunk");
    assertEquals("", role.text);
  }

  @Test
  void reasoningIsFlaggedButIsNotAnswerText() throws IOException {
    ChunkFields old = parse("{\"choices\":[{\"delta\":{\"reasoning_content\":\"think\"}}]}");
    assertTrue(old.hasChoices, "a reasoning chunk counts for TTFT and ITL");
    assertTrue(old.reasoning);
    assertNull(old.text, "vLLM's generated_text keeps content only");
    ChunkFields renamed = parse("{\"choices\":[{\"delta\":{\"reasoning\":\"hmm\","
        + "\"content\":null}}]}");
    assertTrue(renamed.reasoning, "vLLM's newer field name");
    assertNull(renamed.text);
    ChunkFields answer = parse("{\"choices\":[{\"delta\":{\"reasoning_content\":\"\","
        + "\"content\":\"Yes\"}}]}");
    assertFalse(answer.reasoning, "empty reasoning text is no reasoning");
    assertEquals("Yes", answer.text);
  }

  @Test
  void usageOnlyChunkHasNoChoices() throws IOException {
    ChunkFields f = parse("{\"id\":\"x\",\"choices\":[],\"usage\":{\"prompt_tokens\":12,"
        + "\"total_tokens\":20,\"completion_tokens\":8}}");
    assertFalse(f.hasChoices);
    assertNull(f.text);
    assertEquals(8, f.completionTokens);
    assertEquals(12, f.promptTokens);
  }

  @Test
  void emptyChoicesWithoutUsageIsNothing() throws IOException {
    ChunkFields f = parse("{\"choices\":[]}");
    assertFalse(f.hasChoices);
    assertEquals(-1, f.completionTokens);
  }

  @Test
  void nullTextAndNullUsageValuesAreIgnored() throws IOException {
    ChunkFields f = parse("{\"choices\":[{\"text\":null,\"finish_reason\":\"length\"}],"
        + "\"usage\":{\"completion_tokens\":null}}");
    assertTrue(f.hasChoices);
    assertNull(f.text);
    assertEquals("length", f.finishReason);
    assertEquals(-1, f.completionTokens);
  }

  @Test
  void onlyTheFirstChoiceIsRead() throws IOException {
    assertEquals("a", parse("{\"choices\":[{\"text\":\"a\"},{\"text\":\"b\"}]}").text);
  }

  @Test
  void nonStreamedChatMessage() throws IOException {
    ChunkFields f = parse("{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"ok\"}}],"
        + "\"usage\":{\"completion_tokens\":1,\"prompt_tokens\":3}}");
    assertEquals("ok", f.text);
    assertEquals(1, f.completionTokens);
  }

  @Test
  void inBandErrorObjectOrString() throws IOException {
    assertEquals("boom", parse("{\"error\":{\"object\":\"error\",\"message\":\"boom\",\"code\":500}}").error);
    assertEquals("bad", parse("{\"error\":\"bad\"}").error);
    assertEquals("error event", parse("{\"error\":{\"code\":1}}").error);
    assertNull(parse("{\"error\":null,\"choices\":[]}").error);
  }

  @Test
  void fieldsAreResetBetweenChunks() throws IOException {
    ChunkFields f = new ChunkFields();
    byte[] first = "{\"choices\":[{\"text\":\"a\"}],\"usage\":{\"completion_tokens\":3}}".getBytes();
    ChunkParser.parse(first, first.length, f);
    byte[] second = "{\"choices\":[]}".getBytes();
    ChunkParser.parse(second, second.length, f);
    assertFalse(f.hasChoices);
    assertNull(f.text);
    assertEquals(-1, f.completionTokens);
  }

  @Test
  void malformedJsonIsRejected() {
    for (String bad : new String[] {"{\"choices\":[", "not json", "[1,2]", "{\"a\":1} trailing", ""}) {
      assertThrows(IOException.class, () -> parse(bad), bad);
    }
  }

  @Test
  void aBodyTheFastPathGivesUpOnStillFailsWithJacksonsWords() {
    byte[] bytes = "{\"choices\":[{\"text\":\"a\"}]} trailing".getBytes(StandardCharsets.UTF_8);
    IOException e = assertThrows(IOException.class,
        () -> ChunkParser.parse(bytes, bytes.length, new ChunkFields()));
    assertTrue(e.getMessage().contains("trailing") || e.getMessage().contains("Unrecognized"),
        e.getMessage());
  }
}
