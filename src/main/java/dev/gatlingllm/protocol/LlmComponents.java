package dev.gatlingllm.protocol;

import dev.gatlingllm.client.ClientConfig;
import dev.gatlingllm.client.LlmClient;
import dev.gatlingllm.client.WarmUp;
import dev.gatlingllm.metrics.RecordStore;
import dev.gatlingllm.report.RunInfo;
import io.gatling.core.CoreComponents;
import io.gatling.core.config.NettyConfiguration;
import io.gatling.core.protocol.ProtocolComponents;
import io.gatling.core.session.Session;
import io.gatling.netty.util.Transports;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Function1;
import scala.runtime.BoxedUnit;

/**
 * Per-run state of the protocol: the client, the record store and the request counter. One
 * instance per simulation run, created by Gatling through {@link LlmProtocolKey}.
 */
public final class LlmComponents implements ProtocolComponents {

  private static final Logger LOG = LoggerFactory.getLogger(LlmComponents.class);

  private final CoreComponents core;
  private final LlmProtocol protocol;
  private final LlmClient client;
  private final RecordStore store = new RecordStore();
  private final AtomicLong requestCounter = new AtomicLong();
  private final AtomicLong firstSendNanos = new AtomicLong(Long.MAX_VALUE);
  private final HttpHeaders baseHeaders;
  private final Set<String> endpointTypes = ConcurrentHashMap.newKeySet();

  LlmComponents(CoreComponents core, LlmProtocol protocol) {
    this.core = core;
    this.protocol = protocol;
    NettyConfiguration netty = core.configuration().netty();
    this.client = new LlmClient(
        Transports.newSocketChannelFactory(netty.useNativeTransport(), netty.useIoUring()),
        new ClientConfig(protocol.target(), protocol.connectTimeout(),
            protocol.firstTokenTimeout(), protocol.idleTimeout(), protocol.requestTimeout()));
    HttpHeaders headers = new DefaultHttpHeaders();
    protocol.headers().forEach(headers::add);
    if (protocol.apiKey() != null) {
      headers.set(HttpHeaderNames.AUTHORIZATION, "Bearer " + protocol.apiKey());
    }
    this.baseHeaders = headers;
    warmUp();
    LlmRun.register(this);
  }

  private void warmUp() {
    WarmUp.pipeline();
    String problem = WarmUp.connect(client, core.eventLoopGroup().next());
    if (problem != null) {
      LOG.warn("cannot reach {} before the run ({}): requests will fail until it is up",
          protocol.target(), problem);
    }
  }

  public CoreComponents core() {
    return core;
  }

  public LlmProtocol protocol() {
    return protocol;
  }

  public LlmClient client() {
    return client;
  }

  public RecordStore store() {
    return store;
  }

  /** Headers of every request: user headers and authorization. Do not log. */
  public HttpHeaders baseHeaders() {
    return baseHeaders;
  }

  /** The next {@code x-request-id}: prefix followed by a run-wide counter from 0. */
  public String nextRequestId() {
    return protocol.requestIdPrefix() + requestCounter.getAndIncrement();
  }

  /** Records that a request of this endpoint type ({@code completions}, {@code chat}) exists. */
  public void registerEndpointType(String type) {
    endpointTypes.add(type);
  }

  /** The run's parameters for the result file. */
  public RunInfo runInfo() {
    boolean chatOnly = endpointTypes.equals(Set.of("chat"));
    return RunInfo.builder(protocol.model())
        .backend(protocol.backend())
        .endpointType(chatOnly ? "openai-chat" : protocol.backend())
        .tokenizerId(protocol.tokenizerId())
        .build();
  }

  /** Marks a send; the earliest one is the start of the benchmark duration. */
  public void markSend(long nanos) {
    firstSendNanos.accumulateAndGet(nanos, Math::min);
  }

  /** When the first request of the run was sent, or -1 when none was. */
  public long firstSendNanos() {
    long v = firstSendNanos.get();
    return v == Long.MAX_VALUE ? -1 : v;
  }

  @Override
  public Function1<Session, Session> onStart() {
    return session -> session;
  }

  @Override
  public Function1<Session, BoxedUnit> onExit() {
    return ProtocolComponents.NoopOnExit();
  }
}
