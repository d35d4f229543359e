package dev.gatlingllm.internal.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.protocol.ServerCompliance.Asked;
import dev.gatlingllm.internal.protocol.ServerCompliance.Check;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The live side of the server compliance checks: the first request to fail a check is said
 * at once, once per check and run, by the same test the end-of-run count uses; with the stop
 * on, it ends the run there.
 */
class ComplianceWatchTest {

  /** A chat request asking for at most 64 tokens, as {@code max_completion_tokens} only. */
  private static final Asked CHAT_64 = new Asked(64, 64, true, false, "m", true);
  private static final long ORIGIN = 7_000_000_000L;

  private final List<String> warnings = Collections.synchronizedList(new ArrayList<>());
  private final List<String> printed = new ArrayList<>();
  private final List<String> stops = new ArrayList<>();
  private final AtomicLong clock = new AtomicLong(ORIGIN);

  private static RequestRecord ok(String id, int prompt, int usagePrompt, int output) {
    return RequestRecord.builder("gen").startNanos(0).ttftNanos(1).latencyNanos(2).endNanos(3)
        .chunkMicros(new int[] {1, 2}).promptTokens(prompt).usagePromptTokens(usagePrompt)
        .outputTokens(output).httpStatus(200).success(true).generatedText("").requestId(id)
        .build();
  }

  private static RequestRecord failed(String id, int status, String error) {
    return RequestRecord.builder("gen").startNanos(0).endNanos(3).httpStatus(status)
        .success(false).error(error).generatedText("").requestId(id).build();
  }

  /** A compliance check that says its findings into {@link #warnings}, at once. */
  private ServerCompliance watched(RunStop stop) {
    ServerCompliance c = new ServerCompliance();
    c.watch(new ComplianceWatch(stop, Runnable::run, warnings::add, printed::add));
    return c;
  }

  @Test
  void theFirstRequestOverItsLimitIsSaidOnceNamingItAndWhatItMeans() {
    ServerCompliance c = watched(null);
    c.record(CHAT_64, ok("r0", -1, -1, 64));
    assertEquals(List.of(), warnings, "64 of 64 asked: compliant");
    c.record(CHAT_64, ok("r1", -1, -1, 78_280));
    assertEquals(List.of(ComplianceWatch.PREFIX + "request r1 asked for at most 64 output "
        + "tokens and got 78280: the server ignores max_completion_tokens, so output lengths "
        + "and throughput are the server's, not the dataset's"), warnings);
    for (int i = 2; i < 50; i++) {
      c.record(CHAT_64, ok("r" + i, -1, -1, 1_000 + i));
    }
    assertEquals(1, warnings.size(), "once per run, never per request: " + warnings);
    assertEquals(49, c.report().violations(Check.OUTPUT_OVER_MAX_TOKENS),
        "the end-of-run count still counts every request");
  }

  @Test
  void maxTokensSentSaysMaxTokens() {
    ServerCompliance c = watched(null);
    c.record(new Asked(16, 16, false, false, null, false), ok("a", -1, -1, 17));
    assertTrue(warnings.get(0).contains("got 17: the server ignores max_tokens,"), warnings.get(0));
  }

  @Test
  void compliantResponsesSayNothing() {
    ServerCompliance c = watched(null);
    c.servedModels(Set.of("m"));
    Asked ignoreEos = new Asked(16, 16, false, true, "m", false);
    for (int i = 0; i < 20; i++) {
      c.record(ignoreEos, ok("r" + i, 30, 30, 16));
      c.record(CHAT_64, ok("c" + i, 30, 45, 10)); // a chat template adds prompt tokens
    }
    // failures that say nothing of the server's compliance
    c.record(CHAT_64, failed("e1", 500, "HTTP 500: boom"));
    c.record(CHAT_64, failed("e2", 404, "HTTP 404: Not Found")); // a wrong path, not a model
    c.record(CHAT_64, failed("e3", 0, "connection refused"));
    assertEquals(List.of(), warnings);
    assertTrue(c.report().clean());
  }

