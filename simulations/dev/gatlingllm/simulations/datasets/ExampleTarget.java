package dev.gatlingllm.simulations.datasets;

import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import dev.gatlingllm.tokenizer.Tokenizer;
import java.time.Duration;

/**
 * What the dataset examples benchmark, and the tokenizer that counts their prompt tokens.
 *
 * <ul>
 *   <li>{@code -Dllm.baseUrl=http://host:8000 -Dllm.model=<model id>}: your server.
 *       Without a base URL an embedded simulator is started for the run (model
 *       {@code sim-model}) and stopped by {@link #close()}.
 *   <li>{@code -Dllm.tokenizer=<folder, tokenizer.json or Hugging Face model id>}: the model's
 *       tokenizer, so that prompt lengths are counted as your model counts them. Without it,
 *       the GPT-2 tokenizer shipped in {@code datasets/tokenizers/gpt2/}.
 * </ul>
 *
 * <p>Created in a field initializer, not in {@code before()}: the protocol needs the base URL
 * and the dataset needs the tokenizer while the simulation is being built.
 */
final class ExampleTarget implements AutoCloseable {

  private final String configuredBaseUrl;
  private final String model;
  private final Tokenizer tokenizer;
  private Simulator simulator;

  private ExampleTarget(String configuredBaseUrl, String model, Tokenizer tokenizer) {
    this.configuredBaseUrl = configuredBaseUrl;
    this.model = model;
    this.tokenizer = tokenizer;
  }

  static ExampleTarget fromSystemProperties() {
    String baseUrl = System.getProperty("llm.baseUrl");
    String model = System.getProperty("llm.model", baseUrl == null ? "sim-model" : null);
    if (model == null) {
      throw new IllegalArgumentException("-Dllm.model=<model id> is required with -Dllm.baseUrl");
    }
    return new ExampleTarget(baseUrl, model,
        Tokenizer.resolve(System.getProperty("llm.tokenizer")));
  }

  /**
   * The server's URL. The simulator is started here, on first use, so that a dataset that
   * fails to load (which happens before) leaves no server running.
   */
  String baseUrl() {
    if (configuredBaseUrl != null) {
      return configuredBaseUrl;
    }
    if (simulator == null) {
      // Fast, so the examples stay short; the prefill cost makes TTFT grow with the prompt
      // (counted in words, as the simulator counts prompt tokens), as on a real server.
      simulator = Simulator.start(SimulatorConfig.builder()
          .ttft(Duration.ofMillis(20))
          .prefillPerToken(Duration.ofNanos(20_000))
          .itl(Duration.ofMillis(2))
          .build());
    }
    return simulator.baseUrl();
  }

  String model() {
    return model;
  }

  /** For sampling, before the run; {@link #close()} releases it. */
  Tokenizer tokenizer() {
    return tokenizer;
  }

  /** Call from {@code after()}, once the results are written. */
  @Override
  public void close() {
    tokenizer.close();
    if (simulator != null) {
      simulator.close();
    }
  }
}
