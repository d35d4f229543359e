package dev.gatlingllm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.dataset.Datasets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class BenchFlagsTest {

  /**
   * Every flag of the reference: {@code add_cli_args} of vLLM's {@code benchmarks/serve.py}
   * (reference 000), the dataset groups and {@code -h} of its {@code --help} (reference 004),
   * and current vLLM's {@code --num-warmups}. Typed in from the references, not from the code.
   */
  private static final List<String> REFERENCE = List.of("label", "backend", "base-url", "host",
      "port", "endpoint", "header", "max-concurrency", "model", "tokenizer", "use-beam-search",
      "logprobs", "request-rate", "burstiness", "trust-remote-code", "disable-tqdm", "profile",
      "save-result", "save-detailed", "append-result", "metadata", "result-dir",
      "result-filename", "ignore-eos", "percentile-metrics", "metric-percentiles", "goodput",
      "request-id-prefix", "top-p", "top-k", "min-p", "temperature", "frequency-penalty",
      "presence-penalty", "repetition-penalty", "tokenizer-mode", "served-model-name",
      "lora-modules", "ramp-up-strategy", "ramp-up-start-rps", "ramp-up-end-rps",
      "ready-check-timeout-sec", "dataset-name", "dataset-path", "num-prompts", "seed",
      "custom-output-len", "custom-skip-chat-template", "sonnet-input-len", "sonnet-output-len",
      "sonnet-prefix-len", "sharegpt-output-len", "random-input-len", "random-output-len",
      "random-prefix-len", "random-range-ratio", "hf-subset", "hf-split", "hf-output-len",
      "help", "num-warmups");

  /** vLLM's defaults as its --help and argument parser give them. */
  private static final Map<String, String> VLLM_DEFAULTS = Map.ofEntries(
      Map.entry("backend", "openai"), Map.entry("host", "127.0.0.1"), Map.entry("port", "8000"),
      Map.entry("endpoint", "/v1/completions"), Map.entry("request-rate", "inf"),
      Map.entry("burstiness", "1.0"), Map.entry("percentile-metrics", "ttft,tpot,itl"),
      Map.entry("metric-percentiles", "99"), Map.entry("request-id-prefix", "benchmark-serving"),
      Map.entry("tokenizer-mode", "auto"), Map.entry("ready-check-timeout-sec", "600"),
      Map.entry("num-prompts", "1000"), Map.entry("custom-output-len", "256"),
      Map.entry("sonnet-input-len", "550"), Map.entry("sonnet-output-len", "150"),
      Map.entry("sonnet-prefix-len", "200"), Map.entry("random-input-len", "1024"),
      Map.entry("random-output-len", "128"), Map.entry("random-prefix-len", "0"),
      Map.entry("random-range-ratio", "0.0"), Map.entry("num-warmups", "0"),
      Map.entry("seed", "0"));

  @Test
  void everyReferenceFlagIsInTheTable() {
    Set<String> missing = new TreeSet<>(REFERENCE);
    BenchFlags.ALL.forEach(f -> missing.remove(f.name()));
    assertEquals(Set.of(), missing);
  }

  @Test
  void everyDatasetFlagTheDatasetsUnderstandIsInTheTable() {
    Set<String> names = BenchFlags.ALL.stream().map(Flag::name).collect(Collectors.toSet());
    Set<String> missing = new TreeSet<>(Datasets.FLAGS);
    missing.removeAll(names);
    assertEquals(Set.of(), missing);
  }

  @Test
  void defaultsInTheTableAreVllms() {
    VLLM_DEFAULTS.forEach((name, value) -> assertEquals(value,
        BenchFlags.find("--" + name).orElseThrow().defaultValue(), name));
    for (Flag f : BenchFlags.ALL) {
      if (f.arity() == Flag.Arity.SWITCH) {
        assertTrue(f.defaultValue().equals("False") || f.name().equals("help"), f.name());
      }
    }
  }

  @Test
  void nearestIsTheSmallestEditDistance() {
    assertEquals("--seed", BenchFlags.nearest("--sed"));
    assertEquals("--top-k", BenchFlags.nearest("--top_kk"));
  }

  @Test
  void helpListsEveryFlagWithItsDefaultAndEveryRefusal() {
    // picocli wraps the descriptions: compare with the line breaks undone
    String help = BenchFlagSpec.usage().replaceAll("\\s+", " ");
    for (Flag f : BenchFlags.ALL) {
      assertTrue(help.contains(f.option()), f.name());
      if (f.note() != null) {
        assertTrue(help.contains(f.note().replace("`", "").replaceAll("\\s+", " ")), f.name());
      }
    }
    assertTrue(help.contains("(default: 600)"));
  }
}
