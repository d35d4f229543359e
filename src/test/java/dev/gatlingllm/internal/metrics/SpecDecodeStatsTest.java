package dev.gatlingllm.internal.metrics;

import dev.gatlingllm.internal.servermetrics.SpecDecodeCounters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * vLLM's speculative-decoding figures from two readings of its counters, as its
 * {@code bench serve} works them out; the numbers below are worked by hand.
 */
class SpecDecodeStatsTest {

  /** Two engines (data parallel) each with its counters: they add up. */
  private static final String BEFORE = """
      # HELP vllm:spec_decode_num_drafts_total Number of spec decoding drafts.
      # TYPE vllm:spec_decode_num_drafts_total counter
      vllm:spec_decode_num_drafts_total{engine="0",model_name="m"} 100.0
      vllm:spec_decode_num_drafts_total{engine="1",model_name="m"} 20.0
      vllm:spec_decode_num_draft_tokens_total{engine="0",model_name="m"} 300.0
      vllm:spec_decode_num_draft_tokens_total{engine="1",model_name="m"} 60.0
      vllm:spec_decode_num_accepted_tokens_total{engine="0",model_name="m"} 150.0
      vllm:spec_decode_num_accepted_tokens_total{engine="1",model_name="m"} 30.0
      vllm:spec_decode_num_accepted_tokens_per_pos_total{engine="0",model_name="m",position="0"} 80.0
      vllm:spec_decode_num_accepted_tokens_per_pos_total{engine="1",model_name="m",position="0"} 10.0
      vllm:spec_decode_num_accepted_tokens_per_pos_total{engine="0",model_name="m",position="1"} 50.0
      vllm:spec_decode_num_accepted_tokens_per_pos_total{engine="0",model_name="m",position="2"} 40.0
      """;

  /**
   * After the run: 40 more drafts (120 to 160), 120 more proposed tokens (360 to 480), 70
   * more accepted (180 to 250), by position 36, 22 and 12 more.
   */
  private static final String AFTER = """
      vllm:spec_decode_num_drafts_total{engine="0",model_name="m"} 130.0
      vllm:spec_decode_num_drafts_total{engine="1",model_name="m"} 30.0
      vllm:spec_decode_num_draft_tokens_total{engine="0",model_name="m"} 390.0
      vllm:spec_decode_num_draft_tokens_total{engine="1",model_name="m"} 90.0
      vllm:spec_decode_num_accepted_tokens_total{engine="0",model_name="m"} 200.0
      vllm:spec_decode_num_accepted_tokens_total{engine="1",model_name="m"} 50.0
      vllm:spec_decode_num_accepted_tokens_per_pos_total{engine="0",model_name="m",position="0"} 110.0
      vllm:spec_decode_num_accepted_tokens_per_pos_total{engine="1",model_name="m",position="0"} 16.0
      vllm:spec_decode_num_accepted_tokens_per_pos_total{engine="0",model_name="m",position="1"} 72.0
      vllm:spec_decode_num_accepted_tokens_per_pos_total{engine="0",model_name="m",position="2"} 52.0
      """;

  /** The counters of an exposition, as the run hands them over. */
  private static Optional<SpecDecodeStats.Counts> counts(String exposition) {
    return SpecDecodeCounters.of(exposition).map(c -> new SpecDecodeStats.Counts(c.drafts(),
        c.draftTokens(), c.accepted(), c.acceptedByPos()));
  }

  @Test
  void theCountersAreSummedOverEnginesAndSplitByPosition() {
    SpecDecodeStats.Counts c = counts(BEFORE).orElseThrow();
    assertEquals(120, c.drafts());
    assertEquals(360, c.draftTokens());
    assertEquals(180, c.accepted());
    assertEquals(Map.of(0, 90.0, 1, 50.0, 2, 40.0), c.acceptedByPos());
  }

  @Test
  void theRunsFiguresAreTheDifferences() {
    SpecDecodeStats s = SpecDecodeStats.between(counts(BEFORE),
        counts(AFTER)).orElseThrow();
    assertEquals(40, s.drafts());
    assertEquals(120, s.draftTokens());
    assertEquals(70, s.accepted());
    // 70 / 120 accepted; 1 + 70 / 40 tokens a step; (126 - 90) / 40, 22 / 40, 12 / 40
    assertEquals(58.333333333333336, s.acceptanceRatePercent(), 1e-12);
    assertEquals(2.75, s.acceptanceLength(), 1e-12);
    assertEquals(List.of(0.9, 0.55, 0.3), s.perPosition());
    Map<String, Object> json = s.toJson();
    assertEquals(List.of("spec_decode_acceptance_rate", "spec_decode_acceptance_length",
        "spec_decode_num_drafts", "spec_decode_draft_tokens", "spec_decode_accepted_tokens",
        "spec_decode_per_position_acceptance_rates"), List.copyOf(json.keySet()));
  }

  @Test
  void theConsoleSectionIsVllms() {
    SpecDecodeStats s = SpecDecodeStats.between(counts(BEFORE),
        counts(AFTER)).orElseThrow();
    String text = SpecDecodeStats.console(s.toJson());
    assertEquals("---------------Speculative Decoding---------------\n"
        + "Acceptance rate (%):                     58.33     \n"
        + "Acceptance length:                       2.75      \n"
        + "Drafts:                                  40        \n"
        + "Draft tokens:                            120       \n"
        + "Accepted tokens:                         70        \n"
        + "Per-position acceptance (%):\n"
        + "  Position 0:                            90.00     \n"
        + "  Position 1:                            55.00     \n"
        + "  Position 2:                            30.00     \n",
        text.replace(System.lineSeparator(), "\n"));
    assertEquals("", SpecDecodeStats.console(Map.of("completed", 3)));
  }

  @Test
  void noFigureWithoutSpeculativeDecodingOrWithoutAProposal() {
    assertTrue(counts("vllm:num_requests_running{model_name=\"m\"} 1\n").isEmpty());
    assertTrue(SpecDecodeStats.between(Optional.empty(), counts(AFTER)).isEmpty());
    // a run that proposed nothing (the counters did not move): no figure, as vLLM prints none
    assertTrue(SpecDecodeStats.between(counts(AFTER), counts(AFTER))
        .isEmpty());
  }

  @Test
  void countersWithoutTheTotalSuffixAreReadToo() {
    SpecDecodeCounters c = SpecDecodeCounters.of("""
        vllm:spec_decode_num_drafts 4
        vllm:spec_decode_num_draft_tokens 8
        vllm:spec_decode_num_accepted_tokens 6
        vllm:spec_decode_num_accepted_tokens_per_pos{position="1"} 2
        vllm:spec_decode_num_accepted_tokens_per_pos{position="0"} 4
        """).orElseThrow();
    assertEquals(4, c.drafts());
    assertEquals(8, c.draftTokens());
    assertEquals(6, c.accepted());
    assertEquals(Map.of(0, 4.0, 1, 2.0), c.acceptedByPos());
  }
}
