package dev.gatlingllm.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.internal.cli.BenchArgs;
import dev.gatlingllm.internal.cli.BenchPlan;
import dev.gatlingllm.internal.cli.CommandLine;
import dev.gatlingllm.internal.protocol.Cancellation;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The cancel settings reach the protocol the same way from the DSL and from the flags, and
 * what cannot be half-applied is refused before the run.
 */
class CancelOptionsTest {

  private static LlmProtocolBuilder base() {
    return new LlmProtocolBuilder().environment(Map.<String, String>of()::get)
        .baseUrl("http://127.0.0.1:8000").model("org/model");
  }

  @Test
  void theDslSetsTheShareThePointAndTheProfilesSeed() {
    Cancellation c = base().arrivals(ArrivalProfile.builder().numPrompts(10).requestRate(5)
        .seed(9).build()).cancelFraction(0.25).cancelAfterTokens(7).protocol().cancellation();
    assertEquals(0.25, c.fraction());
    assertEquals(7, c.after().chunks());
    assertEquals(9, c.seed());
    Cancellation byTime = base().cancelFraction(0.5).cancelAfter(Duration.ofMillis(800))
        .protocol().cancellation();
    assertEquals(800, byTime.after().millis());
    assertEquals(0, byTime.seed(), "no profile: seed 0");
    assertFalse(base().protocol().cancellation().cancels(), "none by default");
  }

  @Test
  void aShareWithoutAPointOrOutOfRangeIsRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> base().cancelFraction(0.5).protocol());
    assertTrue(e.getMessage().contains("cancelAfterTokens"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> base().cancelFraction(1.2));
    assertThrows(IllegalArgumentException.class, () -> base().cancelAfterTokens(0));
  }

  private static BenchPlan plan(String flags) {
    return BenchPlan.of(BenchArgs.parse(CommandLine.split("--model m --dataset-name random "
        + "--num-prompts 10 --seed 4 " + flags)));
  }

  @Test
  void theFlagsGiveTheSameSettings() {
    Cancellation c = plan("--cancel-fraction 0.3 --cancel-after-ms 250").protocol()
        .arrivals(ArrivalProfile.builder().seed(4).build()).protocol().cancellation();
    assertEquals(0.3, c.fraction());
    assertEquals(250, c.after().millis());
    assertEquals(0, c.after().chunks(), "by time, not by tokens");
  }

  @Test
  void flagsThatCannotBeHalfAppliedAreRefused() {
    assertRefused("--cancel-fraction 0.3", "needs one of --cancel-after-tokens");
    assertRefused("--cancel-fraction 0.3 --cancel-after-tokens 3 --cancel-after-ms 9",
        "not both");
    assertRefused("--cancel-after-tokens 3", "give --cancel-fraction too");
    assertRefused("--cancel-fraction 1.5 --cancel-after-tokens 3", "from 0 to 1");
    assertRefused("--cancel-fraction 0.5 --cancel-after-tokens 0", "at least 1");
  }

  private static void assertRefused(String flags, String says) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> plan(flags));
    assertTrue(e.getMessage().contains(says), e.getMessage());
  }
}
