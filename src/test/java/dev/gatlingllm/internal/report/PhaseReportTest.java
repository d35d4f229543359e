package dev.gatlingllm.internal.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the server aborted while the client cancelled: one server, or several replicas. */
class PhaseReportTest {

  @Test
  void oneServersAbortsAreItsCountersGrowth() {
    assertEquals(4L, PhaseReport.serverAborted(Map.of("requests_aborted",
        List.of(10.0, 12.0, 14.0))));
    assertNull(PhaseReport.serverAborted(Map.of("kv_cache_usage", List.of(0.5))));
  }

  @Test
  void eachReplicaAbortsOnlyItsOwnRequestsSoTheirGrowthsAreAdded() {
    // a sweep's second run: the counters start where the first run left them (10 each)
    Object perUrl = List.of(Map.of("requests_aborted", List.of(10.0, 14.0)),
        Map.of("requests_aborted", List.of(10.0, 13.0, 16.0)));
    assertEquals(4L + 6L, PhaseReport.serverAborted(perUrl));
    // a replica without the counter: no sum, as it would not be the server's
    assertNull(PhaseReport.serverAborted(List.of(Map.of("requests_aborted", List.of(1.0, 3.0)),
        Map.of())));
  }
}
