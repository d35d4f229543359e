package dev.gatlingllm.internal.protocol;

import dev.gatlingllm.internal.client.ClientConfig;
import dev.gatlingllm.internal.client.LlmClient;
import dev.gatlingllm.internal.client.Target;
import dev.gatlingllm.internal.scale.InjectorRun;
import dev.gatlingllm.internal.scale.InjectorShare;
import dev.gatlingllm.internal.scale.ScaleOut;
import io.gatling.core.CoreComponents;
import io.gatling.core.config.NettyConfiguration;
import io.gatling.netty.util.Transports;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a run is made of while its simulation is built, before any user starts: Gatling's core
 * components, the protocol, the client, the headers every request carries, how output tokens
 * are counted, and this injector's share of a (scaled-out) benchmark. Made once per run and
 * shared unchanged by the rehearsal's copies of it. Public for the request actions, the
 * rehearsal and the probes, which read the protocol, the client, the loops and the share.
 */
public final class RunSetup {

  private final CoreComponents core;
  private final LlmProtocol protocol;
  private final LlmClient client;
  private final HttpHeaders baseHeaders;
  private final OutputTokens outputTokens;
  private final InjectorShare share;
  /** Scale-out state (clock offset, common start); null when no scale-out was asked for. */
  private final InjectorRun injector;
  /** See {@link #settingsHash(LlmProtocol, InjectorShare)}; null without scale-out. */
  private final String settingsHash;

  private RunSetup(CoreComponents core, LlmProtocol protocol, LlmClient client,
      HttpHeaders baseHeaders, InjectorShare share, InjectorRun injector) {
    this.core = core;
    this.protocol = protocol;
    this.client = client;
    this.baseHeaders = baseHeaders;
    this.outputTokens = new OutputTokens(protocol.tokenCounter());
    this.share = share;
    this.injector = injector;
    this.settingsHash = injector == null ? null : settingsHash(protocol, share);
  }

  /**
   * Makes the client and joins the scale-out, if asked for.
   *
   * @throws IllegalArgumentException when scale-out is asked for without an arrival schedule
   */
  static RunSetup build(CoreComponents core, LlmProtocol protocol) {
    LlmClient client = newClient(core, new ClientConfig(protocol.target(),
        protocol.connectTimeout(), protocol.firstTokenTimeout(), protocol.idleTimeout(),
        protocol.requestTimeout(), protocol.keepAliveTimeout(), protocol.insecureTls(),
        protocol.targets(), protocol.targetStrategy()));
    HttpHeaders headers = new DefaultHttpHeaders();
    protocol.headers().forEach(headers::add);
    if (protocol.apiKey() != null) {
      headers.set(HttpHeaderNames.AUTHORIZATION, "Bearer " + protocol.apiKey());
    }
    ScaleOut scale = ScaleOut.current();
    if (scale.requested() && protocol.arrivals().isEmpty()) {
      throw new IllegalArgumentException("scale-out (-D" + ScaleOut.INJECTOR_PROPERTY + ", "
          + "JOB_COMPLETION_INDEX or -D" + ScaleOut.START_AT_PROPERTY + ") splits and starts an "
          + "arrival schedule: give the protocol one, llm().arrivals(profile), and inject the "
          + "scenario with .injectOpen(llm.injection())");
    }
    InjectorRun injector = scale.requested() ? InjectorRun.start(scale, URI.create(protocol
        .target().toString()), protocol.insecureTls()) : null;
    return new RunSetup(core, protocol, client, headers, scale.share(), injector);
  }

  private static LlmClient newClient(CoreComponents core, ClientConfig config) {
    NettyConfiguration netty = core.configuration().netty();
    return new LlmClient(
        Transports.newSocketChannelFactory(netty.useNativeTransport(), netty.useIoUring()),
        config);
  }

  /**
   * This setup with a client of its own aimed at {@code target}, for a warm-up whose requests
   * must not reach the run's server (see {@link StandInWarmUp}): the same loops, protocol and
   * timeouts, no scale-out, and no authorization header (the run's key stays with the run).
   * The caller closes the client.
   */
  RunSetup standIn(Target target) {
    ClientConfig run = client.config();
    LlmClient own = newClient(core, new ClientConfig(target, run.connectTimeout(),
        run.firstTokenTimeout(), run.idleTimeout(), run.requestTimeout(),
        run.keepAliveTimeout(), false));
    HttpHeaders headers = baseHeaders.copy();
    headers.remove(HttpHeaderNames.AUTHORIZATION);
    return new RunSetup(core, protocol, own, headers, share, null);
  }

  CoreComponents core() {
    return core;
  }

  public LlmProtocol protocol() {
    return protocol;
  }

  public LlmClient client() {
    return client;
  }

  /** The user's headers and the authorization, shared by every request of the run. */
  HttpHeaders baseHeaders() {
    return baseHeaders;
  }

  /** The {@link #baseHeaders()} as a map, for the auxiliary calls (model list, metrics). */
  Map<String, String> headerMap() {
    Map<String, String> out = new LinkedHashMap<>();
    baseHeaders.forEach(e -> out.put(e.getKey(), e.getValue()));
    return out;
  }

  public OutputTokens outputTokens() {
    return outputTokens;
  }

  public InjectorShare share() {
    return share;
  }

  /** Null when no scale-out was asked for. */
  InjectorRun injector() {
    return injector;
  }

  /** Null without scale-out. */
  String settingsHash() {
    return settingsHash;
  }

  /** Gatling's event loops, in the order its group hands them out. */
  public List<EventLoop> eventLoops() {
    List<EventLoop> loops = new ArrayList<>();
    core.eventLoopGroup().forEach(e -> loops.add((EventLoop) e));
    return loops;
  }

  /**
   * Hash of what makes the benchmark, the same on each of its injectors: model, backend,
   * tokenizer, arrival profile (rate, burstiness, ramp, seed, count, replay), the whole max
   * concurrency, the number of injectors, the common start, the label and the digest of the
   * dataset sample fed through {@code Samples.feeder()}. Not the injector's index.
   */
  private static String settingsHash(LlmProtocol protocol, InjectorShare share) {
    List<String> parts = new ArrayList<>();
    parts.add("model=" + protocol.model());
    parts.add("backend=" + protocol.backend());
    parts.add("tokenizer=" + protocol.tokenizerId());
    parts.add("arrivals=" + protocol.arrivals().map(Object::toString).orElse("none"));
    parts.add("max_concurrency=" + protocol.maxConcurrency().map(String::valueOf).orElse("none"));
    parts.add("injectors=" + share.count());
    ScaleOut scale = ScaleOut.current();
    parts.add("start=" + scale.startAt().map(Object::toString)
        .orElse(scale.barrier().isPresent() ? "barrier" : "none"));
    parts.add("label=" + protocol.results().label());
    parts.add("dataset=" + ScaleOut.dataset().orElse("none"));
    return ScaleOut.digest(parts);
  }
}
