package dev.gatlingllm.internal.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A sweep flags a run's client only when its self-check graded it distorted. */
class RunFlagsTest {

  private static Map<String, Object> result(Map<String, Object> selfCheck) {
    return Map.of("client_self_check", selfCheck, "completed", 10, "failed", 0);
  }

  @Test
  void onlyTheWorstGradeIsAFlag() {
    assertEquals(List.of(), RunFlags.of(result(Map.of("grade", "good", "warnings", List.of()))));
    assertEquals(List.of(), RunFlags.of(result(Map.of("grade", "fair",
        "warnings", List.of("fair: event-loop lag p99 4.00 ms, 33 % of the run's ITL p50")))));
    assertEquals(List.of("client: distorted: event-loop lag p99 10.00 ms"),
        RunFlags.of(result(Map.of("grade", "distorted",
            "warnings", List.of("distorted: event-loop lag p99 10.00 ms")))));
  }

  @Test
  void aResultFromBeforeTheGradesIsReadAsItWasMeant() {
    assertEquals(List.of("client: the client itself was a bottleneck (and 1 more)"),
        RunFlags.of(result(Map.of("warnings",
            List.of("the client itself was a bottleneck", "the JVM")))));
  }
}
