package dev.gatlingllm.protocol;

import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.internal.client.CancelAfter;
import dev.gatlingllm.internal.arrival.InjectionPlan;
import dev.gatlingllm.internal.client.Target;
import dev.gatlingllm.internal.client.TargetChooser;
import dev.gatlingllm.internal.live.OtlpSettings;
import dev.gatlingllm.internal.protocol.Cancellation;
import dev.gatlingllm.internal.protocol.LlmProtocol;
import dev.gatlingllm.internal.protocol.ProtocolAccess;
import dev.gatlingllm.internal.protocol.RunParts;
import dev.gatlingllm.internal.protocol.WarmUpOptions;
import dev.gatlingllm.internal.scale.ScaleOut;
import dev.gatlingllm.options.ResultOptions;
import dev.gatlingllm.tokenizer.Tokenizer;
import io.gatling.javaapi.core.OpenInjectionStep;
import io.gatling.javaapi.core.ProtocolBuilder;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * Configures the server under test. Immutable: every call returns a new builder.
 *
 * <pre>{@code
 * LlmProtocolBuilder llm = LlmDsl.llm()
 *     .baseUrl("http://127.0.0.1:8000")
 *     .model("meta-llama/Llama-3.1-8B-Instruct")
 *     .apiKeyFromEnv("OPENAI_API_KEY");
 * }</pre>
 */
public final class LlmProtocolBuilder implements ProtocolBuilder, Cloneable {

  /** The servers, in the order given: one for {@link #baseUrl}, several for {@link #baseUrls}. */
  private List<String> baseUrls = List.of();
  private TargetChooser.Strategy baseUrlStrategy = TargetChooser.Strategy.ROUND_ROBIN;
  private String model;
  private String servedModelName;
  private String backend = "vllm";
  private String apiKeyEnv = "OPENAI_API_KEY";
  private boolean apiKeyEnvExplicit;
  private Map<String, String> headers = new LinkedHashMap<>();
  private String requestIdPrefix = "benchmark-serving";
  private Duration connectTimeout = Duration.ofSeconds(10);
  private Duration firstTokenTimeout = Duration.ZERO;
  private Duration idleTimeout = Duration.ofMinutes(2);
  private Duration requestTimeout = Duration.ofMinutes(10);
  private Duration keepAliveTimeout = Duration.ofSeconds(4);
  private boolean insecureTls;
  private Function<String, String> environment = System::getenv;
  private ResultOptions results = ResultOptions.defaults();
  /** Set by {@link #stopOnServerNonCompliance()}, over whatever {@link #results} says. */
  private boolean stopOnServerNonCompliance;
  private List<Consumer<RunParts>> onStart = List.of();
  private ToIntFunction<String> tokenCounter;
  private String tokenizerId;
  private ArrivalProfile arrivals;
  private Integer maxConcurrency;
  private WarmUpOptions warmUp = WarmUpOptions.auto();
  /** Null: the backend's own path ({@code /metrics} for {@code vllm}); "" turns scraping off. */
  private String serverMetrics;
  private double cancelFraction;
  private CancelAfter cancelAfter = CancelAfter.NEVER;
  /** NVIDIA DCGM exporters' endpoints scraped for the GPUs' energy; none by default. */
  private List<URI> gpuMetrics = List.of();
  /** Null: no live figures; else the URL (or {@code env}) given to {@link #otlp(String)}. */
  private String otlpEndpoint;
  /** Null: {@code OTEL_METRIC_EXPORT_INTERVAL}, else {@link OtlpSettings#DEFAULT_INTERVAL}. */
  private Duration otlpInterval;

  static {
    ProtocolAccess.install(LlmProtocolBuilder::onStart);
  }

  public LlmProtocolBuilder() {}

