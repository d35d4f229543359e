package dev.gatlingllm.internal.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.internal.arrival.ArrivalSchedule;
import dev.gatlingllm.arrival.ArrivalTrace;
import dev.gatlingllm.internal.metrics.RecordStore;
import dev.gatlingllm.options.ResultOptions;
import dev.gatlingllm.protocol.LlmProtocolBuilder;
import dev.gatlingllm.protocol.ProtocolTestSupport;
import dev.gatlingllm.report.ReportOutcome;
import dev.gatlingllm.internal.report.RunInfo;
import dev.gatlingllm.internal.report.RunReporter;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The arrival profile's keys as they land in the result JSON of a run. */
class ResultMetadataTest {

  private static final Instant WHOLE_SECOND = Instant.parse("2025-01-31T14:05:09Z");

  @TempDir
  Path dir;

  private static LlmProtocol protocol(ArrivalProfile profile) {
    return ProtocolTestSupport.withEnvironment(new LlmProtocolBuilder(), Map.of())
        .baseUrl("http://127.0.0.1:8000").model("org/model").arrivals(profile).protocol();
  }

  private JsonNode resultJson(RunInfo run) throws IOException {
    try (RecordStore empty = new RecordStore()) {
      ReportOutcome out = RunReporter.report(run, empty,
          ResultOptions.builder().printSummary(false).resultFilename("r.json").build(), dir,
          null);
      assertTrue(out.ok(), out.error());
      return new ObjectMapper().readTree(out.resultFile().toFile());
    }
  }

  @Test
  void rpsChangeEventsAreStampedLikePythonsIsoformat() throws IOException {
    ArrivalProfile ramp = ArrivalProfile.builder().numPrompts(20)
        .rampUpStrategy("linear").rampUpStartRps(1).rampUpEndRps(10).build();
    RunInfo run = ResultMetadata.of(protocol(ramp), Set.of("completions"), WHOLE_SECOND,
        ZoneOffset.UTC);

    JsonNode events = resultJson(run).get("rps_change_events");
    // The start rate is stamped at the start itself: a whole second, which Python's
    // isoformat() writes without a fraction.
    assertEquals("{\"rps\":1,\"timestamp\":\"2025-01-31T14:05:09\"}", events.get(0).toString());
    assertEquals(ArrivalSchedule.compute(ramp)
        .rpsChangeEventsJson(WHOLE_SECOND, ZoneOffset.UTC).size(),
        events.size());
    for (JsonNode e : events) {
      assertTrue(e.get("timestamp").asText().matches(
          "2025-01-31T14:05:\\d\\d(\\.\\d{6})?"), e.toString());
    }
  }

  @Test
  void replayWritesNullBurstinessAndTheTrace() throws IOException {
    ArrivalProfile replay = ArrivalProfile.builder()
        .replay(ArrivalTrace.ofSeconds(0, 0.5, 0.75, 2)).replayTimeScale(0.5).build();
    RunInfo run = ResultMetadata.of(protocol(replay), Set.of("completions"), WHOLE_SECOND,
        ZoneOffset.UTC);

    JsonNode doc = resultJson(run);
    assertTrue(doc.get("burstiness").isNull(), "a replay has no burstiness: " + doc);
    // 4 arrivals over the 1 s the scaled trace spans
    assertEquals(4.0, doc.get("request_rate").asDouble(), 1e-9);
    assertEquals("{\"source\":\"of 4 timestamps\",\"time_scale\":0.5}",
        doc.get("arrival_replay").toString());
  }
}
