package dev.gatlingllm.internal.cli;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.action.Backends;
import dev.gatlingllm.dataset.Datasets;
import dev.gatlingllm.internal.flags.BenchFlags;
import dev.gatlingllm.internal.flags.Flag;
import dev.gatlingllm.internal.metrics.GoodputSlo;
import dev.gatlingllm.internal.metrics.Metric;
import dev.gatlingllm.internal.report.RunInfo;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code --help} and the flag table name the values of every choice flag, and each value they
 * name is one the parsing takes: the lists below are read from the parsing's own tables,
 * none is written here.
 */
class FlagChoicesTest {

  private static String helpLine(String flag) {
    return BenchFlagSpec.usage().lines().map(String::strip)
        .filter(l -> l.startsWith("--" + flag + "=")).findFirst().orElseThrow();
  }

  /** The help's value of {@code flag}, unwrapped: picocli may break a long one over lines. */
  private static String helpValue(String flag) {
    String help = BenchFlagSpec.usage().replaceAll("\\s+", " ");
    int at = help.indexOf("--" + flag + "={");
    assertTrue(at >= 0, "--" + flag + " has no choices in the help");
    return help.substring(at + flag.length() + 3, help.indexOf('}', at) + 1).replace(" ", "");
  }

  @Test
  void theHelpListsEveryServedBackendAndEveryDataset() {
    assertEquals("{" + String.join(",", Backends.servedNames()) + "}", helpValue("backend"));
    assertEquals("{" + String.join(",", Datasets.NAMES) + "}", helpValue("dataset-name"));
    // the backends vLLM dropped are refused, so they are no choice
    Backends.refused().keySet().forEach(b -> assertFalse(helpValue("backend").contains(b)));
  }

  @Test
  void everyBackendTheHelpNamesIsServed() {
    for (String name : FlagChoices.values("backend")) {
      assertEquals(name, Backends.resolve(name).name());
    }
    assertEquals(Backends.servedNames().size(), FlagChoices.values("--backend").size());
  }

  @Test
  void everyRampMetricAndSloTheHelpNamesIsParsed() {
    for (String strategy : FlagChoices.values("ramp-up-strategy")) {
      assertDoesNotThrow(() -> RunInfo.builder("m").rampUp(strategy, 1, 2));
    }
    assertThrows(IllegalArgumentException.class,
        () -> RunInfo.builder("m").rampUp("stepwise", 1, 2));
    for (String key : FlagChoices.values("percentile-metrics")) {
      assertEquals(key, Metric.ofKey(key).key());
    }
    assertEquals(Metric.values().length, FlagChoices.values("percentile-metrics").size());
    for (String slo : FlagChoices.values("goodput")) {
      assertDoesNotThrow(() -> GoodputSlo.parse(slo + ":100"));
    }
    assertTrue(helpLine("goodput").startsWith("--goodput={ttft,tpot,e2el}:VALUE"),
        helpLine("goodput"));
    assertTrue(helpValue("percentile-metrics").contains(",client_queue_time,"));
  }

  @Test
  void everyLoraAssignmentAndTokenizerModeTheHelpNamesIsTaken() {
    for (String assignment : FlagChoices.values("lora-assignment")) {
      BenchArgs args = BenchArgs.parse(List.of("--lora-modules", "a", "b",
          "--lora-assignment", assignment));
      assertDoesNotThrow(() -> BenchChecks.checkLora(args));
    }
    BenchArgs wrong = BenchArgs.parse(List.of("--lora-modules", "a", "--lora-assignment",
        "weighted"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> BenchChecks.checkLora(wrong));
    for (String assignment : FlagChoices.values("lora-assignment")) {
      assertTrue(e.getMessage().contains("'" + assignment + "'"), e.getMessage());
    }
    assertEquals("--tokenizer-mode={auto,hf}", helpLine("tokenizer-mode").split(" ")[0]);
    for (String mode : FlagChoices.values("tokenizer-mode")) {
      assertDoesNotThrow(() -> BenchPlan.of(BenchArgs.parse(List.of("--model", "m",
          "--tokenizer-mode", mode))), mode);
    }
  }

  @Test
  void theRateTakesANumberOrTheWordForInfinity() {
    List<String> values = FlagChoices.values("request-rate");
    Flag rate = BenchFlags.find("--request-rate").orElseThrow();
    assertEquals(Double.POSITIVE_INFINITY, rate.convert(values.get(1)));
    assertEquals("--request-rate={N,inf}", helpLine("request-rate").split(" ")[0]);
  }

  @Test
  void theFlagTableNamesTheSameValuesAsTheHelp() {
    for (String flag : FlagChoices.CHOICES.keySet()) {
      Flag f = BenchFlags.find("--" + flag).orElseThrow();
      String label = FlagChoices.label(f).orElseThrow();
      String row = FlagChoices.markdownTable().lines()
          .filter(l -> l.startsWith("| `--" + flag + "` ")).findFirst().orElseThrow();
      assertTrue(row.startsWith("| `--" + flag + "` `" + label + "` |"), row);
    }
    String free = FlagChoices.markdownTable().lines()
        .filter(l -> l.startsWith("| `--top-p`")).findFirst().orElseThrow();
    assertTrue(free.startsWith("| `--top-p` V |"), free);
  }
}
