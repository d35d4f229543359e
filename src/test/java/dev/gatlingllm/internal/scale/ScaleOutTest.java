package dev.gatlingllm.internal.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ScaleOutTest {

  @Test
  void nothingSetIsAnOrdinaryRun() {
    ScaleOut s = ScaleOut.from(Map.of(), Map.of());
    assertFalse(s.requested());
    assertEquals(InjectorShare.WHOLE, s.share());
    assertEquals("date", s.clock());
    assertEquals(Optional.empty(), s.startAt());
    assertEquals(DateHeaderClock.DEFAULT_PROBES, s.probes());
  }

  @Test
  void readsPropertiesThenEnvironment() {
    ScaleOut s = ScaleOut.from(Map.of("llm.injector", "0/1", "llm.clockOffset", "local"),
        Map.of("LLM_START_AT", "2026-11-23T06:30:00Z", "LLM_CLOCK_PROBES", "5"));
    assertTrue(s.requested(), "an explicit 0/1 records what the merge needs");
    assertEquals(Instant.parse("2026-11-23T06:30:00Z"), s.startAt().orElseThrow());
    assertEquals("local", s.clock());
    assertEquals(5, s.probes());
    assertTrue(ScaleOut.from(Map.of("llm.startAt", "2026-11-23T06:30:00.250Z"), Map.of())
        .requested());
    assertTrue(ScaleOut.from(Map.of("llm.injectors", "2"), Map.of("JOB_COMPLETION_INDEX", "0"))
        .requested());
    assertEquals("-2.5", ScaleOut.from(Map.of("llm.clockOffset", "-2.5"), Map.of()).clock());
  }

  @Test
  void badValuesAreNamed() {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> ScaleOut.from(
        Map.of("llm.startAt", "tomorrow"), Map.of())).getMessage().contains("ISO-8601"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> ScaleOut.from(
        Map.of("llm.clockOffset", "ntp"), Map.of())).getMessage().contains("'ntp'"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> ScaleOut.from(
        Map.of("llm.clockProbes", "0"), Map.of())).getMessage().contains(">= 1"));
    assertThrows(IllegalArgumentException.class, () -> ScaleOut.from(
        Map.of("llm.clockProbes", "many"), Map.of()));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> ScaleOut.from(
        Map.of("llm.startAt", "2026-11-23T06:30:00Z", "llm.startBarrier", "/tmp/b"), Map.of()))
        .getMessage().contains("not both"));
  }

  @Test
  void aBarrierFolderAsksForScaleOut() {
    ScaleOut s = ScaleOut.from(Map.of(), Map.of("LLM_START_BARRIER", "/shared/barrier"));
    assertTrue(s.requested());
    assertEquals(java.nio.file.Path.of("/shared/barrier"), s.barrier().orElseThrow());
  }

  @Test
  void digestsDependOnEveryPartAndItsPlace() {
    String ab = ScaleOut.digest(List.of("a", "b"));
    assertEquals(ab, ScaleOut.digest(List.of("a", "b")));
    assertNotEquals(ab, ScaleOut.digest(List.of("b", "a")));
    assertNotEquals(ab, ScaleOut.digest(List.of("a\nb")));
    // python3 -c "import hashlib; print(hashlib.sha256(b'1:a\n1:b\n').hexdigest())"
    assertEquals("700dfd192c1fa8813a20119f60fac69bdaf8fbd38520b4fa5b0a21d00621d59b", ab);
  }

  @Test
  void factsSurviveTheirJson() {
    InjectorFacts f = new InjectorFacts(new InjectorShare(1, 3), "abc",
        Instant.parse("2026-11-23T06:30:00Z"), new ClockOffset("date-header", -1234567, 400, 9),
        123_456_789L, 1_800_000_000_000_000_000L);
    assertEquals(f, InjectorFacts.fromJson(f.toJson()));
    assertEquals(1_800_000_000_000_000_000L - 123_456_789L - 1234567, f.toReferenceEpoch());
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> InjectorFacts.fromJson(Map.of("index", 1))).getMessage().contains("cannot be read"));
    assertEquals("-1.235 ms ± 0.000 ms (date-header, 9 probes)", f.clock().describe());
    assertEquals("+0.000 ms ± unknown (local)", ClockOffset.local().describe());
    assertEquals(new ClockOffset("given", 5_000_000, 0, 0), ClockOffset.given(5_000_000));
  }

  @Test
  void theInjectorsOfOneBenchmarkShareAKeyThatAnotherBenchmarkLacks() {
    String first = ScaleOut.from(Map.of("llm.injector", "0/3"),
        Map.of("LLM_START_BARRIER", "/shared/run-001/barrier")).sharedKey();
    String third = ScaleOut.from(Map.of("llm.injector", "2/3"),
        Map.of("LLM_START_BARRIER", "/shared/run-001/barrier")).sharedKey();
    String nextRun = ScaleOut.from(Map.of("llm.injector", "0/3"),
        Map.of("LLM_START_BARRIER", "/shared/run-002/barrier")).sharedKey();
    String twoInjectors = ScaleOut.from(Map.of("llm.injector", "0/2"),
        Map.of("LLM_START_BARRIER", "/shared/run-001/barrier")).sharedKey();
    assertEquals(first, third, "the injector's index is not part of it");
    assertTrue(first.matches("[0-9a-f]{8}"), first);
    assertNotEquals(first, nextRun);
    assertNotEquals(first, twoInjectors);
  }
}
