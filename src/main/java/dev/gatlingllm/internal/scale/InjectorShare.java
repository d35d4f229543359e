package dev.gatlingllm.internal.scale;

import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.internal.arrival.ArrivalSchedule;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which part of a benchmark one injector sends: of the benchmark's requests {@code 0 .. n-1}
 * (in arrival order, the same order as the dataset sample), injector {@code index} of
 * {@code count} sends exactly those with {@code i mod count == index}. Every injector computes
 * the whole seeded schedule and sample and keeps its share, so the union of all shares is the
 * single-machine benchmark, request by request. Indices are 0-based, like Kubernetes'
 * {@code JOB_COMPLETION_INDEX}. Immutable.
 *
 * @param index this injector, {@code 0 <= index < count}
 * @param count how many injectors share the benchmark, at least 1
 */
public record InjectorShare(int index, int count) {

  /** The whole benchmark on one injector. */
  public static final InjectorShare WHOLE = new InjectorShare(0, 1);

  private static final Logger LOG = LoggerFactory.getLogger(InjectorShare.class);
  private static final Pattern K_OF_N = Pattern.compile("\\s*(\\d{1,9})\\s*/\\s*(\\d{1,9})\\s*");

  public InjectorShare {
    if (count < 1) {
      throw new IllegalArgumentException("the injector count must be >= 1, got " + count);
    }
    if (index < 0 || index >= count) {
      throw new IllegalArgumentException("the injector index must be in 0.." + (count - 1)
          + " (0-based, like JOB_COMPLETION_INDEX) for " + count + " injectors, got " + index);
    }
  }

  /**
   * Parses {@code K/N}, for example {@code 0/3}, {@code 1/3}, {@code 2/3}.
   *
   * @throws IllegalArgumentException naming the value and the expected form
   */
  public static InjectorShare parse(String kOfN) {
    Matcher m = K_OF_N.matcher(kOfN == null ? "" : kOfN);
    if (!m.matches()) {
      throw new IllegalArgumentException("injector '" + kOfN + "' is not of the form K/N "
          + "(this injector's 0-based index K of N injectors, e.g. 0/3, 1/3, 2/3)");
    }
    return new InjectorShare(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
  }

  /**
   * The share from the settings: {@code llm.injector=K/N} (system property, else the
   * {@code LLM_INJECTOR} environment variable), else {@code JOB_COMPLETION_INDEX} (set by a
   * Kubernetes Indexed Job) with the count from {@code llm.injectors} or
   * {@code LLM_INJECTORS}; the whole benchmark when none is set (and, with a warning, for a
   * {@code JOB_COMPLETION_INDEX} without a count: the Job may index something else).
   *
   * @param properties system properties
   * @param env        environment variables
   * @throws IllegalArgumentException when a value is malformed, or a count comes without an
   *                                  index
   */
  public static InjectorShare from(Map<String, String> properties, Map<String, String> env) {
    String kOfN = first(properties.get(ScaleOut.INJECTOR_PROPERTY), env.get("LLM_INJECTOR"));
    String count = first(properties.get(ScaleOut.INJECTORS_PROPERTY), env.get("LLM_INJECTORS"));
    if (kOfN != null) {
      InjectorShare share = parse(kOfN);
      if (count != null && parseCount(count) != share.count()) {
        throw new IllegalArgumentException("-D" + ScaleOut.INJECTOR_PROPERTY + "=" + kOfN
            + " says " + share.count() + " injectors but " + ScaleOut.INJECTORS_PROPERTY
            + " says " + count.trim() + ": give one of them");
      }
      return share;
    }
    String index = env.get("JOB_COMPLETION_INDEX");
    if (index == null || index.isBlank()) {
      if (count != null && parseCount(count) != 1) {
        throw new IllegalArgumentException(ScaleOut.INJECTORS_PROPERTY + "=" + count.trim()
            + " is set but not this injector's index: set -D" + ScaleOut.INJECTOR_PROPERTY
            + "=K/N, or run in a Kubernetes Indexed Job (JOB_COMPLETION_INDEX)");
      }
      return WHOLE;
    }
    if (count == null) {
      // an Indexed Job may run other things (a sweep, one point per index): no count, no split
      LOG.warn("JOB_COMPLETION_INDEX={} is set but not the number of injectors: this pod runs "
          + "the whole benchmark; to split it, set -D{}=N or LLM_INJECTORS to the Job's "
          + "completions", index.trim(), ScaleOut.INJECTORS_PROPERTY);
      return WHOLE;
    }
    int k;
    try {
      k = Integer.parseInt(index.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("JOB_COMPLETION_INDEX '" + index + "' is not a number");
    }
    return new InjectorShare(k, parseCount(count));
  }

  private static int parseCount(String count) {
    try {
      return Integer.parseInt(count.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("the injector count '" + count + "' is not a number");
    }
  }

  private static String first(String a, String b) {
    if (a != null && !a.isBlank()) {
      return a;
    }
    return b != null && !b.isBlank() ? b : null;
  }

  /** Whether the benchmark is split over more than one injector. */
  public boolean isSplit() {
    return count > 1;
  }

  /** Whether request {@code i} of the benchmark is this injector's. */
  public boolean owns(int i) {
    return i % count == index;
  }

  /** How many of the benchmark's {@code total} requests this injector sends. */
  public int sizeOf(int total) {
    return total <= index ? 0 : (total - index - 1) / count + 1;
  }

  /** The benchmark index of this injector's {@code local}-th request. */
  public long global(long local) {
    return index + local * count;
  }

  /** This injector's requests of {@code all} (in the benchmark's order), in order. */
  public <T> List<T> select(List<T> all) {
    if (!isSplit()) {
      return all;
    }
    List<T> mine = new ArrayList<>(sizeOf(all.size()));
    for (int i = index; i < all.size(); i += count) {
      mine.add(all.get(i));
    }
    return mine;
  }

  /**
   * This injector's part of a max concurrency of {@code total} requests in flight: split as
   * evenly as possible, the first {@code total mod count} injectors taking one more
   * ({@code 10} over 3 injectors: 4, 3, 3). The parts add up to {@code total}.
   *
   * @throws IllegalArgumentException when {@code total < count}: an injector would get no
   *                                  permit and could never send
   */
  public int maxConcurrency(int total) {
    if (total < count) {
      throw new IllegalArgumentException("max concurrency " + total + " cannot be split over "
          + count + " injectors: each needs at least one request in flight; use at most "
          + total + " injectors or a max concurrency of at least " + count);
    }
    return total / count + (index < total % count ? 1 : 0);
  }

  /**
   * This injector's part of the profile's full schedule (see
   * {@link ArrivalSchedule#share(int, int)}).
   *
   * @throws IllegalArgumentException when the benchmark has fewer requests than injectors
   */
  public ArrivalSchedule schedule(ArrivalProfile profile) {
    ArrivalSchedule full = ArrivalSchedule.compute(profile);
    if (full.size() < count) {
      throw new IllegalArgumentException("the benchmark has " + full.size() + " requests, fewer "
          + "than its " + count + " injectors: every injector needs at least one");
    }
    return full.share(index, count);
  }

  /** {@code K/N}. */
  @Override
  public String toString() {
    return index + "/" + count;
  }
}
