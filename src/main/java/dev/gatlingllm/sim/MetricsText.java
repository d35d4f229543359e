package dev.gatlingllm.sim;

/**
 * The Prometheus text exposition of {@code GET /metrics}: the simulator's own counters,
 * plus vLLM's queue, KV-cache and prefix-cache metrics under their vLLM names (V1, and the
 * V0 {@code gpu_cache_usage_perc}) so that dashboards and scrapers built for vLLM work.
 */
final class MetricsText {

  private MetricsText() {}

  static String render(String model, ServerState.Snapshot s, TimerLateness lateness) {
    StringBuilder sb = new StringBuilder(2048);
    metric(sb, "gatling_llm_sim_requests_total", "counter",
        "Valid generation requests received since start or the last stats reset.", s.received());
    metric(sb, "gatling_llm_sim_in_flight", "gauge",
        "Generation requests received and not finished, queued ones included.", s.inFlight());
    metric(sb, "gatling_llm_sim_running", "gauge",
        "Requests generating now.", s.running());
    metric(sb, "gatling_llm_sim_waiting", "gauge",
        "Requests queued for a running slot.", s.waiting());
    metric(sb, "gatling_llm_sim_max_in_flight", "gauge",
        "Most requests in flight at once.", s.maxInFlight());
    metric(sb, "gatling_llm_sim_max_running", "gauge",
        "Most requests generating at once.", s.maxRunning());
    sb.append("# HELP gatling_llm_sim_faults_total Faults injected, by kind.\n")
        .append("# TYPE gatling_llm_sim_faults_total counter\n");
    for (Fault kind : Fault.values()) {
      sb.append("gatling_llm_sim_faults_total{kind=\"").append(kind.label()).append("\"} ")
          .append(s.faults(kind)).append('\n');
    }
    sb.append("# HELP gatling_llm_sim_timer_lateness_seconds How late timed writes ran against plan.\n")
        .append("# TYPE gatling_llm_sim_timer_lateness_seconds summary\n")
        .append("gatling_llm_sim_timer_lateness_seconds_sum ").append(lateness.sumNanos() / 1e9).append('\n')
        .append("gatling_llm_sim_timer_lateness_seconds_count ").append(lateness.count()).append('\n');
    metric(sb, "gatling_llm_sim_timer_lateness_max_seconds", "gauge",
        "Largest lateness of a timed write.", lateness.maxNanos() / 1e9);
    String label = "{model_name=" + ResponseText.quote(model) + "}";
    sb.append("# HELP vllm:num_requests_running Number of requests in model execution batches.\n")
        .append("# TYPE vllm:num_requests_running gauge\n")
        .append("vllm:num_requests_running").append(label).append(' ').append(s.running()).append('\n')
        .append("# HELP vllm:num_requests_waiting Number of requests waiting to be processed.\n")
        .append("# TYPE vllm:num_requests_waiting gauge\n")
        .append("vllm:num_requests_waiting").append(label).append(' ').append(s.waiting()).append('\n');
    // vLLM V1's name, then the V0 name older servers and dashboards still use
    gauge(sb, "vllm:kv_cache_usage_perc", "KV-cache usage. 1 means 100 percent usage.", label,
        s.kvCacheUsage());
    gauge(sb, "vllm:gpu_cache_usage_perc", "GPU KV-cache usage. 1 means 100 percent usage.",
        label, s.kvCacheUsage());
    counter(sb, "vllm:prefix_cache_queries", "Prefix cache queries, in terms of number of "
        + "queried tokens.", label, s.prefixQueries());
    counter(sb, "vllm:prefix_cache_hits", "Prefix cache hits, in terms of number of cached "
        + "tokens.", label, s.prefixHits());
    return sb.toString();
  }

  private static void gauge(StringBuilder sb, String name, String help, String label,
      double value) {
    sb.append("# HELP ").append(name).append(' ').append(help).append('\n')
        .append("# TYPE ").append(name).append(" gauge\n")
        .append(name).append(label).append(' ').append(value).append('\n');
  }

  /** A counter as the Prometheus client writes it: the family name, samples with _total. */
  private static void counter(StringBuilder sb, String name, String help, String label,
      long value) {
    sb.append("# HELP ").append(name).append("_total ").append(help).append('\n')
        .append("# TYPE ").append(name).append("_total counter\n")
        .append(name).append("_total").append(label).append(' ').append(value).append('\n');
  }

  private static void metric(StringBuilder sb, String name, String type, String help, Object value) {
    sb.append("# HELP ").append(name).append(' ').append(help).append('\n')
        .append("# TYPE ").append(name).append(' ').append(type).append('\n')
        .append(name).append(' ').append(value).append('\n');
  }
}