  /** A copy with {@code change} made to it: each setter returns a new builder. */
  private LlmProtocolBuilder with(Consumer<LlmProtocolBuilder> change) {
    LlmProtocolBuilder b;
    try {
      b = (LlmProtocolBuilder) clone();
    } catch (CloneNotSupportedException e) {
      throw new AssertionError(e);
    }
    // the one value a setter changes in place; the others are replaced
    b.headers = new LinkedHashMap<>(headers);
    change.accept(b);
    return b;
  }

  /**
   * Sends {@code requests} real warm-up requests after a probe, before the measured run
   * (vLLM's {@code --num-warmups}); 0 turns the warm-up off. By default the count is picked
   * from the run, see {@link WarmUpOptions}.
   */
  public LlmProtocolBuilder warmUp(int requests) {
    Require.atLeast("warmUp requests", requests, 0);
    return with(b -> b.warmUp = warmUp.withRequests(requests));
  }

  /** Streams the warm-up runs at once; by default the run's concurrency. */
  public LlmProtocolBuilder warmUpConcurrency(int streams) {
    Require.atLeast("warmUpConcurrency", streams, 1);
    return with(b -> b.warmUp = warmUp.withConcurrency(streams));
  }

  /** {@code max_tokens} of each warm-up request (default 64). */
  public LlmProtocolBuilder warmUpMaxTokens(int tokens) {
    Require.atLeast("warmUpMaxTokens", tokens, 1);
    return with(b -> b.warmUp = warmUp.withMaxTokens(tokens));
  }

  /** No warm-up requests: the run's first requests meet a cold client and no open connection. */
  public LlmProtocolBuilder noWarmUp() {
    return with(b -> b.warmUp = WarmUpOptions.off());
  }

  /** Server root, e.g. {@code http://127.0.0.1:8000}; a path prefix is kept. */
  public LlmProtocolBuilder baseUrl(String url) {
    Target.parse(url);
    return with(b -> b.baseUrls = List.of(url));
  }

  /**
   * Several replicas of one model, each a server root as in {@link #baseUrl}: every request
   * goes to one of them, chosen by {@link #baseUrlStrategy} (round-robin by default), over
   * connections of its own; the result adds each URL's figures ({@code per_url}) beside the
   * totals. One URL is {@link #baseUrl}. Replaces any base URL given before.
   */
  public LlmProtocolBuilder baseUrls(String... urls) {
    List<String> given = Require.replicas(urls);
    return with(b -> b.baseUrls = given);
  }

  /**
   * How a request's replica is chosen when {@link #baseUrls} gives several:
   * {@code round-robin} (each in turn, the default; AIPerf's {@code round_robin}) or
   * {@code least-in-flight} (the one with the fewest requests in flight, the first on a tie).
   */
  public LlmProtocolBuilder baseUrlStrategy(String strategy) {
    TargetChooser.Strategy parsed = TargetChooser.Strategy.parse(strategy);
    return with(b -> b.baseUrlStrategy = parsed);
  }

  /** Model id: sent as {@code model} unless a served name is set; names the result file. */
  public LlmProtocolBuilder model(String modelId) {
    if (modelId == null || modelId.isBlank()) {
      throw new IllegalArgumentException("model must not be empty: give the id of the model "
          + "the server serves (its /v1/models lists them; the ready simulations take it from "
          + "-Dllm.model=<model id>)");
    }
    return with(b -> b.model = modelId);
  }

  /** Name the server knows the model by, when it differs from the model id. */
  public LlmProtocolBuilder servedModelName(String name) {
    return with(b -> b.servedModelName = Require.text("servedModelName", name));
  }

  /**
   * Backend label for the result file ({@code vllm}, {@code openai}, ...); default vllm. It
   * changes neither the requests nor the metrics; with {@code vllm}, which names vLLM's own
   * server, that server's {@code /metrics} is scraped unless {@link #serverMetrics} says
   * otherwise.
   */
  public LlmProtocolBuilder backend(String name) {
    return with(b -> b.backend = Require.text("backend", name));
  }

