package dev.gatlingllm.internal.protocol;

import dev.gatlingllm.internal.metrics.RequestRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Checks the server against what each request asked, once per finished request (at record
 * time, never per chunk): output tokens beyond the limit asked, fewer than asked despite
 * {@code ignore_eos}, a model name the server's {@code /v1/models} does not list, and a
 * {@code usage.prompt_tokens} off the prompt's own count by more than tokenizers differ.
 * Numbers are only true when the server did what was asked; none of the reference clients
 * checks this. Thread-safe: requests finish on every event loop.
 *
 * <p>Live: the first request to fail a check is handed to the run's {@link ComplianceWatch}
 * (when it has one) as it finishes, so a finding that one response already shows is said
 * during the run, not only after it; once per check and run, by the same test as the count,
 * so what is said live is what the end-of-run block says. A request that passes costs the
 * same as before: the counters, nothing allocated.
 */
public final class ServerCompliance {

  /** The checks, in the order they are reported. */
  public enum Check {
    /** {@code usage.completion_tokens} above the request's max tokens. */
    OUTPUT_OVER_MAX_TOKENS("output_over_max_tokens", "Output over max tokens:"),
    /** {@code usage.completion_tokens} below the request's max tokens with {@code ignore_eos}. */
    OUTPUT_UNDER_IGNORE_EOS("output_under_ignore_eos", "Output under max tokens, ignore_eos:"),
    /** The request's model is not in the server's {@code /v1/models} list. */
    MODEL_NOT_LISTED("model_not_listed", "Model not listed by /v1/models:"),
    /** {@code usage.prompt_tokens} off the dataset's count beyond {@link #promptTolerance}. */
    PROMPT_TOKENS_MISMATCH("prompt_tokens_mismatch", "Prompt tokens off the prompt's count:"),
    /** A finished generation without {@code usage}, though the request asked for it. */
    USAGE_MISSING("usage_missing", "Usage missing though asked for:"),
    /** A 404 naming the model: the server does not serve the model asked for. */
    MODEL_NOT_FOUND("model_not_found", "Model not found (404):");

    /** Key in the result JSON. */
    public final String key;
    /** Label of the console block. */
    final String label;

    Check(String key, String label) {
      this.key = key;
      this.label = label;
    }
  }

  /**
   * What one request asked, as far as the server can be checked against it.
   *
   * @param maxTokens      the output limit the body sets (the larger one when it sets both
   *                       {@code max_tokens} and {@code max_completion_tokens}: a server may
   *                       honour either); -1 when it sets none
   * @param minTokens      the smaller one of them (what {@code ignore_eos} must reach)
   * @param onlyCompletionLimit whether the limit was sent as {@code max_completion_tokens} only
   *                       (no {@code max_tokens} beside it), which some servers ignore
   * @param ignoreEos      {@code ignore_eos: true} was sent
   * @param model          the {@code model} field sent; null when none
   * @param chat           a chat request: the server's count includes its chat template
   */
  public record Asked(int maxTokens, int minTokens, boolean onlyCompletionLimit, boolean ignoreEos,
      String model, boolean chat) {}

  /** Request ids kept per check, to find the requests in the server's logs. */
  static final int EXAMPLES = 3;
  /** Prompt counts may differ by this many tokens (special tokens, tokenizer versions). */
  static final int PROMPT_TOLERANCE_TOKENS = 8;
  /** ... or by this fraction of the prompt, whichever is larger. */
  static final double PROMPT_TOLERANCE_FRACTION = 0.10;

  private final int n = Check.values().length;
  private final AtomicLongArray checked = new AtomicLongArray(n);
  private final AtomicLongArray violations = new AtomicLongArray(n);
  private final List<List<String>> examples = new ArrayList<>(n);
  /** The server's listed models; null until listed, or when it lists none. */
  private volatile Set<String> servedModels;
  /** Whether an onlyCompletionLimit request was over its limit (picks the fix's words). */
  private volatile boolean completionLimitIgnored;
  /** Why prompt counts are not compared; null when they are. */
  private final String promptCheckOff;
  /** Told of each check's first failure; null: nothing said live (a rehearsal, a test). */
  private volatile ComplianceWatch watch;

  /** Every check on. */
  public ServerCompliance() {
    this(null);
  }

  /**
   * @param promptCheckOff why the prompts' own counts cannot be compared with the server's
   *                       (they come from another tokenizer than the server's); null to compare
   */
  public ServerCompliance(String promptCheckOff) {
    this.promptCheckOff = promptCheckOff;
    for (int i = 0; i < n; i++) {
      examples.add(new ArrayList<>(EXAMPLES));
    }
  }

