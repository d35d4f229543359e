package dev.gatlingllm.internal.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.internal.arrival.ArrivalSchedule;
import dev.gatlingllm.arrival.RampUpStrategy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Splitting a benchmark over injectors: every request exactly once, shares as even as can be. */
class InjectorShareTest {

  @Test
  void parsesKOfNAndRefusesWhatIsNot() {
    assertEquals(new InjectorShare(2, 3), InjectorShare.parse(" 2 / 3 "));
    assertEquals("1/4", InjectorShare.parse("1/4").toString());
    for (String bad : new String[] {"3/3", "-1/3", "1", "1/0", "a/b", "", "1/3/4"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> InjectorShare.parse(bad), bad);
      assertTrue(e.getMessage().contains("injector"), e.getMessage());
    }
    assertTrue(assertThrows(IllegalArgumentException.class, () -> InjectorShare.parse("3/3"))
        .getMessage().contains("0..2"));
  }

  @Test
  void readsThePropertyOrAKubernetesIndexWithACount() {
    assertEquals(InjectorShare.WHOLE, InjectorShare.from(Map.of(), Map.of()));
    assertEquals(new InjectorShare(1, 3),
        InjectorShare.from(Map.of("llm.injector", "1/3"), Map.of()));
    assertEquals(new InjectorShare(1, 3),
        InjectorShare.from(Map.of(), Map.of("LLM_INJECTOR", "1/3")));
    assertEquals(new InjectorShare(2, 5), InjectorShare.from(Map.of("llm.injectors", "5"),
        Map.of("JOB_COMPLETION_INDEX", "2")));
    assertEquals(new InjectorShare(2, 5),
        InjectorShare.from(Map.of(), Map.of("JOB_COMPLETION_INDEX", "2", "LLM_INJECTORS", "5")));
    // the property wins over the Job's index
    assertEquals(new InjectorShare(0, 5), InjectorShare.from(Map.of("llm.injector", "0/5"),
        Map.of("JOB_COMPLETION_INDEX", "2", "LLM_INJECTORS", "5")));
    // an Indexed Job that is not a scale-out (a sweep, one point per index) runs whole
    assertEquals(InjectorShare.WHOLE,
        InjectorShare.from(Map.of(), Map.of("JOB_COMPLETION_INDEX", "2")));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> InjectorShare.from(
        Map.of("llm.injector", "0/3", "llm.injectors", "4"), Map.of())).getMessage()
        .contains("says 3 injectors but llm.injectors says 4"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> InjectorShare.from(
        Map.of("llm.injectors", "4"), Map.of())).getMessage().contains("index"));
    assertThrows(IllegalArgumentException.class, () -> InjectorShare.from(
        Map.of("llm.injectors", "x"), Map.of("JOB_COMPLETION_INDEX", "1")));
    assertThrows(IllegalArgumentException.class, () -> InjectorShare.from(
        Map.of("llm.injectors", "3"), Map.of("JOB_COMPLETION_INDEX", "one")));
    assertThrows(IllegalArgumentException.class, () -> InjectorShare.from(
        Map.of("llm.injectors", "3"), Map.of("JOB_COMPLETION_INDEX", "3")));
  }

  @Test
  void theSharesPartitionTheRequests() {
    for (int n = 1; n <= 4; n++) {
      for (int total : new int[] {0, 1, 5, 6, 7, 100}) {
        List<Integer> all = IntStream.range(0, total).boxed().toList();
        List<Integer> union = new ArrayList<>();
        for (int k = 0; k < n; k++) {
          InjectorShare share = new InjectorShare(k, n);
          List<Integer> mine = share.select(all);
          assertEquals(mine.size(), share.sizeOf(total), share + " of " + total);
          for (int j = 0; j < mine.size(); j++) {
            assertEquals(share.global(j), (long) mine.get(j));
            assertTrue(share.owns(mine.get(j)));
          }
          union.addAll(mine);
        }
        union.sort(null);
        assertEquals(all, union, n + " injectors, " + total + " requests");
      }
    }
    // 7 requests over 3 injectors: 0,3,6 / 1,4 / 2,5
    assertEquals(List.of(1, 4), new InjectorShare(1, 3).select(List.of(0, 1, 2, 3, 4, 5, 6)));
    assertFalse(new InjectorShare(1, 3).owns(3));
  }

  @Test
  void maxConcurrencyIsSplitAsEvenlyAsPossible() {
    assertEquals(List.of(4, 3, 3), IntStream.range(0, 3)
        .mapToObj(k -> new InjectorShare(k, 3).maxConcurrency(10)).toList());
    assertEquals(List.of(2, 2, 2), IntStream.range(0, 3)
        .mapToObj(k -> new InjectorShare(k, 3).maxConcurrency(6)).toList());
    assertEquals(List.of(1, 1, 1), IntStream.range(0, 3)
        .mapToObj(k -> new InjectorShare(k, 3).maxConcurrency(3)).toList());
    assertEquals(64, InjectorShare.WHOLE.maxConcurrency(64));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new InjectorShare(0, 3).maxConcurrency(2));
    assertTrue(e.getMessage().contains("max concurrency 2 cannot be split over 3"), e.getMessage());
  }

  @Test
  void everyInjectorSendsItsArrivalsAtTheWholeSchedulesTimes() {
    for (ArrivalProfile profile : List.of(
        ArrivalProfile.builder().numPrompts(50).requestRate(20).seed(4).build(),
        ArrivalProfile.builder().numPrompts(50).requestRate(20).burstiness(0.3).seed(5).build(),
        ArrivalProfile.builder().numPrompts(50).rampUp(RampUpStrategy.LINEAR, 1, 30).build(),
        ArrivalProfile.builder().numPrompts(50).rampUp(RampUpStrategy.EXPONENTIAL, 2, 40).build(),
        ArrivalProfile.builder().numPrompts(50).build())) {
      ArrivalSchedule full = ArrivalSchedule.compute(profile);
      long[] merged = new long[0];
      for (int k = 0; k < 3; k++) {
        ArrivalSchedule mine = new InjectorShare(k, 3).schedule(profile);
        for (int j = 0; j < mine.size(); j++) {
          assertEquals(full.offsetNanos(k + 3 * j), mine.offsetNanos(j), profile + " " + k);
          assertEquals(full.rate(k + 3 * j), mine.rate(j));
        }
        assertEquals(full.rpsChangeEvents(), mine.rpsChangeEvents());
        long[] both = Arrays.copyOf(merged, merged.length + mine.size());
        System.arraycopy(mine.offsetsNanos(), 0, both, merged.length, mine.size());
        merged = both;
      }
      Arrays.sort(merged);
      assertEquals(Arrays.toString(full.offsetsNanos()), Arrays.toString(merged));
    }
    ArrivalProfile two = ArrivalProfile.builder().numPrompts(2).requestRate(1).build();
    assertSame(ArrivalSchedule.compute(two).getClass(),
        InjectorShare.WHOLE.schedule(two).getClass());
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> new InjectorShare(2, 3).schedule(two)).getMessage()
        .contains("fewer than its 3 injectors"));
    assertThrows(IllegalArgumentException.class, () -> ArrivalSchedule.compute(two).share(3, 3));
  }
}
