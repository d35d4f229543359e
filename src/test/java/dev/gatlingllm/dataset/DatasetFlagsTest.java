package dev.gatlingllm.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.flags.BenchFlags;
import dev.gatlingllm.internal.flags.Flag;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The flag table's datasets column, the one place that says which dataset reads which flag,
 * against vLLM's parser; and the builder, which may read no flag the column does not give.
 */
class DatasetFlagsTest {

  /** Flags every dataset takes: vLLM's common dataset arguments, and the request ids. */
  private static final Set<String> COMMON = Set.of("dataset-name", "dataset-path",
      "num-prompts", "seed", "no-oversample", "disable-shuffle", "request-id-prefix",
      "skip-chat-template", "no-stream");

  /**
   * Each dataset's own flags, typed in from vLLM's dataset argument groups (and vllm-bench's
   * for {@code --random-cache-*}, {@code --hf-text-column}, {@code --speed-bench-config} and
   * {@code --speed-bench-max-input-len}), not from the table.
   */
  private static final Map<String, Set<String>> OWN = Map.ofEntries(
      Map.entry("random", Set.of("random-input-len", "random-output-len", "random-range-ratio",
          "random-prefix-len", "random-batch-size", "random-cache-hit-fraction",
          "random-cache-ratio")),
      Map.entry("sharegpt", Set.of("sharegpt-output-len")),
      Map.entry("sonnet", Set.of("sonnet-input-len", "sonnet-output-len", "sonnet-prefix-len")),
      Map.entry("burstgpt", Set.of()),
      Map.entry("mixed_serving_boundary", Set.of()),
      Map.entry("structured_output", Set.of()),
      Map.entry("custom", Set.of("custom-output-len", "custom-skip-chat-template")),
      Map.entry("prefix_repetition", Set.of("prefix-repetition-prefix-len",
          "prefix-repetition-suffix-len", "prefix-repetition-num-prefixes",
          "prefix-repetition-output-len")),
      Map.entry("hf", Set.of("hf-subset", "hf-split", "hf-name", "hf-output-len",
          "blazedit-min-distance", "blazedit-max-distance", "asr-min-audio-len-sec",
          "asr-max-audio-len-sec", "bfcl-categories", "hf-text-column")),
      Map.entry("random-mm", Set.of("random-input-len", "random-output-len",
          "random-range-ratio", "random-prefix-len", "random-mm-base-items-per-request",
          "random-mm-num-mm-items-range-ratio", "random-mm-limit-mm-per-prompt",
          "random-mm-bucket-config")),
      Map.entry("random-rerank", Set.of("random-input-len", "random-range-ratio",
          "random-batch-size", "no-reranker")),
      Map.entry("spec_bench", Set.of("spec-bench-output-len", "spec-bench-category")),
      Map.entry("timed_trace", Set.of("timed-trace-chunk-hash-size",
          "timed-trace-sec-multiplier", "timed-trace-label-timestamp",
          "timed-trace-label-input-length", "timed-trace-label-output-length",
          "timed-trace-label-hash-ids")),
      Map.entry("custom_image", Set.of("custom-output-len", "custom-ensure-client-side-data")),
      Map.entry("custom_audio", Set.of("custom-output-len")),
      Map.entry("txt-slices", Set.of("random-input-len", "random-output-len",
          "random-range-ratio")),
      Map.entry("speed_bench", Set.of("speed-bench-dataset-subset", "speed-bench-output-len",
          "speed-bench-category", "speed-bench-config", "speed-bench-max-input-len")));

  @Test
  void theDatasetsColumnGivesEachDatasetVllmsFlags() {
    assertEquals(new TreeSet<>(Datasets.NAMES), new TreeSet<>(OWN.keySet()));
    for (String dataset : new TreeSet<>(Datasets.NAMES)) {
      Set<String> expected = new TreeSet<>(COMMON);
      expected.addAll(OWN.get(dataset));
      Set<String> actual = new TreeSet<>();
      BenchFlags.ALL.stream().filter(f -> f.takenBy(dataset)).forEach(f -> actual.add(f.name()));
      assertEquals(expected, actual, "the flags the table gives " + dataset);
    }
  }

  @Test
  void theDatasetsColumnNamesOnlyDatasetsAndEveryDatasetFlagIsKnown() {
    Set<String> named = new TreeSet<>();
    BenchFlags.ALL.forEach(f -> named.addAll(f.datasets()));
    named.remove(Flag.EVERY_DATASET);
    named.removeAll(Datasets.NAMES);
    assertEquals(Set.of(), named, "names in the datasets column that are no --dataset-name");
    // what the drop-in hands to the datasets (BenchPlan) is exactly the flags the column gives
    Set<String> withColumn = new TreeSet<>();
    BenchFlags.ALL.stream().filter(Flag::isDatasetFlag).forEach(f -> withColumn.add(f.name()));
    assertEquals(withColumn, new TreeSet<>(Datasets.FLAGS));
    // flags of the dataset group that the drop-in reads itself
    for (String drop : List.of("dataset", "input-len", "output-len", "enable-multimodal-chat",
        "model")) {
      assertFalse(Datasets.FLAGS.contains(drop), drop);
    }
  }

