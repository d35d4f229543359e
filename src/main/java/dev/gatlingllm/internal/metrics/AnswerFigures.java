package dev.gatlingllm.internal.metrics;

import java.util.OptionalDouble;

/**
 * What the successful answers held beyond their text (our addition, not vLLM's): reasoning,
 * tool calls, answers checked against a JSON schema. Each part is reported only when some
 * answer had it, so that other runs keep vLLM's keys.
 *
 * @param reasoningRequests   answers that reasoned (streamed reasoning, or a server count > 0)
 * @param reasoningTokens     Σ {@link RequestRecord#reasoningTokenCount()} of those answers
 * @param reasoningFromServer every one of them had the server's {@code reasoning_tokens}; false
 *                            when some were counted from their reasoning chunks
 * @param toolCallRequests    answers that called at least one tool
 * @param toolCalls           Σ tool calls of those answers
 * @param toolCallsParsed     the tool calls whose arguments parsed as JSON
 * @param toolCallTime        time to the first tool-call chunk of those answers; null when none
 * @param schemaChecked       answers checked against the JSON schema their request asked for
 * @param schemaValid         those that validated
 */
public record AnswerFigures(
    int reasoningRequests,
    long reasoningTokens,
    boolean reasoningFromServer,
    int toolCallRequests,
    int toolCalls,
    int toolCallsParsed,
    Distribution toolCallTime,
    int schemaChecked,
    int schemaValid) {

  /** Nothing beyond text. */
  public static final AnswerFigures NONE = new AnswerFigures(0, 0, false, 0, 0, 0, null, 0, 0);

  /** Key word of the time to the first tool-call token: {@code mean_ttftc_ms}, ... */
  public static final String TOOL_CALL_KEY = "ttftc";

  /** Key word of AIPerf's name for TTFC (time to first output token): {@code mean_ttfo_ms}. */
  public static final String TTFO_KEY = "ttfo";

  /** Of the successful {@code records} (failed ones are skipped). */
  static AnswerFigures of(RecordSource src, double[] percentiles) {
    int reasoning = 0;
    long reasoningTokens = 0;
    boolean fromServer = true;
    int toolRequests = 0;
    int calls = 0;
    int parsed = 0;
    double[] toolTimes = new double[src.size()];
    int timed = 0;
    int checked = 0;
    int valid = 0;
    for (int i = 0; i < src.size(); i++) {
      RequestRecord r = src.record(i);
      if (!r.success()) {
        continue;
      }
      if (r.reasoningChunks() > 0 || r.reasoningTokens() > 0) {
        reasoning++;
        reasoningTokens += r.reasoningTokenCount();
        fromServer &= r.reasoningTokens() >= 0;
      }
      if (r.toolCalls() > 0) {
        toolRequests++;
        calls += r.toolCalls();
        parsed += r.toolCallsParsed();
        if (r.toolCallNanos() >= 0) {
          toolTimes[timed++] = r.toolCallNanos() / 1e9;
        }
      }
      if (r.schemaCheck() != RequestRecord.SCHEMA_NOT_ASKED) {
        checked++;
        valid += r.schemaCheck() == RequestRecord.SCHEMA_VALID ? 1 : 0;
      }
    }
    return new AnswerFigures(reasoning, reasoningTokens, reasoning > 0 && fromServer,
        toolRequests, calls, parsed,
        timed > 0 ? Stats.ofSeconds(toolTimes, timed, percentiles) : null, checked, valid);
  }

  /** Share of the tool calls whose arguments parsed; NaN without a call. */
  public double toolCallParseRate() {
    return toolCalls == 0 ? Double.NaN : (double) toolCallsParsed / toolCalls;
  }

  /** Share of the checked answers that validated; NaN without one. */
  public double schemaValidRate() {
    return schemaChecked == 0 ? Double.NaN : (double) schemaValid / schemaChecked;
  }

  /** A count or share by its result key; empty for other keys or a part no answer had. */
  OptionalDouble value(String key) {
    return switch (key) {
      case "total_reasoning_tokens" -> reasoningRequests > 0
          ? OptionalDouble.of(reasoningTokens) : OptionalDouble.empty();
      case "tool_call_requests" -> OptionalDouble.of(toolCallRequests);
      case "total_tool_calls" -> OptionalDouble.of(toolCalls);
      case "total_tool_calls_parsed" -> OptionalDouble.of(toolCallsParsed);
      case "tool_call_parse_rate" -> toolCalls > 0
          ? OptionalDouble.of(toolCallParseRate()) : OptionalDouble.empty();
      case "structured_output_requests" -> OptionalDouble.of(schemaChecked);
      case "structured_output_valid" -> OptionalDouble.of(schemaValid);
      case "structured_output_valid_rate" -> schemaChecked > 0
          ? OptionalDouble.of(schemaValidRate()) : OptionalDouble.empty();
      default -> OptionalDouble.empty();
    };
  }
}
