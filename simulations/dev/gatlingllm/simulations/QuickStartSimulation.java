package dev.gatlingllm.simulations;

import static dev.gatlingllm.LlmDsl.*;
import static io.gatling.javaapi.core.CoreDsl.*;
import static java.time.Duration.*;

import io.gatling.javaapi.core.Simulation;
import java.util.ArrayList;
import java.util.List;

/**
 * The benchmark {@code ./mvnw gatling:test} runs by default: vLLM's random dataset, Poisson
 * arrivals, streamed requests, vLLM's summary and result JSON.
 *
 * <p>Against your server: {@code -Dllm.baseUrl=http://host:8000 -Dllm.model=<model id>}
 * (and {@code -Dllm.tokenizer=<tokenizer.json path or Hugging Face id>} for exact prompt
 * lengths; GPT-2 otherwise). Without a base URL it starts the embedded simulator and
 * benchmarks it for about 20 seconds. {@code -Dllm.endpoint=chat} sends chat requests,
 * {@code -Dllm.goodput="ttft:100 tpot:20"} sets SLOs and {@code -Dllm.minGoodputPercent=95}
 * turns them into a build gate.
 */
public class QuickStartSimulation extends Simulation {
  String baseUrl = System.getProperty("llm.baseUrl");
  String endpoint = System.getProperty("llm.endpoint", "completions");   // or chat
  String goodput = System.getProperty("llm.goodput");                    // SLOs, e.g. "ttft:100"
  double minGoodput = Double.parseDouble(System.getProperty("llm.minGoodputPercent", "-1"));
  int numPrompts = Integer.getInteger("llm.numPrompts", 200);
  {
    var tokens = tokenizer(System.getProperty("llm.tokenizer"));   // GPT-2 when unset
    var prompts = random().numPrompts(numPrompts).seed(0)
        .inputLen(Integer.getInteger("llm.inputLen", 256))
        .outputLen(Integer.getInteger("llm.outputLen", 64))
        .sample(tokens);
    var gates = new ArrayList<>(List.of(details(endpoint).failedRequests().percent().lt(1.0)));
    if (goodput != null && minGoodput >= 0) {                       // a CI gate on the SLOs
      gates.add(details(endpoint + " goodput").successfulRequests().percent().gte(minGoodput));
    }
    var protocol = llm()
        .baseUrl(baseUrl != null ? baseUrl : startSimulator(simulator().ttft(ofMillis(60))
            .prefillPerToken(ofNanos(50_000)).itl(ofMillis(12)).jitter(0.1)).baseUrl())
        .model(System.getProperty("llm.model", baseUrl == null ? "sim-model" : null))
        .tokenizer(tokens)                    // counts the output as the prompts were
        .results(results().label("quick-start").goodput(goodput)
            .detailed(Boolean.getBoolean("llm.detailed"))
            .percentileMetrics("ttft,tpot,itl,e2el").metricPercentiles("50,90,99"))
        .arrivals(arrivals().numPrompts(numPrompts).seed(0)   // Poisson
            .requestRate(Double.parseDouble(System.getProperty("llm.requestRate", "10")))
            .build());
    setUp(scenario("quick-start")
            .feed(prompts.feeder())
            .exec((endpoint.equals("chat") ? chat(endpoint) : completions(endpoint))
                .fromDataset().ignoreEos(true))
            .injectOpen(protocol.injection()))
        .protocols(protocol)
        .assertions(gates);
  }
}