  @Test
  void aSwitchTakesNoValueAndAnyOtherFlagOneAsTheTableSays() {
    RandomDataset bare = (RandomDataset) Datasets.fromArgs("--no-oversample", "--seed", "4");
    assertTrue(bare.noOversample());
    assertEquals(4, bare.seed());
    IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
        () -> Datasets.fromArgs("--seed"));
    assertTrue(missing.getMessage().contains("--seed"), missing.getMessage());
  }

  /**
   * Every dataset built from its name alone (and a path where it needs one) runs all of its
   * branch's reads; {@link DatasetFlagValues} fails on a flag the column does not give the
   * dataset.
   */
  @Test
  void theBuilderReadsOnlyFlagsTheColumnGivesTheDataset() {
    List<String> failures = new ArrayList<>();
    List<List<String>> lines = new ArrayList<>();
    for (String dataset : new TreeSet<>(Datasets.NAMES)) {
      lines.add(List.of("--dataset-name", dataset, "--dataset-path", "x.jsonl"));
    }
    lines.add(List.of("--dataset-name", "hf", "--dataset-path", BfclDataset.HUB_ID));
    for (List<String> line : lines) {
      List<String> args = new ArrayList<>(line);
      try {
        Datasets.fromArgs(args.toArray(String[]::new));
      } catch (IllegalArgumentException generated) {
        // the generated datasets refuse a path: build them without one
        args.subList(2, 4).clear();
        try {
          Datasets.fromArgs(args.toArray(String[]::new));
        } catch (IllegalArgumentException | IllegalStateException e) {
          failures.add(line + ": " + e.getMessage());
        }
      } catch (IllegalStateException e) {
        failures.add(line + ": " + e.getMessage());
      }
    }
    assertEquals(List.of(), failures);
  }

  /**
   * {@code fromArgs} spells a flag's name the table's way and leaves its value as written: a
   * path with capitals and underscores was once lowercased with the name.
   */
  @Test
  void aFlagsNameIsNormalizedNeverItsValue() {
    HfDataset hf = (HfDataset) Datasets.fromArgs("--dataset-name", "hf",
        "--Dataset_Path=Data/My_File.jsonl", "--request_id_prefix", "Run_A-");
    assertEquals("Data/My_File.jsonl", hf.path());
    assertEquals("Run_A-", hf.requestIdPrefix());
  }

  /**
   * Values are converted by the table's kind as they are parsed (picocli for
   * {@code fromArgs}, the same conversion for {@code fromFlags}), with the drop-in's words.
   */
  @Test
  void aValueIsConvertedByItsKindAsItIsParsed() {
    assertEquals("--num-prompts expects a whole number, got '1.5'", assertThrows(
        IllegalArgumentException.class, () -> Datasets.fromArgs("--num-prompts", "1.5"))
        .getMessage());
    assertEquals("--num-prompts expects a whole number, got '1.5'", assertThrows(
        IllegalArgumentException.class, () -> Datasets.fromFlags(Map.of("num_prompts", "1.5")))
        .getMessage());
    assertEquals("--timed-trace-sec-multiplier expects a number, got 'NaN'", assertThrows(
        IllegalArgumentException.class, () -> Datasets.fromArgs("--dataset-name",
            "timed_trace", "--timed-trace-sec-multiplier", "NaN")).getMessage());
    assertEquals("--no-oversample is a switch; give no value, 'true' or 'false', not 'yes'",
        assertThrows(IllegalArgumentException.class,
            () -> Datasets.fromFlags(Map.of("no-oversample", "yes"))).getMessage());
    assertEquals("--no-oversample is a switch; give no value, 'true' or 'false', not 'yes'",
        assertThrows(IllegalArgumentException.class,
            () -> Datasets.fromArgs("--no-oversample=yes")).getMessage());
    // a switch given false is off; whitespace around a number is fine
    RandomDataset off = (RandomDataset) Datasets.fromFlags(Map.of("no-oversample", "false",
        "--num-prompts", " 7 "));
    assertFalse(off.noOversample());
    assertEquals(7, off.numPrompts());
    assertTrue(((RandomDataset) Datasets.fromArgs("--no-oversample=true")).noOversample());
  }
}
