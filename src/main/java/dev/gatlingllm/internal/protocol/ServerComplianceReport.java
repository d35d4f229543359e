package dev.gatlingllm.internal.protocol;

import dev.gatlingllm.internal.metrics.PyFormat;
import dev.gatlingllm.internal.protocol.ServerCompliance.Check;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The server compliance checks of one run ({@link ServerCompliance}): per check, how many
 * requests it looked at, how many the server failed, and a few of their request ids; a
 * warning with its fix for each check that failed. Written in the result JSON under
 * {@link #KEY}, printed after vLLM's summary, shown in the LLM report.
 */
final class ServerComplianceReport {

  /** Key of the result JSON. */
  public static final String KEY = "server_compliance";

  private static final String TITLE = "Server compliance (gatling-llm)";
  private static final int WIDTH = 50;
  private static final int LABEL_WIDTH = 40;

  private final long[] checked;
  private final long[] violations;
  private final List<List<String>> examples;
  /** Null when the server lists no models (no {@code /v1/models}). */
  private final Set<String> servedModels;
  private final boolean completionLimitIgnored;
  /** Why the prompt counts were not compared; null when they were. */
  private final String promptCheckOff;
  /** The live stop's account ({@link ComplianceWatch#stopJson}); null: not stopped for it. */
  private final Map<String, Object> stop;

  ServerComplianceReport(long[] checked, long[] violations, List<List<String>> examples,
      Set<String> servedModels, boolean completionLimitIgnored, String promptCheckOff,
      Map<String, Object> stop) {
    this.promptCheckOff = promptCheckOff;
    this.stop = stop;
    this.checked = checked.clone();
    this.violations = violations.clone();
    this.examples = List.copyOf(examples);
    this.servedModels = servedModels == null ? null : new TreeSet<>(servedModels);
    this.completionLimitIgnored = completionLimitIgnored;
  }

  /** Requests {@code check} looked at. */
  public long checked(Check check) {
    return checked[check.ordinal()];
  }

  /** Requests that failed {@code check}. */
  public long violations(Check check) {
    return violations[check.ordinal()];
  }

  /** Whether the run was ended at its first finding ({@code --stop-on-server-noncompliance}). */
  public boolean stoppedEarly() {
    return stop != null;
  }

  /** Whether every check passed (or none applied). */
  public boolean clean() {
    for (long v : violations) {
      if (v > 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * One sentence per failed check, with its fix; empty when the server did what was asked.
   * Stable wording, only figures from this report.
   */
  public List<String> warnings() {
    List<String> out = new ArrayList<>(4);
    for (Check check : Check.values()) {
      if (violations(check) > 0) {
        out.add(warning(check));
      }
    }
    return out;
  }

  private String warning(Check check) {
    String share = violations(check) + " of " + checked(check) + " requests"
        + exampleText(check);
    return switch (check) {
      case OUTPUT_OVER_MAX_TOKENS -> completionLimitIgnored
          ? "the server ignores max_completion_tokens: " + share + " got more output tokens"
              + " than asked, so output lengths and throughput are the server's, not the"
              + " dataset's; use --backend openai (completions, which sends max_tokens) or send"
              + " max_tokens too via --extra-body (extraBody in a simulation)"
          : "the server ignores max_tokens: " + share + " got more output tokens than asked,"
              + " so output lengths and throughput are the server's, not the dataset's; check"
              + " the server's own output limit settings";
      case OUTPUT_UNDER_IGNORE_EOS -> "the server does not honour ignore_eos: " + share
          + " stopped before their max tokens, so outputs are shorter than the dataset's; use"
          + " a server that supports ignore_eos, or compare runs on output tokens only";
      case MODEL_NOT_LISTED -> "the server answers for a model its /v1/models does not list ("
          + String.join(", ", servedModels) + "): " + share + "; it accepts any name, so a"
          + " misspelt model still 'works'; use --model (or --served-model-name) with a listed"
          + " name";
      case PROMPT_TOKENS_MISMATCH -> "the server's usage.prompt_tokens differs from the prompt's"
          + " own token count by more than " + ServerCompliance.PROMPT_TOLERANCE_TOKENS
          + " tokens or " + Math.round(ServerCompliance.PROMPT_TOLERANCE_FRACTION * 100)
          + " % in " + share + "; a server cuts prompts longer than its context silently (raise"
          + " its context size) or counts with another tokenizer (pass the server's model to"
          + " --tokenizer)";
      case USAGE_MISSING -> "the server sends no usage though asked (stream_options.include_usage"
          + " on a stream): " + share + " carried none, so their output tokens were counted"
          + " client-side with the run's tokenizer, not the server's; give the server's"
          + " tokenizer (--tokenizer) or use a server that reports usage";
      case MODEL_NOT_FOUND -> "the server does not serve the model asked for: " + share
          + " got 404 naming the model, so they failed; use --model (or --served-model-name)"
          + " with a name its /v1/models lists";
    };
  }

  private String exampleText(Check check) {
    List<String> ids = examples.get(check.ordinal());
    return ids.isEmpty() ? "" : " (e.g. request " + String.join(", ", ids) + ")";
  }

  /**
   * The result JSON's value: per check, {@code checked}, {@code violations} and
   * {@code example_request_ids}; the models {@code /v1/models} listed (null without it); why
   * prompt counts were not compared (null when they were); the warnings (empty when clean);
   * whether the run was stopped at its first finding ({@code stopped_early}) and the
   * {@code stop}'s when, check, request and reason (null when it was not).
   */
  public Map<String, Object> toJson() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("models_listed", servedModels == null ? null : List.copyOf(servedModels));
    Map<String, Object> checks = new LinkedHashMap<>();
    for (Check check : Check.values()) {
      Map<String, Object> c = new LinkedHashMap<>();
      c.put("checked", checked(check));
      c.put("violations", violations(check));
      c.put("example_request_ids", examples.get(check.ordinal()));
      checks.put(check.key, c);
    }
    json.put("checks", checks);
    json.put("prompt_check_off", promptCheckOff);
    json.put("warnings", warnings());
    json.put("stopped_early", stoppedEarly());
    json.put("stop", stop == null ? null : new LinkedHashMap<>(stop));
    return json;
  }

  /** The block printed after vLLM's summary, in its style; empty when every check passed. */
  public String consoleText() {
    if (clean()) {
      return "";
    }
    StringBuilder out = new StringBuilder(512);
    out.append(PyFormat.center(TITLE, WIDTH, '-')).append('\n');
    for (Check check : Check.values()) {
      out.append(PyFormat.left(check.label, LABEL_WIDTH)).append(' ')
          .append(PyFormat.left(violations(check) + " of " + checked(check), 10)).append('\n');
    }
    for (String warning : warnings()) {
      out.append("Warning: ").append(warning).append('\n');
    }
    if (stop != null) {
      out.append("Stopped early (").append(ComplianceWatch.FLAG).append("): ")
          .append(stop.get("check")).append(" at request ").append(stop.get("request_id"))
          .append('\n');
    }
    out.append("=".repeat(WIDTH)).append('\n');
    return out.toString();
  }
}