  /**
   * Sends {@code Authorization: Bearer <value of the variable>}. The key is read from the
   * environment when the simulation starts and is never logged or written. Without this call
   * {@code OPENAI_API_KEY} is used when set, as {@code vllm bench serve} does, unless
   * {@link #header} sets an Authorization header of its own.
   */
  public LlmProtocolBuilder apiKeyFromEnv(String variable) {
    Require.text("apiKeyFromEnv", variable);
    return with(b -> {
      b.apiKeyEnv = variable;
      b.apiKeyEnvExplicit = true;
    });
  }

  /**
   * Sets a header on every request. Names ignore case, and a later call for the same name
   * replaces the earlier value, as does a user value for a header the client sends itself
   * ({@code User-Agent}, {@code Accept}). An {@code Authorization} header set here wins over
   * the default {@code OPENAI_API_KEY} (with a warning); together with an explicit
   * {@link #apiKeyFromEnv} it is an error.
   */
  public LlmProtocolBuilder header(String name, String value) {
    Require.headerName(name);
    Objects.requireNonNull(value, "header value");
    return with(b -> {
      b.headers.keySet().removeIf(existing -> existing.equalsIgnoreCase(name));
      b.headers.put(name, value);
    });
  }

  /** Prefix of the {@code x-request-id} header; the request number follows it. */
  public LlmProtocolBuilder requestIdPrefix(String prefix) {
    return with(b -> b.requestIdPrefix = Objects.requireNonNull(prefix, "requestIdPrefix"));
  }

  public LlmProtocolBuilder connectTimeout(Duration timeout) {
    return with(b -> b.connectTimeout = Require.positive("connectTimeout", timeout));
  }

  /** Longest wait from send to the first content chunk; none by default. */
  public LlmProtocolBuilder firstTokenTimeout(Duration timeout) {
    return with(b -> b.firstTokenTimeout = Require.positive("firstTokenTimeout", timeout));
  }

  /** Longest silence between two reads of a response; default 2 minutes. */
  public LlmProtocolBuilder idleTimeout(Duration timeout) {
    return with(b -> b.idleTimeout = Require.positive("idleTimeout", timeout));
  }

  /** Longest whole request, send to end of stream; default 10 minutes. */
  public LlmProtocolBuilder requestTimeout(Duration timeout) {
    return with(b -> b.requestTimeout = Require.positive("requestTimeout", timeout));
  }

  /**
   * What to write after the run (vLLM result JSON, detailed arrays, pytorch file, summary)
   * and the goodput SLOs; see {@link ResultOptions}. Written by {@code LlmDsl.writeResults}.
   */
  public LlmProtocolBuilder results(ResultOptions options) {
    return with(b -> b.results = Objects.requireNonNull(options, "results"));
  }

  public LlmProtocolBuilder results(ResultOptions.Builder options) {
    return results(options.build());
  }

  /**
   * The run's arrival process (request rate, burstiness, ramp-up, replay, max concurrency):
   * the one place a simulation gives its profile. Inject the paced scenarios with
   * {@link #injection()}, which brings the users in on this profile. Each user's first request
   * waits for its slot ({@code LlmDsl.awaitArrival()} places the wait elsewhere); the
   * profile's parameters go into the result file.
   */
  public LlmProtocolBuilder arrivals(ArrivalProfile profile) {
    return with(b -> b.arrivals = Objects.requireNonNull(profile, "arrivals"));
  }

