package dev.gatlingllm.internal.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.options.ResultOptions;
import java.util.List;
import org.junit.jupiter.api.Test;

class TimelineFlagsTest {

  private static ResultOptions options(String... words) {
    return TimelineFlags.apply(BenchArgs.parse(List.of(words)), ResultOptions.builder()).build();
  }

  @Test
  void offUnlessAsked() {
    assertFalse(options().plotTimeline());
    // the thresholds are read only with --plot-timeline, as vLLM reads them
    assertFalse(options("--timeline-itl-thresholds", "1,2,3").plotTimeline());
  }

  @Test
  void vllmsDefaultThresholdsAreTwentyFiveAndFiftyMilliseconds() {
    ResultOptions o = options("--plot-timeline");
    assertTrue(o.plotTimeline());
    assertArrayEquals(new double[] {25, 50}, o.timelineThresholdsMs());
    assertArrayEquals(new double[] {10, 12.5},
        options("--plot-timeline", "--timeline-itl-thresholds", " 10 , 12.5").timelineThresholdsMs());
  }

  @Test
  void badThresholdsAreRefusedNamingTheFlag() {
    assertEquals("Invalid --timeline-itl-thresholds format: Expected 2 ITL threshold values, "
        + "got 3 (10,20,30)", assertThrows(IllegalArgumentException.class,
            () -> TimelineFlags.thresholds("10,20,30")).getMessage());
    assertEquals("Invalid --timeline-itl-thresholds format: 'x' is not a number of milliseconds",
        assertThrows(IllegalArgumentException.class,
            () -> TimelineFlags.thresholds("x,20")).getMessage());
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> TimelineFlags.thresholds("50,25")).getMessage().contains("ascending"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> TimelineFlags.thresholds("0,25")).getMessage().contains("positive"));
  }
}
