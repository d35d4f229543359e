package dev.gatlingllm.internal.sim;

import dev.gatlingllm.sim.Fault;

/**
 * The Prometheus text exposition of {@code GET /metrics}: the simulator's own counters,
 * plus vLLM's queue, KV-cache and prefix-cache metrics under their vLLM names (V1, and the
 * V0 {@code gpu_cache_usage_perc}) so that dashboards and scrapers built for vLLM work.
 */
final class MetricsText {

  private MetricsText() {}

  /**
   * The exposition; {@code specDecodeTokens} above 0 adds vLLM's speculative-decoding
   * counters (with one {@code position} per drafted token), as a server started with a
   * speculative config shows them from its start.
   */
  static String render(String model, ServerState.Snapshot s, TimerLateness lateness,
      int specDecodeTokens) {
    StringBuilder sb = new StringBuilder(2048);
    family(sb, "gatling_llm_sim_requests_total", "counter",
        "Valid generation requests received since start or the last stats reset.", "",
        s.received());
    family(sb, "gatling_llm_sim_in_flight", "gauge",
        "Generation requests received and not finished, queued ones included.", "",
        s.inFlight());
    family(sb, "gatling_llm_sim_running", "gauge", "Requests generating now.", "", s.running());
    family(sb, "gatling_llm_sim_waiting", "gauge", "Requests queued for a running slot.", "",
        s.waiting());
    family(sb, "gatling_llm_sim_max_in_flight", "gauge", "Most requests in flight at once.", "",
        s.maxInFlight());
    family(sb, "gatling_llm_sim_max_running", "gauge", "Most requests generating at once.", "",
        s.maxRunning());
    header(sb, "gatling_llm_sim_faults_total", "counter", "Faults injected, by kind.");
    for (Fault kind : Fault.values()) {
      sb.append("gatling_llm_sim_faults_total{kind=\"").append(kind.label()).append("\"} ")
          .append(s.faults(kind)).append('\n');
    }
    header(sb, "gatling_llm_sim_timer_lateness_seconds", "summary",
        "How late timed writes ran against plan.");
    sb.append("gatling_llm_sim_timer_lateness_seconds_sum ").append(lateness.sumNanos() / 1e9)
        .append('\n')
        .append("gatling_llm_sim_timer_lateness_seconds_count ").append(lateness.count())
        .append('\n');
    family(sb, "gatling_llm_sim_timer_lateness_max_seconds", "gauge",
        "Largest lateness of a timed write.", "", lateness.maxNanos() / 1e9);
    String label = "{model_name=" + ResponseText.quote(model) + "}";
    family(sb, "vllm:num_requests_running", "gauge",
        "Number of requests in model execution batches.", label, s.running());
    family(sb, "vllm:num_requests_waiting", "gauge",
        "Number of requests waiting to be processed.", label, s.waiting());
    // vLLM V1's name, then the V0 name older servers and dashboards still use
    family(sb, "vllm:kv_cache_usage_perc", "gauge",
        "KV-cache usage. 1 means 100 percent usage.", label, s.kvCacheUsage());
    family(sb, "vllm:gpu_cache_usage_perc", "gauge",
        "GPU KV-cache usage. 1 means 100 percent usage.", label, s.kvCacheUsage());
    // counters as the Prometheus client writes them: the family and its sample end in _total
    family(sb, "vllm:prefix_cache_queries_total", "counter",
        "Prefix cache queries, in terms of number of queried tokens.", label,
        s.prefixQueries());
    family(sb, "vllm:prefix_cache_hits_total", "counter",
        "Prefix cache hits, in terms of number of cached tokens.", label, s.prefixHits());
    if (specDecodeTokens > 0) {
      SpecDecoding.Counts spec = s.specDecoding();
      family(sb, "vllm:spec_decode_num_drafts_total", "counter",
          "Number of spec decoding drafts.", label, spec.drafts());
      family(sb, "vllm:spec_decode_num_draft_tokens_total", "counter",
          "Number of draft tokens.", label, spec.draftTokens());
      family(sb, "vllm:spec_decode_num_accepted_tokens_total", "counter",
          "Number of accepted tokens.", label, spec.accepted());
      header(sb, "vllm:spec_decode_num_accepted_tokens_per_pos_total", "counter",
          "Accepted tokens per draft position.");
      for (int pos = 0; pos < specDecodeTokens; pos++) {
        long value = pos < spec.acceptedByPos().length ? spec.acceptedByPos()[pos] : 0;
        sb.append("vllm:spec_decode_num_accepted_tokens_per_pos_total{model_name=")
            .append(ResponseText.quote(model)).append(",position=\"").append(pos).append("\"} ")
            .append(value).append('\n');
      }
    }
    // one sample per reason, as vLLM V1 writes it; "abort" counts clients that left
    header(sb, "vllm:request_success_total", "counter",
        "Count of successfully processed requests.");
    for (ServerState.Finished reason : ServerState.Finished.values()) {
      sb.append("vllm:request_success_total{finished_reason=\"").append(reason.label())
          .append("\",model_name=").append(ResponseText.quote(model)).append("} ")
          .append(s.finished(reason)).append('\n');
    }
    return sb.toString();
  }

  /** A family with one sample: its HELP and TYPE lines, then {@code name label value}. */
  private static void family(StringBuilder sb, String name, String type, String help,
      String label, Object value) {
    header(sb, name, type, help);
    sb.append(name).append(label).append(' ').append(value).append('\n');
  }

  private static void header(StringBuilder sb, String name, String type, String help) {
    sb.append("# HELP ").append(name).append(' ').append(help).append('\n')
        .append("# TYPE ").append(name).append(' ').append(type).append('\n');
  }
}
