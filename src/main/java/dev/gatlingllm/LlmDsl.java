package dev.gatlingllm;

import dev.gatlingllm.action.AudioRequestBuilder;
import dev.gatlingllm.action.EmbeddingsRequestBuilder;
import dev.gatlingllm.action.LlmActions;
import dev.gatlingllm.action.LlmRequestBuilder;
import dev.gatlingllm.action.RerankRequestBuilder;
import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.arrival.InjectionPlan;
import dev.gatlingllm.protocol.LlmProtocolBuilder;
import dev.gatlingllm.protocol.RunResults;
import dev.gatlingllm.report.ReportOutcome;
import dev.gatlingllm.report.ResultOptions;
import dev.gatlingllm.scale.ScaleOut;
import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.OpenInjectionStep;
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

  /**
   * An embeddings request ({@code /v1/embeddings}): a pooling request with vLLM's reduced
   * metric set; {@code variant(...)} picks the body of another vLLM embeddings backend.
   */
  public static EmbeddingsRequestBuilder embeddings(String name) {
    return EmbeddingsRequestBuilder.embeddings(name);
  }

  /** A rerank request ({@code /v1/rerank}, vLLM's {@code vllm-rerank}): a pooling request. */
  public static RerankRequestBuilder rerank(String name) {
    return RerankRequestBuilder.rerank(name);
  }

  /**
   * A streamed transcription ({@code /v1/audio/transcriptions}; {@code .translations()} for
   * {@code /v1/audio/translations}), uploaded as vLLM's {@code openai-audio} backend does.
   */
  public static AudioRequestBuilder audio(String name) {
    return AudioRequestBuilder.of(name);
  }

  /**
   * An arrival process like {@code vllm bench serve}'s: request rate (Poisson, or gamma with
   * a burstiness), linear / exponential ramp-up, replay of recorded times, max concurrency,
   * seed. Give it to the protocol ({@code llm().arrivals(profile)}), inject with
   * {@link #injection(ArrivalProfile)} and start the scenario with {@link #awaitArrival()}.
   */
  public static ArrivalProfile.Builder arrivals() {
    return ArrivalProfile.builder();
  }

  /**
   * The injection steps that bring the profile's users in, each between 0.5 s and 2.5 s
   * ahead of its arrival slot and never after it: Gatling ramps each second's users evenly
   * over its milliseconds, so a burst of starts never holds an event loop, and a steady rate
   * is one long ramp, so Gatling's injector stays cheap ({@link InjectionPlan}; runs longer
   * than 2,000 s widen the one-second cells, keeping at most 2,000 of them). On one injector of a scaled-out benchmark ({@code -Dllm.injector=K/N},
   * see {@link ScaleOut}) only the users of its share.
   */
  public static OpenInjectionStep[] injection(ArrivalProfile profile) {
    return InjectionPlan.of(ScaleOut.current().share().schedule(profile)).steps()
        .toArray(new OpenInjectionStep[0]);
  }

  /** Holds each user until its slot of the protocol's arrival profile. */
  public static ActionBuilder awaitArrival() {
    return LlmActions.awaitArrival();
  }

  /** Options of the result files, as {@code vllm bench serve}'s flags. */
  public static ResultOptions.Builder results() {
    return ResultOptions.builder();
  }

  /**
   * Call from your simulation's {@code after()}: prints vLLM's summary and writes the result
   * JSON into the Gatling run folder, next to {@code index.html}. Never throws (an exception
   * there would cost the HTML report); problems are logged and returned, and the JVM exits
   * with status 3 once Gatling's report is written, which fails {@code gatling:test}
   * ({@code -Dllm.failOnResultError=false} to keep the exit status).
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
