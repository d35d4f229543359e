package dev.gatlingllm.internal.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.protocol.ServerCompliance.Asked;
import dev.gatlingllm.internal.protocol.ServerCompliance.Check;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ServerComplianceTest {

  private static final Asked CHAT_64 = new Asked(64, 64, true, false, "m", true);

  private static RequestRecord record(String id, int prompt, int usagePrompt, int output,
      boolean success) {
    return RequestRecord.builder("gen").startNanos(0).ttftNanos(1).latencyNanos(2).endNanos(3)
        .chunkMicros(new int[] {1, 2}).promptTokens(prompt).usagePromptTokens(usagePrompt)
        .outputTokens(output).httpStatus(success ? 200 : 500).success(success)
        .error(success ? null : "HTTP 500").generatedText("").requestId(id).build();
  }

  @Test
  void countsOutputOverTheLimitAndKeepsTheFirstThreeIds() {
    ServerCompliance c = new ServerCompliance();
    c.record(CHAT_64, record("r0", -1, -1, 64, true));
    for (int i = 1; i <= 5; i++) {
      c.record(CHAT_64, record("r" + i, -1, -1, 853 + i, true));
    }
    c.record(CHAT_64, record("failed", -1, -1, 900, false)); // failed: not checked
    c.record(CHAT_64, record("no-count", 5, 5, -1, true)); // no output count: not compared
    ServerComplianceReport r = c.report();
    assertEquals(6, r.checked(Check.OUTPUT_OVER_MAX_TOKENS));
    assertEquals(0, r.violations(Check.USAGE_MISSING), "usage came, without an output count");
    assertEquals(5, r.violations(Check.OUTPUT_OVER_MAX_TOKENS));
    assertEquals(0, r.checked(Check.OUTPUT_UNDER_IGNORE_EOS), "ignore_eos not sent");
    assertEquals(0, r.checked(Check.MODEL_NOT_LISTED), "no model list");
    @SuppressWarnings("unchecked")
    Map<String, Object> over = (Map<String, Object>) ((Map<String, Object>)
        r.toJson().get("checks")).get("output_over_max_tokens");
    assertEquals(List.of("r1", "r2", "r3"), over.get("example_request_ids"));
    assertEquals(List.of("the server ignores max_completion_tokens: 5 of 6 requests (e.g. request"
        + " r1, r2, r3) got more output tokens than asked, so output lengths and throughput are"
        + " the server's, not the dataset's; use --backend openai (completions, which sends"
        + " max_tokens) or send max_tokens too via --extra-body (extraBody in a simulation)"),
        r.warnings());
  }

  @Test
  void overMaxTokensWithMaxTokensSentSaysMaxTokens() {
    ServerCompliance c = new ServerCompliance();
    c.record(new Asked(16, 16, false, false, null, false), record("a", -1, -1, 17, true));
    assertTrue(c.report().warnings().get(0).startsWith("the server ignores max_tokens: 1 of 1"));
  }

  @Test
  void ignoreEosWantsTheSmallerLimitReached() {
    ServerCompliance c = new ServerCompliance();
    // max_tokens 32 and max_completion_tokens 64: 32 is enough, 64 is not too many
    Asked both = new Asked(64, 32, false, true, null, true);
    c.record(both, record("a", -1, -1, 32, true));
    c.record(both, record("b", -1, -1, 64, true));
    c.record(both, record("c", -1, -1, 31, true));
    ServerComplianceReport r = c.report();
    assertEquals(3, r.checked(Check.OUTPUT_UNDER_IGNORE_EOS));
    assertEquals(1, r.violations(Check.OUTPUT_UNDER_IGNORE_EOS));
    assertEquals(0, r.violations(Check.OUTPUT_OVER_MAX_TOKENS));
  }

  @Test
  void modelIsCheckedOnlyAgainstAList() {
    ServerCompliance c = new ServerCompliance();
    Asked typo = new Asked(-1, -1, false, false, "lama", false);
    c.record(typo, record("before", -1, -1, 5, true));
    c.servedModels(Set.of("llama", "other"));
    c.record(typo, record("after", -1, -1, 5, true));
    c.record(new Asked(-1, -1, false, false, "llama", false), record("ok", -1, -1, 5, true));
    ServerComplianceReport r = c.report();
    assertEquals(2, r.checked(Check.MODEL_NOT_LISTED));
    assertEquals(1, r.violations(Check.MODEL_NOT_LISTED));
    assertTrue(r.warnings().get(0).startsWith("the server answers for a model its /v1/models"
        + " does not list (llama, other): 1 of 2 requests (e.g. request after)"), r.warnings().get(0));
  }

  @Test
  void promptToleranceIsEightTokensOrTenPercentWhicheverIsLarger() {
    assertEquals(8, ServerCompliance.promptTolerance(3));
    assertEquals(8, ServerCompliance.promptTolerance(80));
    assertEquals(9, ServerCompliance.promptTolerance(81)); // 8.1 rounds up
    assertEquals(100, ServerCompliance.promptTolerance(1000));
    ServerCompliance c = new ServerCompliance();
    Asked completions = new Asked(-1, -1, false, false, null, false);
    c.record(completions, record("a", 100, 90, -1, true)); // 10 fewer: within 10
    c.record(completions, record("b", 100, 111, -1, true)); // 11 more: over
    c.record(completions, record("c", 30, 20, -1, true)); // cut by 10 > 8
    c.record(completions, record("d", -1, 20, -1, true)); // no own count: not checked
    Asked chat = new Asked(-1, -1, false, false, null, true);
    c.record(chat, record("e", 100, 140, -1, true)); // a chat template adds tokens: fine
    c.record(chat, record("f", 100, 89, -1, true)); // 11 fewer: cut
    ServerComplianceReport r = c.report();
    assertEquals(5, r.checked(Check.PROMPT_TOKENS_MISMATCH));
    assertEquals(3, r.violations(Check.PROMPT_TOKENS_MISMATCH));
  }

  @Test
  void promptsCountedWithAnotherTokenizerAreNotCompared() {
    ServerCompliance c = new ServerCompliance("counted with GPT-2");
    c.record(new Asked(-1, -1, false, false, null, false), record("a", 100, 60, -1, true));
    ServerComplianceReport r = c.report();
    assertEquals(0, r.checked(Check.PROMPT_TOKENS_MISMATCH));
    assertTrue(r.clean());
    assertEquals("counted with GPT-2", r.toJson().get("prompt_check_off"));
  }

  @Test
  void aCleanRunHasNoWarningAndPrintsNothing() {
    ServerCompliance c = new ServerCompliance();
    c.servedModels(Set.of("m"));
    c.record(new Asked(16, 16, false, true, "m", false), record("a", 3, 3, 16, true));
    ServerComplianceReport r = c.report();
    assertTrue(r.clean());
    assertEquals(List.of(), r.warnings());
    assertEquals("", r.consoleText());
    assertEquals(List.of(), r.toJson().get("warnings"));
    assertEquals(List.of("m"), r.toJson().get("models_listed"));
  }

  @Test
  void consoleBlockInVllmsStyle() {
    ServerCompliance c = new ServerCompliance();
    c.record(CHAT_64, record("r1", -1, -1, 65, true));
    String text = c.report().consoleText();
    String[] lines = text.split("\n");
    assertEquals("---------Server compliance (gatling-llm)----------", lines[0]);
    assertEquals("Output over max tokens:                  1 of 1    ", lines[1]);
    assertEquals("Model not listed by /v1/models:          0 of 0    ", lines[3]);
    assertEquals("Usage missing though asked for:          0 of 1    ", lines[5]);
    assertEquals("Model not found (404):                   0 of 1    ", lines[6]);
    assertTrue(lines[7].startsWith("Warning: the server ignores max_completion_tokens"));
    assertEquals("=".repeat(50), lines[8]);
    assertFalse(c.report().clean());
  }

  @Test
  void modelListParsing() {
    assertEquals(Optional.of(Set.of("a", "b")), ServedModels.parse(
        "{\"object\":\"list\",\"data\":[{\"id\":\"a\"},{\"id\":\"b\"}]}"
            .getBytes(StandardCharsets.UTF_8)));
    assertEquals(Optional.empty(), ServedModels.parse("<html>".getBytes(StandardCharsets.UTF_8)));
    assertEquals(Optional.empty(), ServedModels.parse("{\"data\":[]}".getBytes(StandardCharsets.UTF_8)));
    assertNull(new ServerCompliance().report().toJson().get("models_listed"));
  }
}