  @Test
  void thePromptToleranceOfTheEndOfRunCheckHolds() {
    ServerCompliance c = watched(null);
    Asked completions = new Asked(-1, -1, false, false, null, false);
    // 100 prompt tokens: a tolerance of 10
    c.record(completions, ok("in", 100, 90, 5));
    c.record(completions, ok("in2", 100, 110, 5));
    assertEquals(List.of(), warnings, "within the tolerance");
    c.record(completions, ok("off", 100, 89, 5));
    assertEquals(1, warnings.size());
    assertTrue(warnings.get(0).startsWith(ComplianceWatch.PREFIX + "request off had 100 prompt"
        + " tokens and the server counted 89 (more than 10 apart)"), warnings.get(0));
  }

  @Test
  void eachKindIsSaidOnceAtItsOwnFirstRequest() {
    ServerCompliance c = watched(null);
    c.servedModels(Set.of("served"));
    Asked other = new Asked(64, 64, true, true, "typo", true);
    c.record(other, ok("a", -1, -1, 64)); // a model not listed
    c.record(other, ok("b", -1, -1, -1)); // ... and no usage
    c.record(other, ok("c", -1, -1, 10)); // ... and short of ignore_eos
    c.record(other, ok("d", -1, -1, 99)); // ... and over the limit
    c.record(other, ok("e", -1, -1, -1));
    c.record(other, ok("f", -1, -1, 99));
    c.record(other, failed("g", 404, "HTTP 404: The model `typo` does not exist."));
    c.record(other, failed("h", 404, "HTTP 404: The model `typo` does not exist."));
    assertEquals(5, warnings.size(), warnings.toString());
    assertTrue(warnings.get(0).contains("request a asked for model 'typo', which the server's "
        + "/v1/models does not list (served)"), warnings.get(0));
    assertTrue(warnings.get(1).contains("request b asked for usage and its answer carried "
        + "none"), warnings.get(1));
    assertTrue(warnings.get(2).contains("request c sent ignore_eos with 64 max tokens and got "
        + "10"), warnings.get(2));
    assertTrue(warnings.get(3).contains("request d asked for at most 64"), warnings.get(3));
    assertTrue(warnings.get(4).contains("request g got 404 for model 'typo' (HTTP 404: The "
        + "model `typo` does not exist.): the server does not serve it"), warnings.get(4));
    ServerComplianceReport r = c.report();
    assertEquals(2, r.violations(Check.MODEL_NOT_FOUND));
    assertEquals(2, r.violations(Check.USAGE_MISSING));
    assertTrue(r.warnings().contains("the server does not serve the model asked for: 2 of 8 "
        + "requests (e.g. request g, h) got 404 naming the model, so they failed; use --model"
        + " (or --served-model-name) with a name its /v1/models lists"), r.warnings().toString());
  }

  @Test
  void usageWithoutAnOutputCountIsNotMissing() {
    ServerCompliance c = watched(null);
    c.record(CHAT_64, ok("a", 5, 5, -1));
    assertEquals(List.of(), warnings);
    assertEquals(1, c.report().checked(Check.USAGE_MISSING));
  }

