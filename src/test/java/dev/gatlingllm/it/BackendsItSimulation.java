package dev.gatlingllm.it;

import static dev.gatlingllm.LlmDsl.audio;
import static dev.gatlingllm.LlmDsl.chat;
import static dev.gatlingllm.LlmDsl.embeddings;
import static dev.gatlingllm.LlmDsl.llm;
import static dev.gatlingllm.LlmDsl.rerank;
import static dev.gatlingllm.LlmDsl.results;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import dev.gatlingllm.LlmDsl;
import dev.gatlingllm.action.EmbeddingsVariant;
import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.Simulation;
import java.util.List;
import java.util.Map;

/**
 * A few requests of one backend ({@value #KIND}: embeddings, rerank, audio or reasoning chat)
 * against the simulator, with the result JSON written under vLLM's file name.
 */
public class BackendsItSimulation extends Simulation {

  static final String BASE_URL = "it.baseUrl";
  static final String KIND = "it.kind";
  static final int USERS = 4;

  {
    String kind = System.getProperty(KIND);
    String backend;
    ActionBuilder request;
    switch (kind) {
      case "embeddings" -> {
        backend = "openai-embeddings-chat";
        request = embeddings("embed").variant(EmbeddingsVariant.OPENAI_CHAT)
            .input(s -> "text number " + s.userId())
            .multiModal(s -> Map.of("type", "image_url",
                "image_url", Map.of("url", "data:image/png;base64,iVBORw0KGgo=")));
      }
      case "rerank" -> {
        backend = "vllm-rerank";
        request = rerank("rerank").query("which is best")
            .documents(s -> List.of("one doc", "two doc", "three doc"));
      }
      case "audio" -> {
        backend = "openai-audio";
        request = audio("transcribe").audio(s -> new byte[9_600]).maxTokens(5);
      }
      case "reasoning" -> {
        backend = "openai-chat";
        request = chat("think").prompt("why is the sky blue").maxTokens(6);
      }
      default -> throw new IllegalArgumentException("unknown it.kind " + kind);
    }
    setUp(scenario(kind).exec(request).injectOpen(atOnceUsers(USERS)))
        .protocols(llm().baseUrl(System.getProperty(BASE_URL)).model("org/sim-model")
            .servedModelName("sim-model").backend(backend).noWarmUp()
            .results(results().percentileMetrics("ttft,tpot,itl,e2el").metricPercentiles("50,99")))
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  public void after() {
    LlmDsl.writeResults(this);
  }
}
