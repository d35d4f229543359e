package dev.gatlingllm.internal.protocol;

import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.internal.client.Target;
import dev.gatlingllm.internal.client.TargetChooser;
import dev.gatlingllm.internal.live.OtlpSettings;
import dev.gatlingllm.options.ResultOptions;
import dev.gatlingllm.protocol.LlmProtocolBuilder;
import io.gatling.core.protocol.Protocol;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;

/**
 * The resolved settings of an {@link LlmProtocolBuilder}: where to send, which model, how to
 * authenticate and how long to wait. Immutable; the API key never appears in
 * {@link #toString()}.
 */
public final class LlmProtocol implements Protocol {

  private final Target target;
  private final String model;
  private final String servedModelName;
  private final String backend;
  private final String apiKey;
  private final Map<String, String> headers;
  private final String requestIdPrefix;
  private final Duration connectTimeout;
  private final Duration firstTokenTimeout;
  private final Duration idleTimeout;
  private final Duration requestTimeout;
  private final Duration keepAliveTimeout;
  private final ResultOptions results;
  private final String tokenizerId;
  private final ToIntFunction<String> tokenCounter;
  private final ArrivalProfile arrivals;
  private final Integer maxConcurrency;
  private final WarmUpOptions warmUp;
  private final List<URI> serverMetrics;
  private final List<URI> specDecodeMetrics;
  private final boolean insecureTls;
  private final List<Consumer<RunParts>> onStart;
  private final Cancellation cancellation;
  private final List<URI> gpuMetrics;
  private final OtlpSettings otlp;
  private final List<Target> targets;
  private final TargetChooser.Strategy targetStrategy;

  public LlmProtocol(Target target, String model, String servedModelName, String backend,
      String apiKey, Map<String, String> headers, String requestIdPrefix,
      Duration connectTimeout, Duration firstTokenTimeout, Duration idleTimeout,
      Duration requestTimeout, Duration keepAliveTimeout, ResultOptions results, String tokenizerId,
      ToIntFunction<String> tokenCounter, ArrivalProfile arrivals, Integer maxConcurrency,
      WarmUpOptions warmUp, List<URI> serverMetrics, List<URI> specDecodeMetrics, boolean insecureTls,
      List<Consumer<RunParts>> onStart, List<URI> gpuMetrics, OtlpSettings otlp,
      Cancellation cancellation, List<Target> targets, TargetChooser.Strategy targetStrategy) {
    this.target = target;
    this.gpuMetrics = List.copyOf(gpuMetrics);
    this.otlp = otlp;
    this.cancellation = cancellation;
    this.targets = List.copyOf(targets);
    this.targetStrategy = targetStrategy;
    if (!this.targets.get(0).equals(target)) {
      throw new IllegalArgumentException("target " + target + " is not the first of " + targets);
    }
    this.onStart = List.copyOf(onStart);
    this.insecureTls = insecureTls;
    this.model = model;
    this.servedModelName = servedModelName;
    this.backend = backend;
    this.apiKey = apiKey;
    this.headers = Map.copyOf(headers);
    this.requestIdPrefix = requestIdPrefix;
    this.connectTimeout = connectTimeout;
    this.firstTokenTimeout = firstTokenTimeout;
    this.idleTimeout = idleTimeout;
    this.requestTimeout = requestTimeout;
    this.keepAliveTimeout = keepAliveTimeout;
    this.results = results;
    this.tokenizerId = tokenizerId;
    this.tokenCounter = tokenCounter;
    this.arrivals = arrivals;
    this.maxConcurrency = maxConcurrency;
    this.warmUp = warmUp;
    this.serverMetrics = List.copyOf(serverMetrics);
    this.specDecodeMetrics = List.copyOf(specDecodeMetrics);
  }

  /** What the run hands its components to as soon as they exist (the drop-in's probes). */
  List<Consumer<RunParts>> onStart() {
    return onStart;
  }

