package dev.gatlingllm.sim;

import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Expected {@link SimulatorConfig}s built apart from the code under test: from a hand-written
 * table of every component's default, with some components overridden, through the record's
 * constructor. A test that compares a built configuration with one of these compares every
 * component (record equality), so a builder that drops or mixes up a component fails it.
 */
final class ExpectedConfig {

  private ExpectedConfig() {}

  /** Every component's default, as the manual (docs/simulator.md) and the help state them. */
  static final Map<String, Object> DEFAULTS = Map.ofEntries(
      Map.entry("host", "127.0.0.1"),
      Map.entry("port", 0),
      Map.entry("model", "sim-model"),
      Map.entry("otherModels", List.of()),
      Map.entry("ttft", Duration.ofMillis(50)),
      Map.entry("prefillPerToken", Duration.ZERO),
      Map.entry("itl", Duration.ofMillis(10)),
      Map.entry("jitter", 0.0),
      Map.entry("tokensPerChunk", 1),
      Map.entry("maxRunning", 256),
      Map.entry("defaultMaxTokens", 16),
      Map.entry("seed", 0L),
      Map.entry("errorRate", 0.0),
      Map.entry("disconnectRate", 0.0),
      Map.entry("inBandErrorRate", 0.0),
      Map.entry("stallRate", 0.0),
      Map.entry("stallDuration", Duration.ofSeconds(1)),
      Map.entry("startupDelay", Duration.ZERO),
      Map.entry("ioThreads", 1),
      Map.entry("transport", SimulatorConfig.Transport.AUTO),
      Map.entry("chunkLog", false),
      Map.entry("reasoningTokens", 0),
      Map.entry("reasoningField", "reasoning_content"),
      Map.entry("recordRequests", false),
      Map.entry("connectionPolicy", SimulatorConfig.ConnectionPolicy.KEEP_ALIVE),
      Map.entry("keepAliveMax", 0),
      Map.entry("usageInFinishChunk", false),
      Map.entry("mergedTokenRate", 0.0),
      Map.entry("nullRoleContent", false),
      Map.entry("missingRoleRate", 0.0),
      Map.entry("ignoreMaxCompletionTokens", false),
      Map.entry("contextTokens", 1024),
      Map.entry("cutLongPrompts", false),
      Map.entry("anyModel", false),
      Map.entry("sessionCache", false),
      Map.entry("invalidJsonAs500", false),
      Map.entry("gpus", 1),
      Map.entry("gpuIdleWatts", 70.0),
      Map.entry("gpuWattsPerRequest", 25.0),
      Map.entry("gpuMaxWatts", 700.0));
  // tokenizer: null by default, which Map.ofEntries cannot hold; see config()

  /** The defaults with {@code overrides} (name, value, name, value, ...) set. */
  static SimulatorConfig config(Object... overrides) {
    Map<String, Object> values = new HashMap<>(DEFAULTS);
    values.put("tokenizer", null);
    for (int i = 0; i < overrides.length; i += 2) {
      if (!values.containsKey((String) overrides[i])) {
        throw new AssertionError("no component " + overrides[i]);
      }
      values.put((String) overrides[i], overrides[i + 1]);
    }
    RecordComponent[] components = SimulatorConfig.class.getRecordComponents();
    if (components.length != values.size()) {
      throw new AssertionError("the table names " + values.keySet() + ", the record has "
          + Arrays.stream(components).map(RecordComponent::getName).toList());
    }
    try {
      return SimulatorConfig.class.getDeclaredConstructor(Arrays.stream(components)
              .map(RecordComponent::getType).toArray(Class<?>[]::new))
          .newInstance(Arrays.stream(components).map(c -> {
            if (!values.containsKey(c.getName())) {
              throw new AssertionError("the table has no default for " + c.getName());
            }
            return values.get(c.getName());
          }).toArray());
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }
}
