package dev.gatlingllm.internal.selfcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/** The split of a late probe run's lag, worked out by hand. */
class LagCausesTest {

  private static final long MS = 1_000_000;

  @Test
  void runningFirstThenWaitingThenTheRestIsNotRunnable() {
    LagCauses causes = new LagCauses(MS);
    causes.measurable();
    causes.record(5 * MS, 2 * MS, 1 * MS);  // 2 running, 1 waiting, 2 not runnable
    causes.record(5 * MS, 20 * MS, 9 * MS); // a busy interval: all 5 running
    causes.record(4 * MS, 1 * MS, 10 * MS); // 1 running, the other 3 waiting
    SelfCheckReport.LagSplit split = causes.figures();
    assertEquals(new SelfCheckReport.LagSplit(true, 1, 14, 8, 4, 2), split);
  }

  @Test
  void runsAtOrUnderTheThresholdAreLeftOut() {
    LagCauses causes = new LagCauses(MS);
    causes.measurable();
    causes.record(MS, 0, 0);
    causes.record(MS / 2, 0, 0);
    causes.record(MS + 1, 0, 0);
    assertEquals(new SelfCheckReport.LagSplit(true, 1, 1.000001, 0, 0, 1.000001),
        causes.figures());
  }

  @Test
  void negativeDeltasCountAsNothing() {
    LagCauses causes = new LagCauses(MS);
    causes.measurable();
    causes.record(3 * MS, -5, -7);
    assertEquals(new SelfCheckReport.LagSplit(true, 1, 3, 0, 0, 3), causes.figures());
  }

  @Test
  void withoutAnyProbeThatCouldReadItsFiguresThereIsNoSplit() {
    LagCauses causes = new LagCauses(MS);
    causes.record(5 * MS, 1, 1);
    assertSame(SelfCheckReport.LagSplit.NOT_MEASURED, causes.figures());
  }
}
