package dev.gatlingllm.internal.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class DatasetStatsTest {

  private static List<DatasetStats.Request> requests(int[] in, int[] out) {
    List<DatasetStats.Request> list = new ArrayList<>();
    for (int i = 0; i < in.length; i++) {
      list.add(new DatasetStats.Request("p" + i, in[i], out[i]));
    }
    return list;
  }

  @Test
  void distributionsAreNumpysWithLinearPercentiles() {
    DatasetStats s = DatasetStats.of(requests(new int[] {40, 10, 30, 20},
        new int[] {5, 100, 5, 5}), null);
    assertEquals(4, s.requests());
    // sorted 10 20 30 40: mean 25; p50 at rank 1.5 = 20 + 0.5 * 10 = 25;
    // p99 at rank 0.99 * 3 = 2.97 = 30 + 0.97 * 10 = 39.7
    assertTokens(s.input(), 10, 25.0, 25.0, 39.7, 40, 100);
    // sorted 5 5 5 100: mean 115 / 4 = 28.75; p50 at rank 1.5 = 5;
    // p99 at rank 2.97 = 5 + 0.97 * 95 = 97.15
    assertTokens(s.output(), 5, 28.75, 5.0, 97.15, 100, 115);
    assertNull(s.prefixSharing(), "not counted without an encoder");
  }

  @Test
  void histogramsHaveAtMostThirtyWholeTokenBars() {
    DatasetStats s = DatasetStats.of(requests(new int[] {40, 10, 30, 20},
        new int[] {5, 100, 5, 5}), null);
    // inputs 10..40 span 31 tokens: bars of ceil(31 / 30) = 2 tokens, ceil(31 / 2) = 16 bars;
    // 10 in bar 0, 20 in bar 5, 30 in bar 10, 40 in bar 15
    DatasetStats.Histogram in = s.input().histogram();
    assertEquals(10, in.start());
    assertEquals(2, in.width());
    long[] expected = new long[16];
    expected[0] = expected[5] = expected[10] = expected[15] = 1;
    assertArrayEquals(expected, in.counts());
    // outputs 5..100 span 96: bars of ceil(96 / 30) = 4, 24 bars; 5 three times in bar 0,
    // 100 in bar (100 - 5) / 4 = 23
    DatasetStats.Histogram out = s.output().histogram();
    assertEquals(4, out.width());
    assertEquals(24, out.counts().length);
    assertEquals(3, out.counts()[0]);
    assertEquals(1, out.counts()[23]);
    assertEquals(4, java.util.Arrays.stream(out.counts()).sum());
  }

  @Test
  void oneLengthIsOneBarOfOneToken() {
    DatasetStats s = DatasetStats.of(requests(new int[] {7, 7, 7}, new int[] {3, 3, 3}), null);
    assertArrayEquals(new long[] {3}, s.input().histogram().counts());
    assertEquals(1, s.input().histogram().width());
    assertEquals(7.0, s.input().p99(), 0);
  }

  @Test
  void prefixSharingCountsFullBlocksAnEarlierPromptBeganWith() {
    Map<String, int[]> ids = Map.of(
        // 40 tokens: blocks 0..15, 16..31 and a partial block of 8 (never cached)
        "a", IntStream.range(0, 40).toArray(),
        // a's two full blocks, then its own: 32 shared
        "b", IntStream.concat(IntStream.range(0, 32), IntStream.range(200, 208)).toArray(),
        // a's first block only, then two blocks of its own: 16 shared
        "c", IntStream.concat(IntStream.range(0, 16), IntStream.range(300, 332)).toArray(),
        // a's second block, but first: not a shared prefix
        "d", IntStream.range(16, 32).toArray(),
        // nothing of anyone
        "e", IntStream.range(500, 532).toArray());
    List<DatasetStats.Request> list = new ArrayList<>();
    for (String p : List.of("a", "b", "c", "d", "e")) {
      list.add(new DatasetStats.Request(p, ids.get(p).length, 1));
    }
    DatasetStats.PrefixSharing sharing = DatasetStats.of(list, ids::get).prefixSharing();
    // 40 + 40 + 48 + 16 + 32 = 176 tokens; 32 + 16 = 48 shared, by b and c
    assertEquals(176, sharing.promptTokens());
    assertEquals(48, sharing.sharedTokens());
    assertEquals(2, sharing.sharingPrompts());
    assertEquals(100.0 * 48 / 176, sharing.sharedPercent(), 1e-12);
  }

  @Test
  void noSharedPrefixIsNoPrefixSection() {
    Map<String, int[]> ids = Map.of("a", IntStream.range(0, 32).toArray(),
        "b", IntStream.range(100, 132).toArray());
    DatasetStats s = DatasetStats.of(List.of(new DatasetStats.Request("a", 32, 1),
        new DatasetStats.Request("b", 32, 1)), ids::get);
    assertNull(s.prefixSharing());
    assertTrue(!s.console().contains("Prefix"), s.console());
  }

  @Test
  void consolePrintsEachFigureInVllmsColumns() {
    String text = DatasetStats.of(requests(new int[] {40, 10, 30, 20},
        new int[] {5, 100, 5, 5}), null).console();
    List<String> lines = text.lines().toList();
    assertEquals("=============== Dataset Statistics ===============", lines.get(0));
    assertEquals("Requests:" + " ".repeat(32) + "4", lines.get(1));
    assertTrue(lines.contains("P99:" + " ".repeat(37) + "39.70"), text);
    assertTrue(lines.contains("P99:" + " ".repeat(37) + "97.15"), text);
    assertTrue(lines.contains("Mean:" + " ".repeat(36) + "28.75"), text);
  }

  @Test
  void anEmptySampleIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> DatasetStats.of(List.of(), null));
  }

  /** min, mean, p50, p99, max and total of a side's token counts. */
  private static void assertTokens(DatasetStats.Tokens t, int min, double mean, double p50,
      double p99, int max, long total) {
    assertEquals(min, t.min());
    assertEquals(mean, t.mean(), 1e-12);
    assertEquals(p50, t.p50(), 1e-12);
    assertEquals(p99, t.p99(), 1e-9);
    assertEquals(max, t.max());
    assertEquals(total, t.total());
  }
}
