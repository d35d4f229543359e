package dev.gatlingllm;

import dev.gatlingllm.action.LlmRequestBuilder;
import dev.gatlingllm.protocol.LlmProtocolBuilder;
import dev.gatlingllm.protocol.RunResults;
import dev.gatlingllm.report.ReportOutcome;
import dev.gatlingllm.report.ResultOptions;
import io.gatling.javaapi.core.Simulation;

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

  /** Options of the result files, as {@code vllm bench serve}'s flags. */
  public static ResultOptions.Builder results() {
    return ResultOptions.builder();
  }

  /**
   * Call from your simulation's {@code after()}: prints vLLM's summary and writes the result
   * JSON into the Gatling run folder, next to {@code index.html}. Never throws (an exception
   * there would cost the HTML report); problems are logged and returned.
   *
   * <pre>{@code
   * @Override
   * public void after() {
   *   LlmDsl.writeResults(this);
   * }
   * }</pre>
   */
  public static ReportOutcome writeResults(Simulation simulation) {
    return RunResults.write(simulation.getClass());
  }
}
