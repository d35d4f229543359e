package dev.gatlingllm.internal.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RunVerdictTest {

  @Test
  void aRunWithSuccessesIsOkAndExitsZero() {
    RunVerdict v = new RunVerdict(RunVerdict.Outcome.OK, 199, 200, "good", "ok",
        "m listed by the server", false);
    assertEquals(0, v.exitStatus());
    assertEquals("gatling-llm verdict: ok | 199 of 200 requests succeeded | client self-check: "
        + "good | server compliance: ok | model: m listed by the server",
        v.line());
  }

  @Test
  void aRunInWhichNoRequestSucceededExitsFour() {
    RunVerdict v = new RunVerdict(RunVerdict.Outcome.NO_REQUEST_SUCCEEDED, 0, 10, "good", "ok",
        "m not checked (x)", false);
    assertEquals(4, v.exitStatus());
    assertEquals("gatling-llm verdict: FAILED: no request succeeded | 0 of 10 requests "
        + "succeeded | client self-check: good | server compliance: ok | model: m not checked "
        + "(x) | exit status 4", v.line());
  }

  @Test
  void exitZeroKeepsVllmsStatusButTheLineStillSaysWhatHappened() {
    RunVerdict v = new RunVerdict(RunVerdict.Outcome.NO_REQUEST_SUCCEEDED, 0, 3, "good", "ok",
        "m NOT listed by the server", true);
    assertEquals(0, v.exitStatus());
    assertEquals("gatling-llm verdict: FAILED: no request succeeded (exit zero asked) | 0 of 3 "
        + "requests succeeded | client self-check: good | server compliance: ok | model: m NOT "
        + "listed by the server", v.line());
  }

  @Test
  void resultsNotWrittenExitThree() {
    assertEquals(3, new RunVerdict(RunVerdict.Outcome.RESULTS_NOT_WRITTEN, 5, 5, "good", "ok",
        "m", false).exitStatus());
  }

  @Test
  void anUntaggedNameIsServedAsItsDefaultTagAsOllamaDoes() {
    assertEquals(true, ServedModels.serves(java.util.Set.of("llama3:latest"), "llama3"));
    assertEquals(false, ServedModels.serves(java.util.Set.of("llama3:8b"), "llama3"));
    assertEquals(false, ServedModels.serves(java.util.Set.of("llama3:latest"), "llama3:8b"));
    assertEquals(true, ServedModels.serves(java.util.Set.of("a", "b"), "b"));
  }

  @Test
  void aRunStoppedAtTheServersFirstNonComplianceExitsFive() {
    RunVerdict v = new RunVerdict(RunVerdict.Outcome.STOPPED_NONCOMPLIANT, 1, 1, "good",
        "output_over_max_tokens 1/1", "m listed by the server", false);
    assertEquals(5, v.exitStatus());
    assertEquals("gatling-llm verdict: FAILED: stopped, the server did not do what was asked | "
        + "1 of 1 requests succeeded | client self-check: good | server compliance: "
        + "output_over_max_tokens 1/1 | model: m listed by the server | exit status 5", v.line());
  }
}
