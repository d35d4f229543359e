package dev.gatlingllm.it;

import static dev.gatlingllm.LlmDsl.chat;
import static dev.gatlingllm.LlmDsl.completions;
import static dev.gatlingllm.LlmDsl.llm;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import dev.gatlingllm.LlmDsl;
import dev.gatlingllm.action.LlmRequestBuilder;
import dev.gatlingllm.internal.sim.SimTokens;
import io.gatling.javaapi.core.Simulation;

/**
 * {@code it.requests} requests of {@code it.endpoint} (chat or completions) at concurrency 4,
 * each asking {@code it.maxTokens} tokens with {@code ignore_eos} for model {@code it.model},
 * with a prompt of {@code it.promptWords} words whose dataset count says as many tokens. A
 * short warm-up, which fetches the server's model list. No request may fail.
 */
public class ComplianceItSimulation extends Simulation {

  static final String BASE_URL = "it.baseUrl";
  static final String ENDPOINT = "it.endpoint";
  static final String MODEL = "it.model";
  static final String MAX_TOKENS = "it.maxTokens";
  static final String PROMPT_WORDS = "it.promptWords";
  static final String REQUESTS = "it.requests";
  /** {@code true}: exit zero asked, so a model the server does not list is run anyway. */
  static final String EXIT_ZERO = "it.exitZero";

  {
    int words = Integer.getInteger(PROMPT_WORDS, 3);
    String prompt = "word ".repeat(words).trim();
    LlmRequestBuilder request = "chat".equals(System.getProperty(ENDPOINT))
        ? chat("gen") : completions("gen");
    setUp(scenario("compliance")
            .exec(request.prompt(prompt).promptTokens(words)
                .maxTokens(Integer.getInteger(MAX_TOKENS, 16)).ignoreEos(true))
            .injectOpen(atOnceUsers(Integer.getInteger(REQUESTS, 20))))
        .protocols(llm().baseUrl(System.getProperty(BASE_URL))
            .model(System.getProperty(MODEL, "served-llm")).maxConcurrency(4).warmUp(2)
            // the simulator's own tokenizer: whitespace-separated words
            .tokenCounter("sim-words", SimTokens::countPromptTokens)
            .results(LlmDsl.results().exitZero(Boolean.getBoolean(EXIT_ZERO))))
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  public void after() {
    LlmDsl.writeResults(this);
  }
}
