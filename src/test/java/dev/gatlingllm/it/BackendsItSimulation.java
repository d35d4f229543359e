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
import dev.gatlingllm.dataset.Datasets;
import dev.gatlingllm.tokenizer.Tokenizer;
import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.Simulation;
import java.util.List;
import java.util.Map;

/**
 * A few requests of one backend ({@value #KIND}: embeddings, rerank, audio, reasoning chat or
 * Responses)
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
      case "responses" -> {
        backend = "openai-responses";
        request = LlmDsl.responses("respond").prompt("why is the sky blue")
            .systemPrompt("be brief").maxTokens(5);
      }
      case "random-mm" -> {
        backend = "openai-chat";
        request = chat("vision").fromDataset().multiModal("#{mm_content}");
      }
      case "random-rerank" -> {
        backend = "vllm-rerank";
        request = rerank("rerank").fromDataset();
      }
      default -> throw new IllegalArgumentException("unknown it.kind " + kind);
    }
    var feeder = switch (kind) {
      case "random-mm" -> Datasets.fromArgs("--dataset-name", "random-mm", "--random-input-len",
          "12", "--random-output-len", "3", "--num-prompts", "" + USERS,
          "--random-mm-bucket-config", "{(16, 24, 1): 1.0}").sample(Tokenizer.gpt2()).feeder();
      case "random-rerank" -> Datasets.fromArgs("--dataset-name", "random-rerank",
          "--random-input-len", "20", "--random-batch-size", "2", "--num-prompts",
          "" + 2 * USERS).sample(Tokenizer.gpt2()).feeder();
      default -> null;
    };
    var scenario = feeder == null ? scenario(kind).exec(request)
        : scenario(kind).feed(feeder).exec(request);
    setUp(scenario.injectOpen(atOnceUsers(USERS)))
        .protocols(llm().baseUrl(System.getProperty(BASE_URL)).model("org/served-llm")
            .servedModelName("served-llm").backend(backend).noWarmUp()
            .results(results().percentileMetrics("ttft,tpot,itl,e2el").metricPercentiles("50,99")))
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  public void after() {
    LlmDsl.writeResults(this);
  }
}
