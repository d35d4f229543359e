package dev.gatlingllm.internal.arrival;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.nothingFor;
import static io.gatling.javaapi.core.CoreDsl.rampUsers;

import io.gatling.javaapi.core.OpenInjectionStep;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Turns an {@link ArrivalSchedule} into a short list of Gatling open-injection steps that
 * start every user a little ahead of its slot; a pacing action then holds each user until
 * its exact due time (see {@link ArrivalClock} and {@link SlotPacer}).
 *
 * <p>Why this shape. Gatling has no custom injection steps, so the plan can only use its
 * built-in ones, and those have two costs that grow with the number of steps:
 * <ul>
 *   <li>every step with a duration ({@code nothingFor}, {@code rampUsers}) wraps the rest of
 *       the profile in another iterator layer, so a user after {@code k} such steps costs the
 *       injector {@code k} layers; the injector runs once a second, on a thread of its own,
 *       and at 1,000 req/s with one step per 10 ms (this plan's first shape) its burst grew
 *       by about 10 ms of CPU per second of run, taking the client's core from the event
 *       loops (measured: docs/client-overhead.md);
 *   <li>past about 20,000 steps the chain overflows the stack.
 * </ul>
 * So the plan uses few steps, each a {@code rampUsers(n).during(d)}, which Gatling spreads
 * evenly over its seconds and, within each second, over its milliseconds: no burst of user
 * starts on the loops. The span of the run is cut into cells of {@code bucket} (1 s by
 * default, whole seconds); the users whose slots fall in a cell are ramped over that cell,
 * and consecutive cells are merged into one ramp as long as Gatling's even spread keeps every
 * user within one bucket of its slot, which for a steady rate holds for minutes. Empty cells
 * become {@code nothingFor}. The clock's start is placed {@code lead + bucket} after the
 * injection's start, so every user is injected between {@code lead} and
 * {@code lead + 2 * bucket} before its slot (0.5 to 2.5 s by default), and never after it.
 * When the run would need more than {@code maxBuckets} cells they are widened, so the step
 * count stays at most {@code 2 * maxBuckets} whatever the number of requests. A schedule
 * whose slots all fall at one instant (rate {@code inf}) is a single {@code atOnceUsers}
 * step, its users injected exactly {@code lead} ahead. Immutable.
 *
 * <pre>{@code
 * InjectionPlan plan = InjectionPlan.of(profile.schedule());
 * ArrivalClock clock = plan.newClock();          // shared by the pacing action
 * setUp(scenario.injectOpen(plan.steps()));      // exactly schedule.size() users
 * }</pre>
 */
public final class InjectionPlan {

  private static final long SECOND = 1_000_000_000L;
  private static final long MILLI = 1_000_000L;

  /**
   * Gatling's ramp steps last whole seconds, and a user may be placed anywhere in its cell:
   * one second is the finest cell that still bounds how early a user is injected.
   */
  static final long DEFAULT_BUCKET_MILLIS = 1_000;
  static final long DEFAULT_LEAD_MILLIS = 500;
  /** 4,000 steps at most: Gatling's step chain overflows the stack at about 20,000. */
  static final int DEFAULT_MAX_BUCKETS = 2_000;

  private final ArrivalSchedule schedule;
  private final long bucketNanos;
  private final long leadNanos;
  private final int maxBuckets;
  private final long effectiveBucketNanos;

  private InjectionPlan(ArrivalSchedule schedule, long bucketNanos, long leadNanos,
      int maxBuckets) {
    this.schedule = schedule;
    this.bucketNanos = bucketNanos;
    this.leadNanos = leadNanos;
    this.maxBuckets = maxBuckets;
    // Widen by whole multiples of the requested bucket until the span fits in maxBuckets.
    long needed = schedule.lastOffsetNanos() / bucketNanos + 1;
    long factor = (needed + maxBuckets - 1) / maxBuckets;
    this.effectiveBucketNanos = bucketNanos * Math.max(1, factor);
  }

  /** A plan with 1 s buckets, a 500 ms lead and at most 2000 buckets (4000 steps). */
  public static InjectionPlan of(ArrivalSchedule schedule) {
    Objects.requireNonNull(schedule, "schedule");
    return new InjectionPlan(schedule, DEFAULT_BUCKET_MILLIS * MILLI, DEFAULT_LEAD_MILLIS * MILLI,
        DEFAULT_MAX_BUCKETS);
  }

  /**
   * The least time by which a user is injected ahead of its slot; it absorbs the injector's
   * and event loops' jitter. At least 0, whole milliseconds.
   */
  public InjectionPlan withLead(Duration lead) {
    Objects.requireNonNull(lead, "lead");
    if (lead.isNegative() || lead.toNanos() % MILLI != 0) {
      throw new IllegalArgumentException(
          "lead must be whole milliseconds and at least 0 ms, got " + lead);
    }
    return new InjectionPlan(schedule, bucketNanos, lead.toNanos(), maxBuckets);
  }

  /**
   * Width of the cells the run is cut into: users are injected up to two of them earlier
   * than {@code lead}. At least 1 s, whole seconds (Gatling's ramps last whole seconds).
   */
  public InjectionPlan withBucket(Duration bucket) {
    Objects.requireNonNull(bucket, "bucket");
    if (bucket.toNanos() % SECOND != 0 || bucket.toSeconds() < 1) {
      throw new IllegalArgumentException(
          "bucket must be whole seconds and at least 1 s, got " + bucket);
    }
    return new InjectionPlan(schedule, bucket.toNanos(), leadNanos, maxBuckets);
  }

  /** Most buckets before they are widened (the step count is at most twice this); >= 1. */
  public InjectionPlan withMaxBuckets(int maxBuckets) {
    if (maxBuckets < 1) {
      throw new IllegalArgumentException("maxBuckets must be >= 1, got " + maxBuckets);
    }
    return new InjectionPlan(schedule, bucketNanos, leadNanos, maxBuckets);
  }

  /**
   * The Gatling steps: {@code nothingFor} over empty buckets and one {@code rampUsers} per run
   * of buckets merged as described above (or one {@code atOnceUsers} when all slots coincide).
   */
  public List<OpenInjectionStep> steps() {
    List<OpenInjectionStep> steps = new ArrayList<>();
    int n = schedule.size();
    if (allAtOnce()) {
      long waitMillis = schedule.offsetNanos(0) / MILLI;
      if (waitMillis > 0) {
        steps.add(nothingFor(Duration.ofMillis(waitMillis)));
      }
      steps.add(atOnceUsers(n));
      return steps;
    }
    long cursor = 0; // in buckets since the injection's start
    int first = 0;
    while (first < n) {
      long cell = cellOf(first);
      if (cell > cursor) {
        steps.add(nothingFor(Duration.ofNanos((cell - cursor) * effectiveBucketNanos)));
      }
      int cells = longestRamp(first, cell);
      int end = firstUserAfter(first, cell + cells);
      steps.add(rampUsers(end - first).during(Duration.ofNanos(cells * effectiveBucketNanos)));
      cursor = cell + cells;
      first = end;
    }
    return steps;
  }

  /**
   * A clock for one run of this plan: its start is fixed by the first user that claims a
   * slot, at the claim time plus the time from that user's injection to the clock's start.
   */
  public ArrivalClock newClock() {
    if (allAtOnce()) {
      // Every user is injected at once and its slot is exactly lead after the first claim.
      return new ArrivalClock(schedule, leadNanos - schedule.offsetNanos(0));
    }
    return new ArrivalClock(schedule, leadNanos + effectiveBucketNanos
        - cellOf(0) * effectiveBucketNanos);
  }

  /** The schedule the plan injects. */
  public ArrivalSchedule schedule() {
    return schedule;
  }

  /** The bucket width actually used (the requested one, widened for long runs). */
  public Duration bucket() {
    return Duration.ofNanos(effectiveBucketNanos);
  }

  /** The least time by which a user is injected ahead of its slot. */
  public Duration lead() {
    return Duration.ofNanos(leadNanos);
  }

  private boolean allAtOnce() {
    return schedule.offsetNanos(0) == schedule.lastOffsetNanos();
  }

  private long cellOf(int slot) {
    return schedule.offsetNanos(slot) / effectiveBucketNanos;
  }

  /** The first user, from {@code from} on, whose cell is {@code cell} or later. */
  private int firstUserAfter(int from, long cell) {
    long bound = cell * effectiveBucketNanos;
    int lo = from;
    int hi = schedule.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (schedule.offsetNanos(mid) < bound) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /**
   * How many cells, from {@code cell} (which holds user {@code first}), one ramp can cover
   * while every user it injects stays within a bucket of its slot: doubling, then bisecting
   * between the last length that held and the first that did not.
   */
  private int longestRamp(int first, long cell) {
    long lastCell = cellOf(schedule.size() - 1);
    int good = 1;
    int bad = -1;
    for (long len = 2; cell + len - 1 <= lastCell; len *= 2) {
      if (rampHolds(first, cell, (int) len)) {
        good = (int) len;
      } else {
        bad = (int) len;
        break;
      }
    }
    if (bad < 0) {
      bad = (int) Math.min(Integer.MAX_VALUE, lastCell - cell + 2);
    }
    while (bad - good > 1) {
      int mid = (good + bad) >>> 1;
      if (rampHolds(first, cell, mid)) {
        good = mid;
      } else {
        bad = mid;
      }
    }
    return good;
  }

  /**
   * Whether {@code rampUsers(n).during(cells)} from {@code cell}, injecting the users whose
   * slots fall in those cells, puts each of them within one bucket of its slot. Where
   * Gatling puts each user is computed as its injector does: the users are shared out evenly
   * over the ramp's whole seconds, then over each second's milliseconds.
   */
  private boolean rampHolds(int first, long cell, int cells) {
    int end = firstUserAfter(first, cell + cells);
    int users = end - first;
    long seconds = cells * effectiveBucketNanos / SECOND;
    long start = cell * effectiveBucketNanos;
    int user = first;
    for (long second = 0; second < seconds && user < end; second++) {
      long inSecond = evenShare(users, seconds, second);
      for (long k = 0; k < inSecond; k++, user++) {
        long at = start + second * SECOND + millisecondOf(k, inSecond) * MILLI;
        if (Math.abs(at - schedule.offsetNanos(user)) > effectiveBucketNanos) {
          return false;
        }
      }
    }
    return true;
  }

  /** How many of {@code total} items Gatling's even split puts in bucket {@code b} of {@code buckets}. */
  static long evenShare(long total, long buckets, long b) {
    return sumUpTo(total, buckets, b) - sumUpTo(total, buckets, b - 1);
  }

  /** The millisecond of its second at which Gatling injects the {@code k}-th of {@code n} users. */
  static long millisecondOf(long k, long n) {
    long ms = k * 1000 / n;
    while (ms > 0 && sumUpTo(n, 1000, ms - 1) > k) {
      ms--;
    }
    while (sumUpTo(n, 1000, ms) <= k) {
      ms++;
    }
    return ms;
  }

  /** Items in buckets 0..b of Gatling's even split of {@code total} over {@code buckets}. */
  private static long sumUpTo(long total, long buckets, long b) {
    if (b < 0) {
      return 0;
    }
    if (b >= buckets - 1) {
      return total;
    }
    return (long) Math.ceil((double) total / buckets * (b + 1));
  }
}