  /**
   * The injection steps that bring in the users of {@link #arrivals}' profile, each between
   * 0.5 s and 2.5 s ahead of its arrival slot and never after it: Gatling ramps each second's
   * users evenly over its milliseconds, so a burst of starts never holds an event loop, and a
   * steady rate is one long ramp, so Gatling's injector stays cheap ({@link InjectionPlan};
   * runs longer than 2,000 s widen the one-second cells, keeping at most 2,000 of them). On
   * one injector of a scaled-out benchmark ({@code -Dllm.injector=K/N}, see {@link ScaleOut})
   * only the users of its share.
   *
   * <pre>{@code
   * var llm = llm().baseUrl(url).model("m").arrivals(poisson);
   * setUp(scenario("bench")....injectOpen(llm.injection())).protocols(llm);
   * }</pre>
   *
   * @throws IllegalStateException when no profile was given with {@link #arrivals}
   */
  public OpenInjectionStep[] injection() {
    if (arrivals == null) {
      throw new IllegalStateException("llm().injection() brings users in on the protocol's "
          + "arrival profile, and it has none: give it one first, llm().arrivals(profile)");
    }
    return InjectionPlan.of(ScaleOut.current().share().schedule(arrivals)).steps()
        .toArray(new OpenInjectionStep[0]);
  }

  /**
   * At most this many requests in flight ({@code --max-concurrency}); the others wait
   * client-side for a free slot, and their clock starts when they are actually sent.
   */
  public LlmProtocolBuilder maxConcurrency(int max) {
    Require.atLeast("maxConcurrency", max, 1);
    return with(b -> b.maxConcurrency = max);
  }

  /**
   * The tokenizer that counts the output of responses that carry no {@code usage}; its
   * {@link Tokenizer#id()} is the result file's {@code tokenizer_id}. Give it the tokenizer
   * the datasets were sampled with, so that prompts and output are counted alike. Without
   * one, the shipped GPT-2 tokenizer counts and the file says {@code gpt2}.
   */
  public LlmProtocolBuilder tokenizer(Tokenizer tokenizer) {
    Objects.requireNonNull(tokenizer, "tokenizer");
    return tokenCounter(tokenizer.id(), tokenizer::count);
  }

  /**
   * Counts output tokens of responses that carry no {@code usage} (text without special
   * tokens) with any function; {@code tokenizerId} names it in the result file. Prefer
   * {@link #tokenizer(Tokenizer)}.
   */
  public LlmProtocolBuilder tokenCounter(String tokenizerId, ToIntFunction<String> counter) {
    Require.text("tokenizerId", tokenizerId);
    Objects.requireNonNull(counter, "token counter");
    return with(b -> {
      b.tokenizerId = tokenizerId;
      b.tokenCounter = counter;
    });
  }

  /**
   * Idle connections older than this are not reused (default 4 s). Keep it below the
   * server's keep-alive timeout (uvicorn: 5 s, gunicorn: 2 s).
   */
  public LlmProtocolBuilder keepAliveTimeout(Duration timeout) {
    return with(b -> b.keepAliveTimeout = Require.positive("keepAliveTimeout", timeout));
  }

  /**
   * Accepts any TLS certificate, self-signed and expired ones included, and skips the host
   * name check: for a test server with a self-signed certificate. Off by default, where such
   * a server fails every request with {@code TLS handshake failed: ...}. The traffic is still
   * encrypted, but no longer authenticated: never use it across a network you do not trust.
   */
  public LlmProtocolBuilder insecureTls() {
    return with(b -> b.insecureTls = true);
  }

  /**
   * Ends the run at the first finished request that shows the server did not do what it was
   * asked ({@code --stop-on-server-noncompliance}): more output tokens than the limit, a model
   * it does not serve or list, no {@code usage}, ... (the server compliance checks). Without
   * it each such finding is one WARN line during the run and the run goes on. The results of
   * the requests finished so far are written; {@code server_compliance.stop} says when and
   * why. The same as {@code ResultOptions}' {@code stopOnServerNonCompliance(true)}, in
   * whichever order it and {@link #results} are called.
   */
  public LlmProtocolBuilder stopOnServerNonCompliance() {
    return with(b -> b.stopOnServerNonCompliance = true);
  }

