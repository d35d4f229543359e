package dev.gatlingllm.protocol;

import io.gatling.core.CoreComponents;
import io.gatling.core.config.GatlingConfiguration;
import io.gatling.core.protocol.Protocol;
import io.gatling.core.protocol.ProtocolKey;
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

  @Override
  public Function1<LlmProtocol, LlmComponents> newComponents(CoreComponents coreComponents) {
    return protocol -> new LlmComponents(coreComponents, protocol);
  }
}
