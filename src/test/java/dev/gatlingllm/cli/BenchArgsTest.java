package dev.gatlingllm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.flags.BenchFlags;
import dev.gatlingllm.internal.flags.Flag;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class BenchArgsTest {

  private static BenchArgs parse(String line) {
    return BenchArgs.parse(CommandLine.split(line));
  }

  private static String error(String line) {
    return assertThrows(IllegalArgumentException.class, () -> parse(line)).getMessage();
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
      "--request-rat, --request-rate",
      "--num-prompt, --num-prompts",
      "--num_prompt, --num-prompts",
      "--ignore-eso, --ignore-eos",
      "--max-concurency, --max-concurrency",
      "--datset-name, --dataset-name",
      "--random-input-length, --random-input-len",
      "--temprature, --temperature",
      "--save-results, --save-result"})
  void aMisspeltFlagIsRefusedWithTheNearestValidFlag(String typo, String nearest) {
    assertEquals("unknown flag " + typo + "; did you mean " + nearest + "? "
        + "(-Dllm.args=--help lists every flag)", error("--model m " + typo + " 1"));
  }

  @Test
  void aMixedBoundaryFlagRefusesTheRunAndSaysTheDefaultsWouldBeUsed() {
    assertEquals("unknown flag --mixed-boundary-num-shared-prefixes: the "
        + "mixed_serving_boundary dataset's own --mixed-boundary-* flags are not known to this "
        + "release; without them the run would use this release's defaults "
        + "(docs/datasets.md), so it is refused (-Dllm.args=--help lists every flag)",
        error("--model m --dataset-name mixed_serving_boundary "
            + "--mixed-boundary-num-shared-prefixes 4"));
    assertEquals("mixed_serving_boundary",
        parse("--model m --dataset-name mixed_serving_boundary").value("dataset-name")
            .orElseThrow(), "the dataset itself is accepted");
  }

  @Test
  void everyAlwaysRefusedFlagIsRefusedWithItsReason() {
    for (Flag flag : BenchFlags.ALL) {
      if (flag.support() == Flag.Support.REFUSED) {
        assertEquals(flag.option() + " is not supported: " + flag.note(),
            error("--model m " + flag.option() + (flag.arity() == Flag.Arity.SWITCH ? ""
                : " 1")));
      }
    }
    assertTrue(error("--use-beam-search").contains("beam"));
    assertTrue(error("--trust-remote-code").contains("no code from the hub is ever run"));
  }

  @Test
  void valuesFollowTheirFlagOrComeAfterAnEqualsSign() {
    BenchArgs args = parse("--model=org/m --request-rate 2.5 --top-k -1 --seed=-3");
    assertEquals("org/m", args.value("model").orElseThrow());
    assertEquals(2.5, args.decimal("request-rate").orElseThrow());
    assertEquals(-1, args.integer("top-k").orElseThrow(), "a negative number is a value");
    assertEquals(-3, args.integer("seed").orElseThrow());
  }

  @Test
  void underscoresSpellTheSameFlagAsWithArgparse() {
    assertEquals(7, parse("--num_prompts 7").integer("num-prompts").orElseThrow());
  }

  @Test
  void flagsOfSeveralValuesTakeWordsUpToTheNextFlagAndAddUpWhenRepeated() {
    BenchArgs args = parse("--header a=1 b=2 --goodput ttft:500 tpot:50 --header c=3 "
        + "--metadata --ignore-eos");
    assertEquals(List.of("a=1", "b=2", "c=3"), args.values("header"));
    assertEquals(List.of("ttft:500", "tpot:50"), args.values("goodput"));
    assertTrue(args.has("metadata"), "--metadata with no pair is allowed, as nargs='*'");
    assertEquals(List.of(), args.values("metadata"));
    assertTrue(args.on("ignore-eos"));
  }

  @Test
  void aRepeatedSingleValueFlagKeepsTheLastValue() {
    assertEquals("20", parse("--request-rate 5 --request-rate 20").value("request-rate")
        .orElseThrow());
  }

  @Test
  void missingValuesStrayWordsAndSwitchValuesAreErrors() {
    assertEquals("--model needs a value", error("--model --save-result"));
    assertEquals("--model needs a value", error("--model"));
    assertEquals("--goodput needs at least one value", error("--goodput --save-result"));
    assertEquals("--lora-modules needs at least one value", error("--lora-modules"));
    assertTrue(error("--label my run").startsWith("unexpected argument 'run'"));
    assertEquals("--ignore-eos is a switch and takes no value", error("--ignore-eos=true"));
    assertTrue(error("m --model x").startsWith("unexpected argument 'm'"));
  }

  @Test
  void numbersAreCheckedWhenRead() {
    assertEquals("--num-prompts expects a whole number, got 'ten'",
        assertThrows(IllegalArgumentException.class,
            () -> parse("--num-prompts ten").integer("num-prompts")).getMessage());
    assertEquals("--burstiness expects a number, got 'high'",
        assertThrows(IllegalArgumentException.class,
            () -> parse("--burstiness high").decimal("burstiness")).getMessage());
    assertEquals(Double.POSITIVE_INFINITY,
        parse("--request-rate inf").decimal("request-rate").orElseThrow());
  }

  @Test
  void helpIsAFlagToo() {
    assertTrue(parse("--help").help());
    assertTrue(parse("-h").help());
    assertFalse(parse("--model m").help());
  }
}