  @Test
  void manyLoopsFindingAtOnceSayItOnce() throws InterruptedException {
    ServerCompliance c = watched(null);
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> loops = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      int loop = t;
      Thread thread = new Thread(() -> {
        try {
          go.await();
        } catch (InterruptedException e) {
          return;
        }
        for (int i = 0; i < 200; i++) {
          c.record(CHAT_64, ok(loop + "-" + i, -1, -1, 65));
        }
      });
      thread.start();
      loops.add(thread);
    }
    go.countDown();
    for (Thread thread : loops) {
      thread.join();
    }
    assertEquals(1, warnings.size(), warnings.toString());
    assertEquals(1_600, c.report().violations(Check.OUTPUT_OVER_MAX_TOKENS));
  }

  @Test
  void theLineIsWrittenOffTheRequestsThread() {
    List<Runnable> queued = new ArrayList<>();
    ServerCompliance c = new ServerCompliance();
    c.watch(new ComplianceWatch(null, queued::add, warnings::add, printed::add));
    c.record(CHAT_64, ok("r1", -1, -1, 65));
    assertEquals(List.of(), warnings, "nothing written on the event loop");
    assertEquals(1, queued.size());
    queued.get(0).run();
    assertEquals(1, warnings.size());
  }

  @Test
  void theStopEndsTheRunAtTheFirstFindingAndSaysWhenAndWhy() {
    RunStop stop = new RunStop(stops::add, clock::get);
    ServerCompliance c = watched(stop);
    RunStop.Ticket running = stop.sending();
    c.record(CHAT_64, ok("r0", -1, -1, 64));
    assertTrue(stops.isEmpty(), "compliant: the run goes on");
    assertNotSame(RunStop.STOPPED, stop.sending());
    clock.set(ORIGIN + 1_500_000_000L);
    c.record(CHAT_64, ok("r1", -1, -1, 65));
    assertEquals(List.of(ComplianceWatch.FLAG + ": output_over_max_tokens at request r1"), stops);
    assertSame(RunStop.STOPPED, stop.sending(), "nothing is sent after the stop");
    assertEquals(ComplianceWatch.REFUSAL, stop.refusal());
    assertEquals(1, warnings.size());
    assertEquals(List.of("gatling-llm: stopping the run (--stop-on-server-noncompliance): "
        + "output_over_max_tokens at request r1; the results are written from the requests "
        + "finished so far, 2 in flight are left"), printed);
    // another kind later: said, but the run is stopped once
    c.record(new Asked(16, 16, false, false, "m", false), ok("r2", -1, -1, -1));
    assertEquals(2, warnings.size());
    assertEquals(1, stops.size());
    assertTrue(stop.ended(running), "ended before the results: recorded");

    ServerComplianceReport r = c.report(ORIGIN + 500_000_000L);
    assertTrue(r.stoppedEarly());
    @SuppressWarnings("unchecked")
    Map<String, Object> json = (Map<String, Object>) r.toJson().get("stop");
    assertEquals(true, r.toJson().get("stopped_early"));
    assertEquals(1.0, (Double) json.get("at_s"), 1e-9);
    assertEquals("output_over_max_tokens", json.get("check"));
    assertEquals("r1", json.get("request_id"));
    assertEquals(2, json.get("requests_in_flight"));
    assertTrue(((String) json.get("reason")).startsWith("request r1 asked for at most 64"));
    assertTrue(r.consoleText().contains("Stopped early (--stop-on-server-noncompliance): "
        + "output_over_max_tokens at request r1\n"), r.consoleText());
  }

  @Test
  void aRunAlreadyStoppedOrWrittenIsNotStoppedAgain() {
    RunStop stop = new RunStop(stops::add, clock::get);
    assertTrue(stop.stop("run stopped: over-saturated", "--stop-on-over-saturation: ..."));
    ServerCompliance c = watched(stop);
    c.record(CHAT_64, ok("r1", -1, -1, 65));
    assertEquals(1, stops.size(), "the first stop wins");
    assertEquals(1, warnings.size(), "the finding is still said");
    assertTrue(printed.isEmpty(), "no stop line for a stop that did not happen");
    assertFalse(c.report().stoppedEarly());

    RunStop closed = new RunStop(stops::add, clock::get);
    closed.close();
    assertFalse(closed.stop(ComplianceWatch.REFUSAL, "late"), "results written: too late");
  }

  @Test
  void withoutTheStopTheJsonSaysSo() {
    ServerCompliance c = watched(null);
    c.record(CHAT_64, ok("r1", -1, -1, 65));
    Map<String, Object> json = c.report().toJson();
    assertEquals(false, json.get("stopped_early"));
    assertNull(json.get("stop"));
    assertTrue(json.containsKey("stop"));
  }
}
