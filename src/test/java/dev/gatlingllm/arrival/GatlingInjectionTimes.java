package dev.gatlingllm.arrival;

import io.gatling.javaapi.core.OpenInjectionStep;
import java.util.Arrays;
import java.util.List;
import scala.concurrent.duration.FiniteDuration;

/**
 * When Gatling itself would start each user of a list of Java DSL open-injection steps:
 * chains the steps' Scala iterators exactly as the open injection profile does.
 */
public final class GatlingInjectionTimes {

  private GatlingInjectionTimes() {}

  /** Start delay of every injected user, in injection order, in nanoseconds. */
  public static long[] userStartNanos(List<OpenInjectionStep> steps) {
    scala.collection.Iterator<FiniteDuration> users = scala.collection.Iterator$.MODULE$.empty();
    for (int k = steps.size() - 1; k >= 0; k--) {
      users = steps.get(k).asScala().chain(users);
    }
    long[] starts = new long[1024];
    int n = 0;
    while (users.hasNext()) {
      if (n == starts.length) {
        starts = Arrays.copyOf(starts, n * 2);
      }
      starts[n++] = users.next().toNanos();
    }
    return Arrays.copyOf(starts, n);
  }

  /** Total users the steps inject, as Gatling counts them. */
  public static long totalUsers(List<OpenInjectionStep> steps) {
    long total = 0;
    for (OpenInjectionStep step : steps) {
      total += step.asScala().users();
    }
    return total;
  }
}
