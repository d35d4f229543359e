package dev.gatlingllm.arrival;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.nothingFor;

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
 * <p>Why this shape: Gatling has no custom injection steps, its injector works in one-second
 * batches with millisecond delays, and every step with a duration wraps the rest of the
 * profile in another iterator layer, so one step per request is late, slow and overflows the
 * stack for long runs. Instead arrivals are grouped into buckets ({@value
 * #DEFAULT_BUCKET_MILLIS} ms by default): the users of bucket {@code k} are injected together
 * at {@code k * bucket} ({@code nothingFor} + {@code atOnceUsers}), and the clock's start is
 * placed {@code lead} later, so each user arrives between {@code lead} and
 * {@code bucket + lead} before its slot. Gatling's active-users chart then follows the
 * arrivals within about half a second. Empty buckets cost nothing; when the run would need more
 * than {@code maxBuckets} buckets they are widened, so the step count stays at most
 * {@code 2 * maxBuckets} whatever the number of requests. Immutable.
 *
 * <pre>{@code
 * InjectionPlan plan = InjectionPlan.of(profile.schedule());
 * ArrivalClock clock = plan.newClock();          // shared by the pacing action
 * setUp(scenario.injectOpen(plan.steps()));      // exactly schedule.size() users
 * }</pre>
 */
public final class InjectionPlan {

  /**
   * Users of a bucket start together, and starting one costs its event loop some work; at
   * 1,000 req/s one-second buckets put a thousand starts on the loops at once every second,
   * during which no slot could be released on time. Ten-millisecond buckets keep each burst
   * to a few users.
   */
  static final long DEFAULT_BUCKET_MILLIS = 10;
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

  /** A plan with 10 ms buckets, a 500 ms lead and at most 2000 buckets (4000 steps). */
  public static InjectionPlan of(ArrivalSchedule schedule) {
    Objects.requireNonNull(schedule, "schedule");
    return new InjectionPlan(schedule, DEFAULT_BUCKET_MILLIS * 1_000_000,
        DEFAULT_LEAD_MILLIS * 1_000_000, DEFAULT_MAX_BUCKETS);
  }

  /**
   * How long before its bucket's first possible slot a user is injected; it absorbs the
   * injector's and event loops' jitter. At least 0, whole milliseconds.
   */
  public InjectionPlan withLead(Duration lead) {
    return new InjectionPlan(schedule, bucketNanos, wholeMillis("lead", lead, 0), maxBuckets);
  }

  /** Width of the injection buckets; at least 10 ms, whole milliseconds. */
  public InjectionPlan withBucket(Duration bucket) {
    return new InjectionPlan(schedule, wholeMillis("bucket", bucket, 10), leadNanos, maxBuckets);
  }

  /** Most buckets before they are widened (the step count is at most twice this); >= 1. */
  public InjectionPlan withMaxBuckets(int maxBuckets) {
    if (maxBuckets < 1) {
      throw new IllegalArgumentException("maxBuckets must be >= 1, got " + maxBuckets);
    }
    return new InjectionPlan(schedule, bucketNanos, leadNanos, maxBuckets);
  }

  /** The Gatling steps: {@code nothingFor} gaps and one {@code atOnceUsers} per non-empty bucket. */
  public List<OpenInjectionStep> steps() {
    List<OpenInjectionStep> steps = new ArrayList<>();
    long cursor = 0;
    int n = schedule.size();
    int i = 0;
    while (i < n) {
      long bucket = bucketOf(i);
      int users = 0;
      while (i < n && bucketOf(i) == bucket) {
        users++;
        i++;
      }
      if (bucket > cursor) {
        steps.add(nothingFor(Duration.ofNanos((bucket - cursor) * effectiveBucketNanos)));
        cursor = bucket;
      }
      steps.add(atOnceUsers(users));
    }
    return steps;
  }

  /**
   * A clock for one run of this plan: its start is fixed by the first user that claims a slot,
   * at the claim time plus the lead, minus the time the plan waited before that user's bucket.
   */
  public ArrivalClock newClock() {
    return new ArrivalClock(schedule, leadNanos - injectionOffsetNanos(0));
  }

  /** The schedule the plan injects. */
  public ArrivalSchedule schedule() {
    return schedule;
  }

  /** The bucket width actually used (the requested one, widened for long runs). */
  public Duration bucket() {
    return Duration.ofNanos(effectiveBucketNanos);
  }

  /** The lead of every bucket over its slots. */
  public Duration lead() {
    return Duration.ofNanos(leadNanos);
  }

  /** When the plan injects the user that gets {@code slot}, relative to the injection start. */
  long injectionOffsetNanos(int slot) {
    return bucketOf(slot) * effectiveBucketNanos;
  }

  private long bucketOf(int slot) {
    return schedule.offsetNanos(slot) / effectiveBucketNanos;
  }

  private static long wholeMillis(String what, Duration d, long minMillis) {
    Objects.requireNonNull(d, what);
    if (d.toNanos() % 1_000_000 != 0 || d.toMillis() < minMillis) {
      throw new IllegalArgumentException(what + " must be whole milliseconds and at least "
          + minMillis + " ms, got " + d);
    }
    return d.toNanos();
  }
}