  /**
   * Scrapes the server's Prometheus metrics every second during the run (requests running and
   * waiting, KV-cache usage, prefix-cache hits) for the LLM report and the result JSON's
   * {@code server_metrics}. {@code pathOrUrl} is a path on the base URL's host
   * ({@code /metrics}) or a whole URL. On by default at {@code /metrics} for the {@code vllm}
   * backend; a 404 turns it off with one log line.
   */
  public LlmProtocolBuilder serverMetrics(String pathOrUrl) {
    String value = Require.text("serverMetrics", pathOrUrl).trim();
    if (!value.startsWith("/")) {
      Target.parse(value);
    }
    return with(b -> b.serverMetrics = value);
  }

  /**
   * Scrapes an NVIDIA DCGM exporter's Prometheus endpoint (its {@code /metrics}, port 9400 by
   * default) over the benchmark window for the GPUs' energy
   * ({@code DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION}) and power ({@code DCGM_FI_DEV_POWER_USAGE}):
   * the result JSON's {@code gpu_energy} (joules per output token, output tokens per joule,
   * average and peak watts per GPU), the summary and the LLM report. Call it once per
   * exporter (one per node). {@code url} is a whole URL; without a path {@code /metrics} is
   * scraped. No header of the run is sent to it. A scrape that fails is a warning in the
   * results, never a failed run.
   */
  public LlmProtocolBuilder gpuMetrics(String url) {
    URI uri = MetricsEndpoints.gpuExporter(Require.text("gpuMetrics", url).trim());
    return with(b -> b.gpuMetrics = appended(b.gpuMetrics, uri));
  }

  /**
   * Hands the run's parts (its setup, pacing, measures, requests and start) to {@code
   * starter} as soon as they exist, before the warm-up and the first send: for what the
   * plugin adds to a run while it is built, such as the drop-in's probe requests
   * ({@code --probe-request-rate}). An argument of the protocol, so it reaches this run and
   * no other. Package-private: the parts are internal; the plugin reaches it through
   * {@link ProtocolAccess}.
   */
  LlmProtocolBuilder onStart(Consumer<RunParts> starter) {
    Objects.requireNonNull(starter, "starter");
    return with(b -> b.onStart = appended(b.onStart, starter));
  }

  /**
   * Exports the run's live figures over OTLP (HTTP/protobuf) to an OpenTelemetry collector,
   * Prometheus' OTLP receiver or any OTLP backend, every few seconds while it runs and once at
   * its end: requests started, completed, failed and in flight, input and output tokens,
   * output tokens per second, TTFT, ITL and E2EL histograms and the client self-check's loop
   * lag, labelled with the model, the backend and the run (docs/live-figures.md). Off by
   * default; an endpoint that cannot be reached is one warning, never a failed run.
   *
   * @param endpoint the collector's address ({@code http://127.0.0.1:4318}, to which
   *                 {@code /v1/metrics} is appended unless the path already ends with it), or
   *                 {@code env} for {@code OTEL_EXPORTER_OTLP_METRICS_ENDPOINT} /
   *                 {@code OTEL_EXPORTER_OTLP_ENDPOINT}. Headers (an API key) come from
   *                 {@code OTEL_EXPORTER_OTLP_HEADERS}, the interval from
   *                 {@code OTEL_METRIC_EXPORT_INTERVAL} (else 5 s).
   */
  public LlmProtocolBuilder otlp(String endpoint) {
    String value = Require.text("otlp", endpoint).strip();
    if (!value.equalsIgnoreCase(OtlpSettings.FROM_ENVIRONMENT)) {
      OtlpSettings.resolve(value, null, name -> null); // a bad URL is refused here
    }
    return with(b -> b.otlpEndpoint = value);
  }

  /** {@link #otlp(String)}, exporting every {@code interval} (over the environment's). */
  public LlmProtocolBuilder otlp(String endpoint, Duration interval) {
    Require.positive("otlp interval", interval);
    LlmProtocolBuilder b = otlp(endpoint);
    return b.with(c -> c.otlpInterval = interval);
  }

