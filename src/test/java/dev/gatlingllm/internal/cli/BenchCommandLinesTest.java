package dev.gatlingllm.internal.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.flags.BenchFlags;
import dev.gatlingllm.internal.flags.Flag;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The command lines of vLLM 0.29's documentation and of vllm-bench's README, kept in
 * {@code vllm-command-lines.txt}: each one is accepted, or refused before anything is sent with
 * a reason naming a flag; none is answered "unknown flag". (The integration test runs the
 * issue's own pasted line against the simulator.)
 */
class BenchCommandLinesTest {

  /** Stands in for the server's {@code /v1/models} (the lines all give --model but one). */
  private static final ServerModel.Lookup SERVER =
      (url, headers, insecure) -> new ServerModel("m", "m");

  static Stream<String> commandLines() throws IOException {
    try (InputStream in = BenchCommandLinesTest.class
        .getResourceAsStream("vllm-command-lines.txt")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
          .filter(line -> !line.isBlank() && !line.startsWith("#")).toList().stream();
    }
  }

  /** Empty when accepted, else the refusal. */
  private static Optional<String> refusal(String line) {
    try {
      BenchPlan.of(BenchArgs.parse(CommandLine.split(line)), SERVER);
      return Optional.empty();
    } catch (IllegalArgumentException e) {
      return Optional.of(e.getMessage());
    }
  }

  @ParameterizedTest
  @MethodSource("commandLines")
  void everyPastedLineIsAcceptedOrRefusedNamingAFlag(String line) {
    Optional<String> refused = refusal(line);
    refused.ifPresent(why -> {
      assertFalse(why.startsWith("unknown flag"), why);
      List<String> named = new ArrayList<>();
      for (Flag flag : BenchFlags.ALL) {
        if (why.contains(flag.option())) {
          named.add(flag.option());
        }
      }
      assertFalse(named.isEmpty(), "the reason names no flag: " + why);
    });
  }

  @Test
  void theLinesOfTodaysFlagsAreAcceptedAndTheRefusedOnesSayWhy() throws IOException {
    List<String> lines = commandLines().toList();
    List<String> accepted = lines.stream().filter(l -> refusal(l).isEmpty()).toList();
    // worked out by reading each line against the table: every 0.29 line of plain flags and
    // every older line, and of vllm-bench's the lines of flags vLLM's Python client has too
    assertTrue(accepted.contains(lines.get(3)), "the issue's --extra-body --insecure line");
    assertTrue(accepted.contains(lines.get(5)), "--input-len/--output-len");
    assertTrue(accepted.contains(lines.get(6)), "--lora-assignment round-robin");
    assertTrue(accepted.contains(lines.get(7)), "--skip-tokenizer-init");
    assertTrue(accepted.contains(lines.get(8)), "--custom-output-len -1, template kwargs");
    for (int older = 16; older <= 20; older++) {
      assertTrue(accepted.contains(lines.get(older)), lines.get(older));
    }
    // vllm-bench's --multi-turn lines: a fixed number of turns, a range with a per-turn
    // length, and the defaults' random dataset with think time
    for (int multiTurn = 42; multiTurn <= 44; multiTurn++) {
      assertTrue(accepted.contains(lines.get(multiTurn)), lines.get(multiTurn));
    }
    assertTrue(accepted.contains(lines.get(9)), "--probe-request-rate");
    assertTrue(accepted.contains(lines.get(12)), "client_queue_time percentile metrics");
    assertTrue(accepted.contains(lines.get(50)), "vllm-bench's --max-model-len");
    assertTrue(accepted.contains(lines.get(51)), "vllm-bench's --random-cache-hit-fraction");
    assertTrue(accepted.contains(lines.get(52)), "vLLM's BFCL reader with --bfcl-categories");
    assertTrue(accepted.contains(lines.get(23)), "vllm-bench's --prompt-token-ids");
    assertTrue(accepted.contains(lines.get(48)), "vllm-bench's --profile-batch-threshold");
    assertEquals(53, lines.size(), "the fixture's command lines");
  }
}
