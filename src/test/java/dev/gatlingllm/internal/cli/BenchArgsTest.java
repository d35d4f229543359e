package dev.gatlingllm.internal.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.flags.BenchFlags;
import dev.gatlingllm.internal.flags.Flag;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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
  void numbersAreRefusedAsTheyAreParsedNamingTheFlag() {
    assertEquals("--num-prompts expects a whole number, got 'ten'", error("--num-prompts ten"));
    assertEquals("--burstiness expects a number, got 'high'", error("--burstiness high"));
    // refused though nothing on this line reads it: argparse types every value
    assertEquals("--top-k expects a whole number, got '2.5'", error("--model m --top-k 2.5"));
    // Python's float takes neither NaN as a setting nor Java's 1d
    assertEquals("--temperature expects a number, got 'NaN'", error("--temperature NaN"));
    assertEquals("--temperature expects a number, got '1d'", error("--temperature 1d"));
    assertEquals("--num-warmups expects a whole number, got 'some'", error("--num-warmups some"));
    assertEquals(Double.POSITIVE_INFINITY,
        parse("--request-rate inf").decimal("request-rate").orElseThrow());
  }

  @Test
  void valuesAreKeptAsConvertedAndDefaultsAreConvertedAlike() {
    BenchArgs args = parse("--num-prompts 12 --request-rate 2.5 --num-warmups auto "
        + "--ignore-eos --label 007");
    assertEquals(Optional.of(12), args.converted("num-prompts"));
    assertEquals(Optional.of(2.5), args.converted("request-rate"));
    assertEquals(Optional.of("auto"), args.converted("num-warmups"));
    assertEquals(Optional.of("007"), args.converted("label"), "a text flag stays as written");
    assertTrue(args.on("ignore-eos"));
    assertEquals(Optional.of("12"), args.value("num-prompts"), "and as written");
    // vLLM's defaults, by the same converters
    BenchArgs none = parse("--model m");
    assertEquals(Optional.of(8000), none.integer("port"));
    assertEquals(Optional.of(Double.POSITIVE_INFINITY), none.decimal("request-rate"));
    assertEquals(Optional.of(1000.0), none.decimal("num-prompts"), "an int reads as a number");
    assertEquals(Optional.empty(), none.integer("max-concurrency"), "None: no value");
    assertFalse(none.on("ignore-eos"));
    // reading a value as another kind than the table's is a mistake of the code
    assertThrows(IllegalStateException.class, () -> args.integer("label"));
    assertThrows(IllegalStateException.class, () -> args.integer("request-rate"));
  }

  @Test
  void helpIsAFlagToo() {
    assertTrue(parse("--help").help());
    assertTrue(parse("-h").help());
    assertFalse(parse("--model m").help());
  }
}