  /**
   * Cancels this share of the requests (0 to 1), as users who leave before the answer ends
   * ({@code --cancel-fraction}): the client closes the request's connection, as a browser
   * closes a tab's, at the point {@link #cancelAfterTokens} or {@link #cancelAfter} sets. The
   * requests are picked from the arrival profile's seed, exactly that share to within one
   * request. A cancelled request is neither completed nor failed: the result counts it as
   * {@code cancelled}, and Gatling logs it OK under its own name ({@code <request> cancelled}).
   */
  public LlmProtocolBuilder cancelFraction(double fraction) {
    if (!(fraction >= 0 && fraction <= 1)) {
      throw new IllegalArgumentException("cancelFraction must be from 0 to 1, got " + fraction);
    }
    return with(b -> b.cancelFraction = fraction);
  }

  /**
   * A cancelled request is cancelled once it received {@code tokens} content chunks (one token
   * each from vLLM) ({@code --cancel-after-tokens}).
   */
  public LlmProtocolBuilder cancelAfterTokens(int tokens) {
    Require.atLeast("cancelAfterTokens", tokens, 1);
    return with(b -> b.cancelAfter = CancelAfter.chunks(tokens));
  }

  /**
   * A cancelled request is cancelled this long after it was written ({@code --cancel-after-ms};
   * AIPerf's {@code --request-cancellation-delay} counts from the same point).
   */
  public LlmProtocolBuilder cancelAfter(Duration delay) {
    if (delay == null || delay.isNegative()) {
      throw new IllegalArgumentException("cancelAfter must be a duration of 0 or more, got "
          + delay);
    }
    return with(b -> b.cancelAfter = CancelAfter.millis(delay.toMillis()));
  }

  /** No scraping of the server's metrics. */
  public LlmProtocolBuilder noServerMetrics() {
    return with(b -> b.serverMetrics = "");
  }

  /** Where environment variables are read from; for tests. */
  LlmProtocolBuilder environment(Function<String, String> env) {
    return with(b -> b.environment = Objects.requireNonNull(env));
  }

  /**
   * Builds the protocol from what was given to this builder, and nothing else.
   *
   * @throws IllegalArgumentException when a value is missing or two settings disagree
   */
  @Override
  public LlmProtocol protocol() {
    if (baseUrls.isEmpty()) {
      throw new IllegalArgumentException("llm protocol: baseUrl(...) is required");
    }
    if (model == null) {
      throw new IllegalArgumentException("llm protocol: model(...) is required");
    }
    String key = ApiKey.resolve(environment, apiKeyEnv, apiKeyEnvExplicit, headers);
    Integer cap = Require.sameConcurrency(maxConcurrency, arrivals);
    Cancellation cancellation = Require.cancellation(cancelFraction, cancelAfter, arrivals);
    List<Target> targets = baseUrls.stream().map(Target::parse).toList();
    Target target = targets.get(0);
    return new LlmProtocol(target, model, servedModelName, backend, key,
        headers, requestIdPrefix, connectTimeout, firstTokenTimeout, idleTimeout, requestTimeout,
        keepAliveTimeout, stopOnServerNonCompliance
            ? results.toBuilder().stopOnServerNonCompliance(true).build() : results,
        tokenizerId, tokenCounter, arrivals, cap, warmUp,
        MetricsEndpoints.server(serverMetrics, backend, targets),
        MetricsEndpoints.specDecode(serverMetrics, targets), insecureTls, onStart,
        gpuMetrics,
        otlpEndpoint == null ? null
            : OtlpSettings.resolve(otlpEndpoint, otlpInterval, environment), cancellation,
        targets, baseUrlStrategy);
  }

  private static <T> List<T> appended(List<T> list, T item) {
    List<T> all = new ArrayList<>(list);
    all.add(item);
    return List.copyOf(all);
  }
}