  /** Where the run's live figures are exported over OTLP; empty when they are not. */
  public Optional<OtlpSettings> otlp() {
    return Optional.ofNullable(otlp);
  }

  /** The Prometheus endpoint scraped during the run (the first replica's), when there is one. */
  public Optional<URI> serverMetrics() {
    return serverMetrics.stream().findFirst();
  }

  /**
   * Every Prometheus endpoint scraped during the run: one per replica when several were given
   * and the metrics are a path on the server; empty when none is scraped.
   */
  public List<URI> serverMetricsEndpoints() {
    return serverMetrics;
  }

  /** Which requests the client cancels on purpose ({@code --cancel-fraction}); may be none. */
  public Cancellation cancellation() {
    return cancellation;
  }

  /** The DCGM exporters scraped for the GPUs' energy during the run; empty when none. */
  public List<URI> gpuMetrics() {
    return gpuMetrics;
  }

  /**
   * The Prometheus endpoints whose speculative-decoding counters are read before and after the
   * run and summed (see {@code servermetrics.SpecDecodeCounters}): one per replica; empty when
   * they are not read.
   */
  public List<URI> specDecodeMetrics() {
    return specDecodeMetrics;
  }

  /** Warm-up requests before the run. */
  public WarmUpOptions warmUp() {
    return warmUp;
  }

  /** The arrival process, when one was configured. */
  public Optional<ArrivalProfile> arrivals() {
    return Optional.ofNullable(arrivals);
  }

  /** The cap on requests in flight, when there is one. */
  public Optional<Integer> maxConcurrency() {
    return Optional.ofNullable(maxConcurrency);
  }

  public ResultOptions results() {
    return results;
  }

  /**
   * The tokenizer named in the result file: the one that counts the output of responses
   * without usage, so the configured counter's id, else {@code gpt2} (the shipped fallback).
   */
  public String tokenizerId() {
    return tokenizerId != null ? tokenizerId : OutputTokens.FALLBACK_ID;
  }

  /** Token counter for responses without usage; null when none was configured. */
  public ToIntFunction<String> tokenCounter() {
    return tokenCounter;
  }

  /** The server, or the first of several ({@link #targets()}). */
  public Target target() {
    return target;
  }

  /**
   * Every server requests go to, in the order given ({@code --base-url} repeated): replicas of
   * one model; one for a run against a single server.
   */
  public List<Target> targets() {
    return targets;
  }

  /** Whether requests are spread over several servers. */
  public boolean severalTargets() {
    return targets.size() > 1;
  }

  /** How each request's server is chosen among several. */
  public TargetChooser.Strategy targetStrategy() {
    return targetStrategy;
  }

  /** The model id (also used for the tokenizer and the result file). */
  public String model() {
    return model;
  }

  /** The name sent in the {@code model} field: the served model name when set, else the model. */
  public String requestModelName() {
    return servedModelName != null ? servedModelName : model;
  }

  public String backend() {
    return backend;
  }

  public String apiKey() {
    return apiKey;
  }

  public Map<String, String> headers() {
    return headers;
  }

  public String requestIdPrefix() {
    return requestIdPrefix;
  }

  public Duration connectTimeout() {
    return connectTimeout;
  }

  public Duration firstTokenTimeout() {
    return firstTokenTimeout;
  }

  public Duration idleTimeout() {
    return idleTimeout;
  }

  public Duration requestTimeout() {
    return requestTimeout;
  }

  public Duration keepAliveTimeout() {
    return keepAliveTimeout;
  }

  /** Whether any TLS certificate is accepted ({@link LlmProtocolBuilder#insecureTls()}). */
  public boolean insecureTls() {
    return insecureTls;
  }

  @Override
  public String toString() {
    return "LlmProtocol{target=" + (severalTargets() ? targets : target) + ", model=" + model
        + (servedModelName != null ? ", servedModelName=" + servedModelName : "")
        + ", backend=" + backend + ", apiKey=" + (apiKey != null ? "<set>" : "<none>")
        + ", headers=" + headers.keySet() + "}";
  }
}
