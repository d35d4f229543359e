package dev.gatlingllm;

import dev.gatlingllm.action.LlmRequestBuilder;
import dev.gatlingllm.protocol.LlmProtocolBuilder;

/**
 * Entry point of the gatling-llm DSL: {@code import static dev.gatlingllm.LlmDsl.*;}
 *
 * <pre>{@code
 * LlmProtocolBuilder llm = llm().baseUrl("http://127.0.0.1:8000").model("my-model");
 * ScenarioBuilder scn = scenario("bench")
 *     .exec(completions("generate").prompt("Hello").maxTokens(64));
 * }</pre>
 */
public final class LlmDsl {

  private LlmDsl() {}

  /** A protocol to configure: base URL, model, authentication, timeouts. */
  public static LlmProtocolBuilder llm() {
    return new LlmProtocolBuilder();
  }

  /** A streamed {@code /v1/completions} request. */
  public static LlmRequestBuilder completions(String name) {
    return LlmRequestBuilder.completions(name);
  }

  /** A streamed {@code /v1/chat/completions} request. */
  public static LlmRequestBuilder chat(String name) {
    return LlmRequestBuilder.chat(name);
  }
}
