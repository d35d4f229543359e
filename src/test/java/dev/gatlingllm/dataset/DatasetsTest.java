package dev.gatlingllm.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DatasetsTest {

  @Test
  void randomFlagsSetTheOptionsAndTheDefaultsAreVllms() {
    RandomDataset defaults = (RandomDataset) Datasets.fromArgs();
    assertEquals("random", defaults.name());
    assertEquals(1024, defaults.inputLen());
    assertEquals(128, defaults.outputLen());
    assertEquals(0.0, defaults.rangeRatio());
    assertEquals(0, defaults.prefixLen());
    assertEquals(1000, defaults.numPrompts());
    assertEquals(0, defaults.seed());

    RandomDataset random = (RandomDataset) Datasets.fromArgs("--dataset-name", "random",
        "--random-input-len", "512", "--random-output-len=64", "--random-range-ratio", "0.25",
        "--random-prefix-len", "16", "--num-prompts", "20", "--seed", "-3", "--no-oversample",
        "--request-id-prefix", "run1-");
    assertEquals(512, random.inputLen());
    assertEquals(64, random.outputLen());
    assertEquals(0.25, random.rangeRatio());
    assertEquals(16, random.prefixLen());
    assertEquals(20, random.numPrompts());
    assertEquals(-3, random.seed());
    assertTrue(random.noOversample());
    assertEquals("run1-", random.requestIdPrefix());
    assertEquals(20, random.sample(Gpt2.TOKENIZER).size());
  }

  @Test
  void everyDatasetCanBeBuiltFromFlags() {
    assertInstanceOf(ShareGptDataset.class, Datasets.fromArgs("--dataset-name", "sharegpt",
        "--dataset-path", "datasets/sharegpt/sharegpt_sample.json", "--sharegpt-output-len",
        "100"));
    SonnetDataset sonnet = (SonnetDataset) Datasets.fromArgs("--dataset-name", "sonnet",
        "--dataset-path", "datasets/sonnet/sonnet.txt", "--sonnet-input-len", "300",
        "--sonnet-prefix-len", "50", "--sonnet-output-len", "20", "--num-prompts", "4");
    sonnet.sample(Gpt2.TOKENIZER).requests().forEach(r -> {
      assertTrue(r.promptLen() <= 300);
      assertEquals(20, r.expectedOutputLen());
    });
    assertInstanceOf(BurstGptDataset.class, Datasets.fromArgs("--dataset-name", "burstgpt",
        "--dataset-path", "datasets/burstgpt/burstgpt_sample.csv"));
    CustomDataset custom = (CustomDataset) Datasets.fromArgs("--dataset-name", "custom",
        "--dataset-path", "datasets/custom/custom_sample.jsonl", "--custom-output-len", "33",
        "--custom-skip-chat-template", "--num-prompts", "0");
    Samples all = custom.sample(Gpt2.TOKENIZER);
    assertEquals(40, all.size(), "--num-prompts 0 takes every line of a custom file");
    all.requests().forEach(r -> assertEquals(33, r.expectedOutputLen()));
    // As in vLLM, the flag (default 256) wins over the output_len some lines carry.
    Datasets.fromArgs("--dataset-name", "custom", "--dataset-path",
            "datasets/custom/custom_sample.jsonl", "--num-prompts", "0")
        .sample(Gpt2.TOKENIZER).requests()
        .forEach(r -> assertEquals(256, r.expectedOutputLen()));
    Datasets.random().inputLen(16).outputLen(0).numPrompts(5).sample(Gpt2.TOKENIZER).requests()
        .forEach(r -> assertEquals(1, r.expectedOutputLen(), "output length 0 is raised to 1"));
    PrefixRepetitionDataset rep = (PrefixRepetitionDataset) Datasets.fromArgs("--dataset-name",
        "prefix_repetition", "--prefix-repetition-prefix-len", "8",
        "--prefix-repetition-suffix-len", "4", "--prefix-repetition-num-prefixes", "2",
        "--prefix-repetition-output-len", "5", "--num-prompts", "6");
    Samples reps = rep.sample(Gpt2.TOKENIZER);
    assertEquals(6, reps.size());
    reps.requests().forEach(r -> assertEquals(5, r.expectedOutputLen()));
    HfDataset hf = (HfDataset) Datasets.fromArgs("--dataset-name", "hf", "--dataset-path",
        "datasets/hf/blazedit_sample.jsonl", "--hf-name", "vdaita/edit_10k_char",
        "--hf-output-len", "77", "--blazedit-min-distance", "0.5", "--hf-split", "train",
        "--num-prompts", "3");
    hf.sample(Gpt2.TOKENIZER).requests().forEach(r -> assertEquals(77, r.expectedOutputLen()));
  }

  @Test
  void flagMapsAcceptDashesOrUnderscoresAndIgnoreOtherTools() {
    DatasetSpec spec = Datasets.fromFlags(Map.of("--dataset-name", "random", "random_input_len",
        "32", "--model", "meta-llama/Llama-3.1-8B", "--request-rate", "inf", "disable_shuffle",
        ""));
    RandomDataset random = (RandomDataset) spec;
    assertEquals(32, random.inputLen());
    assertTrue(random.disableShuffle());
    assertTrue(Datasets.FLAGS.containsAll(Set.of("dataset-name", "dataset-path", "num-prompts",
        "seed", "random-input-len", "random-output-len", "random-range-ratio",
        "random-prefix-len", "sharegpt-output-len", "sonnet-input-len", "sonnet-output-len",
        "sonnet-prefix-len", "custom-output-len", "custom-skip-chat-template", "hf-subset",
        "hf-split", "hf-output-len", "prefix-repetition-prefix-len",
        "prefix-repetition-suffix-len", "prefix-repetition-num-prefixes",
        "prefix-repetition-output-len")));
    assertFalse(Datasets.FLAGS.contains("model"));
  }

  @Test
  void conflictingOrBadFlagsAreRefusedWithTheFlagNamed() {
    IllegalArgumentException pathForRandom = assertThrows(IllegalArgumentException.class,
        () -> Datasets.fromArgs("--dataset-name", "random", "--dataset-path", "x.json"));
    assertTrue(pathForRandom.getMessage().contains("--dataset-path x.json"),
        pathForRandom.getMessage());

    IllegalArgumentException foreign = assertThrows(IllegalArgumentException.class,
        () -> Datasets.fromArgs("--dataset-name", "random", "--sonnet-input-len", "100"));
    assertTrue(foreign.getMessage().contains("--sonnet-input-len (sonnet dataset)"),
        foreign.getMessage());

    // a flag several datasets share names all of them, not one picked at random
    IllegalArgumentException shared = assertThrows(IllegalArgumentException.class,
        () -> Datasets.fromArgs("--dataset-name", "sharegpt", "--dataset-path", "x.json",
            "--random-input-len", "100", "--random-output-len", "5"));
    assertTrue(shared.getMessage().contains(
        "--random-input-len (random, random-mm, random-rerank or txt-slices datasets)")
        && shared.getMessage().contains(
            "--random-output-len (random, random-mm or txt-slices datasets)"),
        shared.getMessage());

    IllegalArgumentException noPath = assertThrows(IllegalArgumentException.class,
        () -> Datasets.fromArgs("--dataset-name", "sharegpt"));
    assertTrue(noPath.getMessage().contains("needs --dataset-path"), noPath.getMessage());

    IllegalArgumentException name = assertThrows(IllegalArgumentException.class,
        () -> Datasets.fromArgs("--dataset-name", "random-nm"));
    assertTrue(name.getMessage().contains("'random-nm'")
        && name.getMessage().contains("prefix_repetition"), name.getMessage());

    IllegalArgumentException number = assertThrows(IllegalArgumentException.class,
        () -> Datasets.fromArgs("--random-input-len", "lots"));
    assertTrue(number.getMessage().contains("--random-input-len expects a whole number, got "
        + "'lots'"), number.getMessage());

    IllegalArgumentException range = assertThrows(IllegalArgumentException.class,
        () -> Datasets.fromArgs("--random-range-ratio", "1.5"));
    assertTrue(range.getMessage().contains("1.5"), range.getMessage());

    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
        () -> Datasets.fromArgs("--random-input-length", "5"));
    assertEquals("Unknown dataset flag --random-input-length; did you mean --random-input-len?",
        unknown.getMessage());

    IllegalArgumentException switchValue = assertThrows(IllegalArgumentException.class,
        () -> Datasets.fromArgs("--no-oversample", "maybe"));
    assertTrue(switchValue.getMessage().contains("is a switch"), switchValue.getMessage());

    assertThrows(IllegalArgumentException.class,
        () -> Datasets.fromArgs("--num-prompts", "0"), "0 means 'all' only for custom");
    assertThrows(IllegalArgumentException.class,
        () -> Datasets.fromArgs("--random-batch-size", "4"));
    assertThrows(IllegalArgumentException.class, () -> Datasets.fromArgs("stray"));
  }

  @Test
  void entryPointsMatchTheFlagFactory() {
    Path sharegpt = Path.of("datasets/sharegpt/sharegpt_sample.json");
    assertEquals(Datasets.shareGpt(sharegpt).numPrompts(30).seed(4).sample(Gpt2.TOKENIZER)
            .requests(),
        Datasets.fromArgs("--dataset-name", "sharegpt", "--dataset-path", sharegpt.toString(),
            "--num-prompts", "30", "--seed", "4").sample(Gpt2.TOKENIZER).requests());
  }

  @Test
  void chatTemplateFlagsAreAcceptedButNoOptionPretendsToSwitchATemplate() {
    // Prompts are always sent as written, which is what vLLM's skip flags ask for ...
    assertEquals(Datasets.fromArgs("--dataset-name", "custom", "--dataset-path",
            "datasets/custom/custom_sample.jsonl", "--custom-skip-chat-template")
            .sample(Gpt2.TOKENIZER).requests(),
        Datasets.fromArgs("--dataset-name", "custom", "--dataset-path",
            "datasets/custom/custom_sample.jsonl").sample(Gpt2.TOKENIZER).requests());
    // ... so the Java builders offer no switch that would do nothing.
    for (Class<?> dataset : List.of(CustomDataset.class, HfDataset.class)) {
      assertThrows(NoSuchMethodException.class,
          () -> dataset.getMethod("skipChatTemplate", boolean.class), dataset.getSimpleName());
    }
  }
}
