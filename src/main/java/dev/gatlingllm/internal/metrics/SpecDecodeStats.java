package dev.gatlingllm.internal.metrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The speculative decoding of one run, from the differences of vLLM's counters read before
 * and after it ({@link Counts}, read by {@code servermetrics.SpecDecodeCounters}), as vLLM's
 * {@code bench serve} reports it: the
 * acceptance rate in percent (accepted over proposed tokens), the acceptance length (1 plus
 * the accepted tokens per draft: the bonus token counts), and per draft position the share of
 * drafts whose token there was accepted.
 *
 * @param drafts          drafts verified during the run
 * @param draftTokens     tokens proposed
 * @param accepted        proposed tokens accepted
 * @param perPosition     accepted at each position over {@code drafts}, position 0 first
 */
public record SpecDecodeStats(long drafts, long draftTokens, long accepted,
    List<Double> perPosition) {

  /** The result JSON's keys, vLLM's. */
  public static final String RATE_KEY = "spec_decode_acceptance_rate";
  public static final String LENGTH_KEY = "spec_decode_acceptance_length";
  public static final String DRAFTS_KEY = "spec_decode_num_drafts";
  public static final String DRAFT_TOKENS_KEY = "spec_decode_draft_tokens";
  public static final String ACCEPTED_KEY = "spec_decode_accepted_tokens";
  public static final String PER_POSITION_KEY = "spec_decode_per_position_acceptance_rates";
  /** Every key, in vLLM's order. */
  public static final List<String> KEYS = List.of(RATE_KEY, LENGTH_KEY, DRAFTS_KEY,
      DRAFT_TOKENS_KEY, ACCEPTED_KEY, PER_POSITION_KEY);

  public SpecDecodeStats {
    perPosition = List.copyOf(perPosition);
  }

  /**
   * vLLM's counters at one moment, summed over engines.
   *
   * @param drafts        {@code vllm:spec_decode_num_drafts}
   * @param draftTokens   {@code vllm:spec_decode_num_draft_tokens}
   * @param accepted      {@code vllm:spec_decode_num_accepted_tokens}
   * @param acceptedByPos {@code vllm:spec_decode_num_accepted_tokens_per_pos} by position
   */
  public record Counts(double drafts, double draftTokens, double accepted,
      Map<Integer, Double> acceptedByPos) {

    public Counts {
      acceptedByPos = Map.copyOf(acceptedByPos);
    }
  }

  /**
   * The run's figures; empty when either reading is missing or no token was proposed during
   * the run (a server without speculative decoding, or one the run did not reach), as vLLM
   * then prints no such section. A position seen only before the run counts no change there.
   */
  public static Optional<SpecDecodeStats> between(Optional<Counts> before,
      Optional<Counts> after) {
    if (before.isEmpty() || after.isEmpty()) {
      return Optional.empty();
    }
    Counts b = before.get();
    Counts a = after.get();
    long drafts = Math.round(a.drafts() - b.drafts());
    long draftTokens = Math.round(a.draftTokens() - b.draftTokens());
    long accepted = Math.round(a.accepted() - b.accepted());
    if (draftTokens <= 0) {
      return Optional.empty();
    }
    List<Double> perPosition = new ArrayList<>();
    if (drafts > 0) {
      TreeSet<Integer> positions = new TreeSet<>(b.acceptedByPos().keySet());
      positions.addAll(a.acceptedByPos().keySet());
      for (int pos : positions) {
        double was = b.acceptedByPos().getOrDefault(pos, 0.0);
        double is = a.acceptedByPos().getOrDefault(pos, was);
        perPosition.add((is - was) / drafts);
      }
    }
    return Optional.of(new SpecDecodeStats(drafts, draftTokens, accepted, perPosition));
  }

  /** Accepted over proposed tokens, in percent. */
  public double acceptanceRatePercent() {
    return 100.0 * accepted / draftTokens;
  }

  /** Tokens a draft step yields on average: 1 (the bonus token) plus those accepted; 0 without drafts. */
  public double acceptanceLength() {
    return drafts > 0 ? 1 + (double) accepted / drafts : 0.0;
  }

  /** The result JSON's keys, in vLLM's order. */
  public Map<String, Object> toJson() {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put(RATE_KEY, acceptanceRatePercent());
    out.put(LENGTH_KEY, acceptanceLength());
    out.put(DRAFTS_KEY, drafts);
    out.put(DRAFT_TOKENS_KEY, draftTokens);
    out.put(ACCEPTED_KEY, accepted);
    out.put(PER_POSITION_KEY, perPosition);
    return out;
  }

  /**
   * vLLM's console section, from a result's keys (so a recovered or merged result prints it
   * too); empty when the keys are not there.
   */
  public static String console(Map<String, Object> result) {
    if (!(result.get(RATE_KEY) instanceof Number rate)) {
      return "";
    }
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "%s%n", center("Speculative Decoding")));
    row(out, "Acceptance rate (%):", String.format(Locale.ROOT, "%.2f", rate.doubleValue()));
    row(out, "Acceptance length:", String.format(Locale.ROOT, "%.2f",
        ((Number) result.get(LENGTH_KEY)).doubleValue()));
    row(out, "Drafts:", String.valueOf(((Number) result.get(DRAFTS_KEY)).longValue()));
    row(out, "Draft tokens:", String.valueOf(((Number) result.get(DRAFT_TOKENS_KEY)).longValue()));
    row(out, "Accepted tokens:", String.valueOf(((Number) result.get(ACCEPTED_KEY)).longValue()));
    if (result.get(PER_POSITION_KEY) instanceof List<?> perPos && !perPos.isEmpty()) {
      out.append(String.format(Locale.ROOT, "Per-position acceptance (%%):%n"));
      for (int i = 0; i < perPos.size(); i++) {
        row(out, "  Position " + i + ":", String.format(Locale.ROOT, "%.2f",
            ((Number) perPos.get(i)).doubleValue() * 100));
      }
    }
    return out.toString();
  }

  private static void row(StringBuilder out, String label, String value) {
    out.append(String.format(Locale.ROOT, "%-40s %-10s%n", label, value));
  }

  private static String center(String title) {
    int pad = 50 - title.length();
    return "-".repeat(pad / 2) + title + "-".repeat(pad - pad / 2);
  }
}
