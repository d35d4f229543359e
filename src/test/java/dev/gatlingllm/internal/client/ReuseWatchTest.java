package dev.gatlingllm.internal.client;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** When the client decides that a server does not let its connections be reused. */
class ReuseWatchTest {

  private static final long AT_ONCE = TimeUnit.MILLISECONDS.toNanos(2);
  private final ReuseWatch watch = new ReuseWatch();

  @Test
  void fourConnectionsClosedRightAfterTheirResponseInARowStopTheReuse() {
    for (int i = 0; i < 3; i++) {
      watch.closedByServer(AT_ONCE);
      assertTrue(watch.reusing(), "after " + (i + 1) + " closes");
    }
    watch.closedByServer(AT_ONCE);
    assertFalse(watch.reusing());
  }

  @Test
  void aConnectionKeptForASecondResponseStartsTheCountAgain() {
    for (int i = 0; i < 3; i++) {
      watch.closedByServer(AT_ONCE);
    }
    watch.keptOpen();
    for (int i = 0; i < 3; i++) {
      watch.closedByServer(AT_ONCE);
    }
    assertTrue(watch.reusing());
    watch.closedByServer(AT_ONCE);
    assertFalse(watch.reusing());
  }

  @Test
  void anIdleTimeoutOfTheServerDoesNotCount() {
    // a connection closed a second or more after its response: the server's idle timeout
    for (int i = 0; i < 10; i++) {
      watch.closedByServer(ReuseWatch.SOON_NANOS);
    }
    assertTrue(watch.reusing());
  }

  @Test
  void onceStoppedTheReuseStaysStopped() {
    for (int i = 0; i < ReuseWatch.CLOSES_IN_A_ROW; i++) {
      watch.closedByServer(0);
    }
    watch.keptOpen();
    assertFalse(watch.reusing());
  }
}
