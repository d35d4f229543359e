package dev.gatlingllm.internal.protocol;

import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.internal.arrival.ArrivalSchedule;
import dev.gatlingllm.internal.report.RunInfo;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Set;

/**
 * What the result file says about a run: the protocol's settings and the arrival profile's
 * traffic keys. Kept apart from the run's state so that it can be checked without a run.
 */
final class ResultMetadata {

  /** The completions API's request kind. */
  private static final String COMPLETIONS = "completions";

  private ResultMetadata() {}

  /**
   * @param endpointTypes the request kinds the run used ({@code completions}, or the vLLM
   *                      backend name of the other kinds' APIs)
   * @param arrivalStart  the wall-clock start of the arrival schedule; null when no user was
   *                      paced
   * @param zone          the zone of the {@code rps_change_events} timestamps
   */
  static RunInfo of(LlmProtocol protocol, Set<String> endpointTypes, Instant arrivalStart,
      ZoneId zone) {
    // One kind of request: the endpoint_type its API gives (action.Api#endpointType). The
    // completions API is sent under several --backend names, so a completions run (and a mix
    // of kinds) is labelled with the run's own --backend, as vLLM labels it.
    String only = endpointTypes.size() == 1 ? endpointTypes.iterator().next() : COMPLETIONS;
    String endpointType = only.equals(COMPLETIONS) ? protocol.backend() : only;
    RunInfo.Builder info = RunInfo.builder(protocol.model())
        .backend(protocol.backend())
        .endpointType(endpointType)
        .tokenizerId(protocol.tokenizerId())
        .maxConcurrency(protocol.maxConcurrency().orElse(null));
    if (protocol.arrivals().isPresent()) {
      ArrivalProfile profile = protocol.arrivals().get();
      info = info.numPrompts(profile.numPrompts()).seed(profile.seed())
          .requestRate(profile.resultRequestRate());
      info = profile.replayTrace().isPresent()
          ? info.replay(profile.replayTrace().get().source(), profile.replayTimeScale())
          : info.burstiness(profile.burstiness());
      if (profile.rampUpStrategy().isPresent()) {
        info = info.rampUp(profile.rampUpStrategy().get().cliName(),
            profile.rampUpStartRps().getAsInt(), profile.rampUpEndRps().getAsInt());
        if (arrivalStart != null) {
          info = info.rpsChangeEvents(ArrivalSchedule.compute(profile)
              .rpsChangeEventsJson(arrivalStart, zone));
        }
      }
    }
    return info.build();
  }
}
