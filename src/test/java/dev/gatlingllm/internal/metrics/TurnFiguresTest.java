package dev.gatlingllm.internal.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class TurnFiguresTest {

  static final long MS = 1_000_000;

  static RequestRecord ok(int turn, int prompt, int output, int... chunkMs) {
    int[] micros = new int[chunkMs.length];
    for (int i = 0; i < chunkMs.length; i++) {
      micros[i] = chunkMs[i] * 1_000;
    }
    return RequestRecord.builder("chat").startNanos(0).ttftNanos(chunkMs[0] * MS)
        .latencyNanos(chunkMs[chunkMs.length - 1] * MS).endNanos(chunkMs[chunkMs.length - 1] * MS)
        .chunkMicros(micros).promptTokens(prompt).outputTokens(output).httpStatus(200)
        .success(true).turn(turn).build();
  }

  /**
   * Turn 1: TTFT 10 and 20, TPOT (30-10)/2 = 10 and (50-20)/1 = 30, ITLs 10, 10, 30, E2EL 30
   * and 50, prompts 100 and 200. Turn 2: one success (TTFT 5, TPOT 4, ITL 4, E2EL 9, prompt
   * 400) and one failure. The request outside any conversation is in neither.
   */
  @Test
  void eachTurnHasTheFiguresOfItsOwnRequests() {
    List<RequestRecord> records = List.of(
        ok(1, 100, 3, 10, 20, 30),
        ok(2, 400, 2, 5, 9),
        ok(1, 200, 2, 20, 50),
        RequestRecord.builder("chat").error("HTTP 500").httpStatus(500).turn(2).build(),
        ok(0, 7, 2, 1000, 2000));
    BenchmarkMetrics whole = MetricsCalculator.builder().percentiles(50, 99).build()
        .compute(records, 10);
    List<TurnFigures> turns = TurnFigures.of(RecordSource.of(records), whole,
        new double[] {50, 99});

    assertEquals(2, turns.size());
    TurnFigures first = turns.get(0);
    assertEquals(1, first.turn());
    assertEquals(2, first.completed());
    assertEquals(0, first.failed());
    assertEquals(150.0, first.meanInputTokens(), 1e-9);
    assertEquals(2.5, first.meanOutputTokens(), 1e-9);
    assertEquals(15.0, first.latencies().ttft().mean(), 1e-9);
    assertEquals(20.0, first.latencies().tpot().mean(), 1e-9);
    assertEquals(50.0 / 3, first.latencies().itl().mean(), 1e-9);
    assertEquals(10.0, first.latencies().itl().median(), 1e-9);
    assertEquals(40.0, first.latencies().e2el().mean(), 1e-9);
    assertEquals(19.9, first.latencies().ttft().percentile(99), 1e-9, "rank 0.99 of (10, 20)");

    TurnFigures second = turns.get(1);
    assertEquals(2, second.turn());
    assertEquals(1, second.completed());
    assertEquals(1, second.failed());
    assertEquals(400.0, second.meanInputTokens(), 1e-9);
    assertEquals(5.0, second.latencies().ttft().mean(), 1e-9);
    assertEquals(4.0, second.latencies().tpot().mean(), 1e-9);
    assertEquals(4.0, second.latencies().itl().mean(), 1e-9);
    assertEquals(9.0, second.latencies().e2el().mean(), 1e-9);
  }

  @Test
  void aRunWithoutConversationsHasNoTurns() {
    List<RequestRecord> records = List.of(ok(0, 10, 2, 1, 2));
    BenchmarkMetrics whole = MetricsCalculator.builder().build().compute(records, 1);
    assertEquals(List.of(), TurnFigures.of(RecordSource.of(records), whole, new double[] {99}));
  }
}
