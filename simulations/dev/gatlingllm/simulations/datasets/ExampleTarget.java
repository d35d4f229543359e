package dev.gatlingllm.simulations.datasets;

import static dev.gatlingllm.LlmDsl.*;

import java.time.Duration;

/**
 * What the dataset examples benchmark, and the tokenizer that counts their tokens.
 *
 * <ul>
 *   <li>{@code -Dllm.baseUrl=http://host:8000 -Dllm.model=<model id>}: your server.
 *       Without a base URL an embedded simulator is started for the run (model
 *       {@code sim-model}) and stopped once its results are written.
 *   <li>{@code -Dllm.tokenizer=<folder, tokenizer.json or Hugging Face model id>}: the model's
 *       tokenizer, so that prompt and output lengths are counted as your model counts them.
 *       Without it, the GPT-2 tokenizer shipped in {@code datasets/tokenizers/gpt2/}.
 * </ul>
 */
final class ExampleTarget {

  private ExampleTarget() {}

  /**
   * The server's URL. Ask for it after sampling the dataset: a dataset that fails to load
   * then leaves no simulator running.
   */
  static String baseUrl() {
    String configured = System.getProperty("llm.baseUrl");
    // Fast, so the examples stay short; the prefill cost makes TTFT grow with the prompt, as
    // on a real server (counted with the example's tokenizer, which startSimulator gives it).
    return configured != null ? configured : startSimulator(simulator()
        .ttft(Duration.ofMillis(20))
        .prefillPerToken(Duration.ofNanos(20_000))
        .itl(Duration.ofMillis(2))).baseUrl();
  }

  /** The model id: {@code -Dllm.model}, required with {@code -Dllm.baseUrl}. */
  static String model() {
    String model = System.getProperty("llm.model",
        System.getProperty("llm.baseUrl") == null ? "sim-model" : null);
    if (model == null) {
      throw new IllegalArgumentException("-Dllm.model=<model id> is required with -Dllm.baseUrl");
    }
    return model;
  }

  /** The tokenizer to load with {@code tokenizer(...)}: {@code -Dllm.tokenizer}, else GPT-2. */
  static String tokenizerId() {
    return System.getProperty("llm.tokenizer");
  }
}
