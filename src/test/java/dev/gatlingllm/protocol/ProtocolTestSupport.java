package dev.gatlingllm.protocol;

import java.util.Map;

/** Lets simulations in other test packages give a protocol a made-up environment. */
public final class ProtocolTestSupport {

  private ProtocolTestSupport() {}

  /** The builder, reading environment variables (the API key) from {@code env} only. */
  public static LlmProtocolBuilder withEnvironment(LlmProtocolBuilder builder,
      Map<String, String> env) {
    return builder.environment(env::get);
  }
}
