package dev.gatlingllm.internal.sim;

import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig.ConnectionPolicy;
import dev.gatlingllm.sim.SimulatorConfig;
import java.time.Duration;

/**
 * The checks of a {@link SimulatorConfig}, run by its builder's {@code build()} and again by
 * {@link Simulator#start}, for a configuration made with the record's constructor. Each
 * refusal names the value, what is allowed and what was given.
 */
public final class ConfigCheck {

  private static final Duration MAX_DELAY = Duration.ofHours(1);
  private static final Duration MAX_PREFILL = Duration.ofSeconds(1);
  private static final int MAX_OUTPUT_TOKENS = 1_000_000;

  private ConfigCheck() {}

  /**
   * Checks every value of {@code c}.
   *
   * @throws IllegalArgumentException naming the first bad value and what is allowed
   */
  public static void check(SimulatorConfig c) {
    require(c.host() != null && !c.host().isBlank(),
        "host must be a non-blank host name or address, got '" + c.host() + "'");
    require(c.port() >= 0 && c.port() <= 65535,
        "port must be in 0..65535 (0 = any free port), got " + c.port());
    require(c.model() != null && !c.model().isBlank(),
        "model must be a non-blank name, got '" + c.model() + "'");
    require(c.otherModels() != null, "otherModels must be a list, got null");
    for (String other : c.otherModels()) {
      require(other != null && !other.isBlank(),
          "models must be non-blank names, got '" + other + "' in " + c.otherModels());
    }
    checkDelay("ttft", c.ttft(), MAX_DELAY);
    checkDelay("prefillPerToken", c.prefillPerToken(), MAX_PREFILL);
    checkDelay("itl", c.itl(), MAX_DELAY);
    checkDelay("stallDuration", c.stallDuration(), MAX_DELAY);
    checkDelay("startupDelay", c.startupDelay(), MAX_DELAY);
    require(c.jitter() >= 0 && c.jitter() <= 1,
        "jitter must be a fraction in 0..1, got " + c.jitter());
    require(c.tokensPerChunk() >= 1 && c.tokensPerChunk() <= MAX_OUTPUT_TOKENS,
        "tokensPerChunk must be in 1.." + MAX_OUTPUT_TOKENS + ", got " + c.tokensPerChunk());
    require(c.maxRunning() >= 1, "maxRunning must be >= 1, got " + c.maxRunning());
    require(c.defaultMaxTokens() >= 1 && c.defaultMaxTokens() <= MAX_OUTPUT_TOKENS,
        "defaultMaxTokens must be in 1.." + MAX_OUTPUT_TOKENS + ", got " + c.defaultMaxTokens());
    checkRate("errorRate", c.errorRate());
    checkRate("disconnectRate", c.disconnectRate());
    checkRate("inBandErrorRate", c.inBandErrorRate());
    checkRate("stallRate", c.stallRate());
    require(c.ioThreads() >= 1 && c.ioThreads() <= 64,
        "ioThreads must be in 1..64, got " + c.ioThreads());
    require(c.transport() != null, "transport must be one of AUTO, NIO, EPOLL, got null");
    require(c.reasoningTokens() >= 0 && c.reasoningTokens() <= MAX_OUTPUT_TOKENS,
        "reasoningTokens must be in 0.." + MAX_OUTPUT_TOKENS + ", got " + c.reasoningTokens());
    require("reasoning_content".equals(c.reasoningField())
        || "reasoning".equals(c.reasoningField()),
        "reasoningField must be reasoning_content or reasoning, got '" + c.reasoningField() + "'");
    require(c.connectionPolicy() != null,
        "connectionPolicy must be one of KEEP_ALIVE, CLOSE_AFTER_RESPONSE, CONNECTION_CLOSE,"
            + " got null");
    require(c.keepAliveMax() >= 0 && c.keepAliveMax() <= MAX_OUTPUT_TOKENS,
        "keepAliveMax must be in 0.." + MAX_OUTPUT_TOKENS + " (0 = no limit), got "
            + c.keepAliveMax());
    require(c.keepAliveMax() == 0 || c.connectionPolicy() == ConnectionPolicy.KEEP_ALIVE,
        "keepAliveMax limits kept-alive connections: it needs connectionPolicy KEEP_ALIVE, got "
            + c.connectionPolicy());
    checkRate("mergedTokenRate", c.mergedTokenRate());
    checkRate("missingRoleRate", c.missingRoleRate());
    require(c.contextTokens() >= 1 && c.contextTokens() <= MAX_OUTPUT_TOKENS,
        "contextTokens must be in 1.." + MAX_OUTPUT_TOKENS + ", got " + c.contextTokens());
    require(c.tokenizer() == null || !c.tokenizer().isBlank(), "tokenizer must be gpt2, a "
        + "tokenizer.json, its folder or a Hugging Face model id (null for words), got '"
        + c.tokenizer() + "'");
    require(c.gpus() >= 0 && c.gpus() <= 64, "gpus must be in 0..64 (0 = none), got "
        + c.gpus());
    require(c.gpuIdleWatts() >= 0 && Double.isFinite(c.gpuIdleWatts()),
        "gpuIdleWatts must be >= 0, got " + c.gpuIdleWatts());
    require(c.gpuWattsPerRequest() >= 0 && Double.isFinite(c.gpuWattsPerRequest()),
        "gpuWattsPerRequest must be >= 0, got " + c.gpuWattsPerRequest());
    require(c.gpuMaxWatts() >= c.gpuIdleWatts() && Double.isFinite(c.gpuMaxWatts()),
        "gpuMaxWatts must be at least gpuIdleWatts (" + c.gpuIdleWatts() + "), got "
            + c.gpuMaxWatts());
  }

  private static void checkDelay(String name, Duration value, Duration max) {
    require(value != null, name + " must be a duration, got null");
    require(!value.isNegative() && value.compareTo(max) <= 0,
        name + " must be between 0 and " + max + ", got " + value);
  }

  private static void checkRate(String name, double value) {
    require(value >= 0 && value <= 1, name + " must be a fraction in 0..1, got " + value);
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }
}
