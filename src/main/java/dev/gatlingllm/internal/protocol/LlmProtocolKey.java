package dev.gatlingllm.internal.protocol;

import io.gatling.core.CoreComponents;
import io.gatling.core.config.GatlingConfiguration;
import io.gatling.core.protocol.Protocol;
import io.gatling.core.protocol.ProtocolKey;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import scala.Function1;

/** How Gatling finds our protocol in a simulation and builds its per-run components. */
public final class LlmProtocolKey implements ProtocolKey<LlmProtocol, LlmComponents> {

  public static final LlmProtocolKey INSTANCE = new LlmProtocolKey();

  private LlmProtocolKey() {}

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  public Class<Protocol> protocolClass() {
    return (Class) LlmProtocol.class;
  }

  @Override
  public LlmProtocol defaultProtocolValue(GatlingConfiguration configuration) {
    throw new IllegalArgumentException(
        "no llm protocol configured: add .protocols(LlmDsl.llm().baseUrl(...).model(...)) to setUp");
  }

  /**
   * Gatling asks once per run for this factory but applies it once per scenario: the cache
   * makes every scenario that shares a protocol share one client, record store, limiter,
   * arrival clock and request counter.
   */
  @Override
  public Function1<LlmProtocol, LlmComponents> newComponents(CoreComponents coreComponents) {
    Map<LlmProtocol, LlmComponents> perProtocol = new ConcurrentHashMap<>();
    return protocol -> perProtocol.computeIfAbsent(protocol,
        p -> LlmComponents.open(coreComponents, p));
  }
}
