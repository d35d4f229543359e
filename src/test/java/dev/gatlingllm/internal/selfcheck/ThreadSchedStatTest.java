package dev.gatlingllm.internal.selfcheck;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Linux's per-thread scheduler figures, as the self-check reads them. */
class ThreadSchedStatTest {

  private static boolean parse(String text, long[] into) {
    return ThreadSchedStat.parse(ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII)), into);
  }

  @Test
  void theFirstTwoFieldsAreRunningAndWaitingNanoseconds() {
    long[] into = new long[2];
    assertTrue(parse("238079971 28324654 215\n", into));
    assertArrayEquals(new long[] {238079971, 28324654}, into);
  }

  @Test
  void anythingElseIsRefused() {
    long[] into = {-1, -1};
    assertFalse(parse("", into));
    assertFalse(parse("123", into));        // no second field
    assertFalse(parse("123 456", into));    // the second not ended by a space
    assertFalse(parse(" 123 456 7\n", into));
    assertFalse(parse("12a 456 7\n", into));
    assertFalse(parse("1234567890123456789 1 1\n", into)); // 19 digits: over 31 years
    assertArrayEquals(new long[] {123, -1}, into, "a refused line may leave its first field");
  }

  @Test
  void aThreadsRunningTimeGrowsWhenItWorks() {
    assumeTrue(Files.isReadable(Path.of("/proc/thread-self/schedstat")), "Linux only");
    ThreadSchedStat stat = ThreadSchedStat.ofCurrentThread();
    assertNotNull(stat);
    long[] before = new long[2];
    long[] after = new long[2];
    assertTrue(stat.read(before));
    // spin for 20 ms of this thread's own CPU time, not of the wall clock: on a busy machine
    // 20 wall-clock ms may hold only a few ms of running (seen: 4.6 ms under a loaded CI host)
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long end = threads.getCurrentThreadCpuTime() + 20_000_000;
    long spin = 0;
    while (threads.getCurrentThreadCpuTime() < end) {
      spin++;
    }
    assertTrue(stat.read(after));
    assertTrue(after[0] - before[0] >= 5_000_000,
        "20 ms of spinning on the CPU ran at least 5 ms: " + (after[0] - before[0]) + " ns, "
            + spin);
    assertTrue(after[1] >= before[1]);
    stat.close();
    assertFalse(stat.read(after), "closed: no more figures");
  }
}
