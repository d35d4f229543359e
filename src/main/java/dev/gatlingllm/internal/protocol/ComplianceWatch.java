package dev.gatlingllm.internal.protocol;

import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.protocol.ServerCompliance.Asked;
import dev.gatlingllm.internal.protocol.ServerCompliance.Check;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Says during the run what one response already shows of the server: the first request to
 * fail each {@link ServerCompliance} check gets one WARN line, as it finishes, naming the
 * request, what it got against what it asked, and what that does to the figures; the
 * count over the whole run comes after it, in the end-of-run block. A llama.cpp server asked
 * for 1,280 tokens a request and giving 78,280 is said at the first answer, not after four
 * minutes of a run whose figures are not the dataset's.
 *
 * <p>With {@code --stop-on-server-noncompliance} ({@code llm().stopOnServerNonCompliance()})
 * the first finding also ends the run through the run's {@link RunStop}: nothing more is sent,
 * what finished is written, and {@code server_compliance.stop} says when, which check and
 * which request.
 *
 * <p>{@link #found} runs on the event loop of the request that showed the finding, at most once
 * per check and run; the lines are written off it ({@code ForkJoinPool.commonPool()}):
 * Gatling's logback console appender writes synchronously, and a console can block.
 */
final class ComplianceWatch {

  private static final Logger LOG = LoggerFactory.getLogger(ComplianceWatch.class);
  /** The flag, as the stop and its line name it. */
  static final String FLAG = "--stop-on-server-noncompliance";
  /** Gatling's crash message of a request refused after the stop (no record is made). */
  static final String REFUSAL = "run stopped: server non-compliance";
  /** Prefix of the live line, apart from the end-of-run block's "server compliance: ". */
  static final String PREFIX = "server compliance, seen during the run: ";

  /**
   * The stop, in nanos of {@link System#nanoTime()}.
   *
   * @param atNanos   when the finding came and the run was told to stop
   * @param check     the check the request failed
   * @param requestId the request that showed it; null when unknown
   * @param seen      what it showed, in words
   * @param inFlight  requests in flight at the stop
   */
  record Stop(long atNanos, Check check, String requestId, String seen, int inFlight) {}

  /** Stops the run at the first finding; null when the run is not stopped for one. */
  private final RunStop runStop;
  private final Executor lines;
  private final Consumer<String> warn;
  private final Consumer<String> print;
  /** Null until the run was stopped for a finding. */
  private volatile Stop stop;

  /** The run's watch: WARN lines through logback, the stop line on the console. */
  ComplianceWatch(RunStop runStop) {
    this(runStop, ForkJoinPool.commonPool(), LOG::warn, line -> {
      System.out.println(line);
      System.out.flush();
    });
  }

  /**
   * @param runStop the run's stop when {@code --stop-on-server-noncompliance} is on, else null
   * @param lines   where the lines are written from (never the event loop that found them)
   * @param warn    takes the WARN line
   * @param print   takes the stop's console line
   */
  ComplianceWatch(RunStop runStop, Executor lines, Consumer<String> warn,
      Consumer<String> print) {
    this.runStop = runStop;
    this.lines = lines;
    this.warn = warn;
    this.print = print;
  }

  /**
   * The first failure of {@code check} in the run (called once per check, on an event loop):
   * says it and, when asked, stops the run.
   */
  void found(Check check, String requestId, String seen) {
    String line = PREFIX + seen;
    String stopLine = null;
    if (runStop != null) {
      long now = runStop.now();
      int inFlight = runStop.inFlightCount();
      if (runStop.stop(REFUSAL, FLAG + ": " + check.key + " at request " + requestId)) {
        stop = new Stop(now, check, requestId, seen, inFlight);
        stopLine = String.format(Locale.ROOT, "gatling-llm: stopping the run (%s): %s at "
            + "request %s; the results are written from the requests finished so far, %d "
            + "in flight are left", FLAG, check.key, requestId, inFlight);
      }
    }
    String stopping = stopLine;
    lines.execute(() -> {
      warn.accept(line);
      if (stopping != null) {
        print.accept(stopping);
      }
    });
  }

  /**
   * What one request showed, and what it means for the run's figures: the live line's words
   * (the count over the run comes in the end-of-run block). Called once per check and run.
   */
  static String seen(Check check, Asked asked, RequestRecord record,
      boolean completionLimitIgnored, Set<String> servedModels) {
    String request = "request " + (record.requestId() == null ? "(no id)" : record.requestId());
    return switch (check) {
      case OUTPUT_OVER_MAX_TOKENS -> request + " asked for at most " + asked.maxTokens()
          + " output tokens and got " + record.outputTokens() + ": the server ignores "
          + (completionLimitIgnored ? "max_completion_tokens" : "max_tokens")
          + ", so output lengths and throughput are the server's, not the dataset's";
      case OUTPUT_UNDER_IGNORE_EOS -> request + " sent ignore_eos with " + asked.minTokens()
          + " max tokens and got " + record.outputTokens() + ": the server does not honour "
          + "ignore_eos, so outputs are shorter than the dataset's";
      case MODEL_NOT_LISTED -> request + " asked for model '" + asked.model() + "', which the "
          + "server's /v1/models does not list (" + String.join(", ", servedModels) + "), and "
          + "was answered: the server accepts any name, so the figures may be another model's";
      case PROMPT_TOKENS_MISMATCH -> request + " had " + record.promptTokens() + " prompt "
          + "tokens and the server counted " + record.usagePromptTokens() + " (more than "
          + ServerCompliance.promptTolerance(record.promptTokens()) + " apart): the server cut "
          + "the prompt or counts with another tokenizer, so input lengths are not the "
          + "dataset's";
      case USAGE_MISSING -> request + " asked for usage and its answer carried none: output "
          + "tokens are counted client-side with the run's tokenizer, not by the server";
      case MODEL_NOT_FOUND -> request + " got " + record.httpStatus() + " for model '"
          + asked.model() + "' (" + record.error() + "): the server does not serve it, so "
          + "its requests fail and the figures are of errors";
    };
  }

  /** The stop, or null while the run was not stopped for a finding. */
  Stop stop() {
    return stop;
  }

  /**
   * The result JSON's {@code stop} under {@code server_compliance}: null when the run was not
   * stopped for a finding; else when (seconds after {@code benchmarkStartNanos}, null when
   * unknown), which check, which request, what it showed, how many were in flight.
   */
  Map<String, Object> stopJson(long benchmarkStartNanos) {
    Stop s = stop;
    if (s == null) {
      return null;
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("flag", FLAG);
    out.put("at_s", benchmarkStartNanos < 0 ? null : (s.atNanos() - benchmarkStartNanos) / 1e9);
    out.put("check", s.check().key);
    out.put("request_id", s.requestId());
    out.put("reason", s.seen());
    out.put("requests_in_flight", s.inFlight());
    return out;
  }
}
