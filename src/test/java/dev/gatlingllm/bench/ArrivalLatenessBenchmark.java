package dev.gatlingllm.bench;

import dev.gatlingllm.internal.arrival.ArrivalClock;
import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.internal.arrival.ArrivalSchedule;
import dev.gatlingllm.arrival.GatlingInjectionTimes;
import dev.gatlingllm.internal.arrival.InjectionPlan;
import dev.gatlingllm.internal.arrival.SlotPacer;
import io.gatling.netty.util.Transports;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoEventLoop;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.uring.IoUringIoHandler;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * How late the arrival pacer releases requests: 20,000 Poisson arrivals at 1,000 req/s on two
 * Gatling-style event loops ({@link Transports#newEventLoopGroup}, the factory Gatling uses),
 * injected the way Gatling would inject the {@link InjectionPlan}'s steps (per-second batches,
 * millisecond delays, users spread round-robin over the loops), each user claiming a slot
 * from the {@link ArrivalClock} and waiting in {@link SlotPacer#awaitSlot}. Records, for every
 * slot, the time its callback ran minus its due time.
 *
 * <p>A 5,000-arrival warm-up on the same loops runs first and is not counted. Alongside each
 * run a plain thread measures how much {@code LockSupport.parkNanos} oversleeps, which is the
 * operating system's own floor on a shared machine, so the figures can be judged against the
 * load at the time.
 *
 * <p>Run: {@code ./mvnw -B -q test-compile exec:java
 * -Dexec.mainClass=dev.gatlingllm.bench.ArrivalLatenessBenchmark}. System properties:
 * {@code transports} (default {@code epoll,io_uring,nio}; {@code epoll} is Gatling's default),
 * {@code n} (20000), {@code rate} (1000), {@code wakeEarlyUs} (100), {@code spinShare} (0.1),
 * {@code dump} (a path prefix: writes "offset_ns lateness_ns" per slot for each transport).
 * Percentiles are nearest-rank.
 */
public final class ArrivalLatenessBenchmark {

  private static final int LOOPS = 2;
  private static final long INJECTOR_TICK_NANOS = 1_000_000_000L;

  private ArrivalLatenessBenchmark() {}

  public static void main(String[] args) throws Exception {
    int n = Integer.getInteger("n", 20_000);
    double rate = Double.parseDouble(System.getProperty("rate", "1000"));
    String[] transports = System.getProperty("transports", "epoll,io_uring,nio").split(",");
    SlotPacer pacer = SlotPacer.create(
        Duration.ofNanos(Long.getLong("wakeEarlyUs", 100) * 1_000),
        Double.parseDouble(System.getProperty("spinShare", "0.1")));
    ArrivalSchedule warmUp =
        ArrivalSchedule.compute(ArrivalProfile.builder()
            .numPrompts(5_000).requestRate(rate).seed(1).build());
    ArrivalSchedule measured =
        ArrivalSchedule.compute(ArrivalProfile.builder()
            .numPrompts(n).requestRate(rate).seed(0).build());

    System.out.printf(Locale.ROOT, "%d Poisson arrivals at %.0f req/s on %d loops, %s, %d cores, "
            + "java %s%n", n, rate, LOOPS, pacer, Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.version"));
    for (String transport : transports) {
      boolean useNative = !transport.equals("nio");
      boolean useIoUring = transport.equals("io_uring");
      EventLoopGroup group =
          Transports.newEventLoopGroup(useNative, useIoUring, LOOPS, "gatling-bench");
      try {
        String kind = loopKind(group.next());
        run(group, warmUp, pacer);
        String loadBefore = loadAverage();
        long[] parkOversleep = new long[200_000];
        int[] parkCount = {0};
        Thread floor = new Thread(() -> measureParkOversleep(parkOversleep, parkCount), "floor");
        floor.setDaemon(true);
        floor.start();
        long[] gcBefore = gcCountAndMillis();
        long stealBefore = stealTicks();
        long loopCpuBefore = loopCpuNanos();
        long wallBefore = System.nanoTime();
        long[] lateness = run(group, measured, pacer);
        long[] gcAfter = gcCountAndMillis();
        long stealAfter = stealTicks();
        double loopCpuShare = (loopCpuNanos() - loopCpuBefore)
            / (double) (LOOPS * (System.nanoTime() - wallBefore));
        floor.interrupt();
        floor.join();
        dump(measured, lateness, transport);
        Arrays.sort(lateness);
        long[] park = Arrays.copyOf(parkOversleep, parkCount[0]);
        Arrays.sort(park);
        System.out.printf(Locale.ROOT,
            "loops=%-8s (asked %-8s) lateness p50=%5d us  p99=%5d us  p99.9=%6d us  max=%6d us"
                + " | loop CPU %.1f %%"
                + " | parkNanos oversleep p50=%d us p99=%d us max=%d us | GCs %d (%d ms)"
                + " | steal %d ticks | load %s -> %s%n",
            kind, transport, micros(lateness, 0.50), micros(lateness, 0.99),
            micros(lateness, 0.999), lateness[lateness.length - 1] / 1_000, 100 * loopCpuShare,
            micros(park, 0.50), micros(park, 0.99), park[park.length - 1] / 1_000,
            gcAfter[0] - gcBefore[0], gcAfter[1] - gcBefore[1], stealAfter - stealBefore,
            loadBefore, loadAverage());
      } finally {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
      }
    }
  }

  /** Paces every slot of {@code schedule} on {@code group}; returns lateness per slot (ns). */
  private static long[] run(EventLoopGroup group, ArrivalSchedule schedule, SlotPacer pacer)
      throws InterruptedException {
    InjectionPlan plan = InjectionPlan.of(schedule);
    ArrivalClock clock = plan.newClock();
    long[] userStarts = GatlingInjectionTimes.userStartNanos(plan.steps());
    int n = schedule.size();
    long[] lateness = new long[n];
    CountDownLatch done = new CountDownLatch(n);
    ScheduledExecutorService injector = Executors.newSingleThreadScheduledExecutor();
    long injectionStart = System.nanoTime() + 20_000_000;
    int[] next = {0};
    // Like Gatling's injector: once a second, schedule the coming second's users with
    // millisecond delays, each on the next loop of the group.
    Runnable tick = () -> {
      long elapsed = System.nanoTime() - injectionStart;
      while (next[0] < userStarts.length && userStarts[next[0]] < elapsed + INJECTOR_TICK_NANOS) {
        EventLoop loop = group.next();
        long delayMillis = Math.max(0, (userStarts[next[0]] - elapsed) / 1_000_000);
        loop.schedule(() -> {
          int slot = clock.claim();
          long due = clock.dueNanos(slot);
          pacer.awaitSlot(loop, due, () -> {
            lateness[slot] = System.nanoTime() - due;
            done.countDown();
          });
        }, delayMillis, TimeUnit.MILLISECONDS);
        next[0]++;
      }
    };
    injector.scheduleAtFixedRate(tick, injectionStart - System.nanoTime(), INJECTOR_TICK_NANOS,
        TimeUnit.NANOSECONDS);
    long budgetMillis = schedule.lastOffsetNanos() / 1_000_000 + 30_000;
    boolean finished = done.await(budgetMillis, TimeUnit.MILLISECONDS);
    injector.shutdownNow();
    if (!finished) {
      throw new IllegalStateException(done.getCount() + " slots never ran");
    }
    return lateness;
  }

  /** With {@code -Ddump=prefix}, writes "offset_ns lateness_ns" per slot to prefix-transport.txt. */
  private static void dump(ArrivalSchedule schedule, long[] lateness, String transport)
      throws IOException {
    String prefix = System.getProperty("dump");
    if (prefix == null) {
      return;
    }
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < lateness.length; i++) {
      out.append(schedule.offsetNanos(i)).append(' ').append(lateness[i]).append('\n');
    }
    Files.writeString(Path.of(prefix + "-" + transport + ".txt"), out);
  }

  private static void measureParkOversleep(long[] samples, int[] count) {
    SplittableRandom random = new SplittableRandom(3);
    while (!Thread.currentThread().isInterrupted() && count[0] < samples.length) {
      long wanted = 200_000 + random.nextLong(1_800_000);
      long start = System.nanoTime();
      LockSupport.parkNanos(wanted);
      samples[count[0]++] = System.nanoTime() - start - wanted;
    }
  }

  /** CPU time used so far by the benchmark's event loop threads. */
  private static long loopCpuNanos() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long total = 0;
    for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (info != null && info.getThreadName().startsWith("gatling-bench")) {
        total += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
      }
    }
    return total;
  }

  private static long[] gcCountAndMillis() {
    long count = 0;
    long millis = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      count += Math.max(0, gc.getCollectionCount());
      millis += Math.max(0, gc.getCollectionTime());
    }
    return new long[] {count, millis};
  }

  private static String loopKind(EventLoop loop) {
    IoEventLoop io = (IoEventLoop) loop;
    if (io.isIoType(IoUringIoHandler.class)) {
      return "io_uring";
    }
    if (io.isIoType(EpollIoHandler.class)) {
      return "epoll";
    }
    if (io.isIoType(NioIoHandler.class)) {
      return "nio";
    }
    return loop.getClass().getSimpleName();
  }

  private static long micros(long[] sorted, double quantile) {
    return sorted[Math.min(sorted.length - 1, (int) (sorted.length * quantile))] / 1_000;
  }

  /** CPU time the hypervisor gave to others while we were runnable (the 8th field of "cpu"). */
  private static long stealTicks() {
    try {
      String[] cpu = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
      return Long.parseLong(cpu[8]);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  private static String loadAverage() {
    try {
      String[] parts = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return parts[0];
    } catch (IOException | RuntimeException e) {
      return "?";
    }
  }
}