  /** The models the server's {@code /v1/models} lists; without it, no model is checked. */
  public void servedModels(Set<String> models) {
    this.servedModels = Set.copyOf(models);
  }

  /** Says each check's first failure during the run (see {@link ComplianceWatch}). */
  void watch(ComplianceWatch live) {
    this.watch = live;
  }

  /** The largest difference of prompt counts that is still the tokenizers' own. */
  static int promptTolerance(int promptTokens) {
    return Math.max(PROMPT_TOLERANCE_TOKENS,
        (int) Math.ceil(promptTokens * PROMPT_TOLERANCE_FRACTION));
  }

  /**
   * Checks one finished request. Failed requests say nothing of what the server did with
   * the request, except a 404 naming the model: it does not serve it.
   */
  public void record(Asked asked, RequestRecord record) {
    if (asked == null) {
      return;
    }
    if (!record.success()) {
      if (asked.model() != null && record.httpStatus() != 0) {
        count(Check.MODEL_NOT_FOUND, asked, record, modelNotFound(record));
      }
      return;
    }
    if (asked.model() != null) {
      count(Check.MODEL_NOT_FOUND, asked, record, false);
    }
    int output = record.outputTokens();
    // every generation body asks for usage: a stream with stream_options.include_usage (which
    // extraBody cannot change), a Responses stream and an unstreamed answer by their protocol
    count(Check.USAGE_MISSING, asked, record, output < 0 && record.usagePromptTokens() < 0);
    if (output >= 0 && asked.maxTokens() > 0) {
      boolean over = output > asked.maxTokens();
      if (over && asked.onlyCompletionLimit()) {
        completionLimitIgnored = true; // before the count: its live line names the field
      }
      count(Check.OUTPUT_OVER_MAX_TOKENS, asked, record, over);
      if (asked.ignoreEos()) {
        count(Check.OUTPUT_UNDER_IGNORE_EOS, asked, record, output < asked.minTokens());
      }
    }
    Set<String> models = servedModels;
    if (models != null && asked.model() != null) {
      // the same rule as the check before the run (an untagged name is its :latest)
      count(Check.MODEL_NOT_LISTED, asked, record, !ServedModels.serves(models, asked.model()));
    }
    int own = record.promptTokens();
    int reported = record.usagePromptTokens();
    if (promptCheckOff == null && own >= 0 && reported >= 0) {
      int tolerance = promptTolerance(own);
      // a chat template only adds tokens: only a shorter count is the server's doing
      boolean off = reported < own - tolerance || (!asked.chat() && reported > own + tolerance);
      count(Check.PROMPT_TOKENS_MISMATCH, asked, record, off);
    }
  }

  /**
   * A 404 whose message names the model (vLLM: "The model `x` does not exist."; OpenAI adds
   * "or you do not have access to it"); a 404 of a wrong path names none.
   */
  static boolean modelNotFound(RequestRecord record) {
    String error = record.error();
    return record.httpStatus() == 404 && error != null
        && error.toLowerCase(java.util.Locale.ROOT).contains("model");
  }

  private void count(Check check, Asked asked, RequestRecord record, boolean violated) {
    int i = check.ordinal();
    checked.incrementAndGet(i);
    if (!violated) {
      return;
    }
    long nth = violations.incrementAndGet(i);
    if (nth <= EXAMPLES && record.requestId() != null) {
      List<String> ids = examples.get(i);
      synchronized (ids) {
        if (ids.size() < EXAMPLES) {
          ids.add(record.requestId());
        }
      }
    }
    ComplianceWatch live = watch;
    if (nth == 1 && live != null) {
      // the first failure of this check in the run: exactly one request gets here
      live.found(check, record.requestId(), ComplianceWatch.seen(check, asked, record,
          completionLimitIgnored, servedModels));
    }
  }

  /** What was counted so far. */
  public ServerComplianceReport report() {
    return report(-1);
  }

  /**
   * What was counted so far, with the live stop's account (its time in seconds after {@code
   * benchmarkStartNanos}; -1: after the watch's start) when the run was stopped for it.
   */
  public ServerComplianceReport report(long benchmarkStartNanos) {
    long[] c = new long[n];
    long[] v = new long[n];
    List<List<String>> ids = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      c[i] = checked.get(i);
      v[i] = violations.get(i);
      List<String> e = examples.get(i);
      synchronized (e) {
        ids.add(List.copyOf(e));
      }
    }
    Set<String> models = servedModels;
    ComplianceWatch live = watch;
    return new ServerComplianceReport(c, v, ids, models == null ? null : models,
        completionLimitIgnored, promptCheckOff,
        live == null ? null : live.stopJson(benchmarkStartNanos));
  }
}
