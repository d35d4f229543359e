package dev.gatlingllm.internal.sim;

import java.util.Locale;

/**
 * The simulated GPUs behind the simulator, as NVIDIA's DCGM exporter shows them: each draws
 * its idle power plus a share per request running (all GPUs alike, as tensor-parallel shards
 * of one model are), up to a cap, and its energy counter is that power integrated over time,
 * exactly, at every change of the running count. So energy per token follows the load: idle
 * watts spread over few tokens cost more per token than a full batch does. Guarded by the
 * server state's lock ({@link ServerState}), which tells it each change.
 */
final class GpuPower {

  private final int gpus;
  private final double idleWatts;
  private final double wattsPerRequest;
  private final double maxWatts;
  private final long startNanos;
  private long lastNanos;
  private int running;
  /** Energy of one GPU since the start, in joules, up to {@link #lastNanos}. */
  private double joules;

  GpuPower(int gpus, double idleWatts, double wattsPerRequest, double maxWatts, long nowNanos) {
    this.gpus = gpus;
    this.idleWatts = idleWatts;
    this.wattsPerRequest = wattsPerRequest;
    this.maxWatts = maxWatts;
    this.startNanos = nowNanos;
    this.lastNanos = nowNanos;
  }

  /** One GPU's draw with {@code requests} running. */
  double watts(int requests) {
    return Math.min(maxWatts, idleWatts + wattsPerRequest * requests);
  }

  /** The running count changes to {@code requests} at {@code nowNanos}. */
  void running(int requests, long nowNanos) {
    advance(nowNanos);
    running = requests;
  }

  private void advance(long nowNanos) {
    if (nowNanos > lastNanos) {
      joules += watts(running) * (nowNanos - lastNanos) / 1e9;
      lastNanos = nowNanos;
    }
  }

  /** The DCGM families of every GPU at {@code nowNanos}, as the exporter writes them. */
  String exposition(long nowNanos) {
    advance(nowNanos);
    StringBuilder sb = new StringBuilder(256 + 512 * gpus);
    sb.append("# HELP DCGM_FI_DEV_POWER_USAGE Power draw (in W).\n")
        .append("# TYPE DCGM_FI_DEV_POWER_USAGE gauge\n");
    for (int g = 0; g < gpus; g++) {
      sb.append("DCGM_FI_DEV_POWER_USAGE").append(labels(g)).append(' ')
          .append(String.format(Locale.ROOT, "%.6f", watts(running))).append('\n');
    }
    sb.append("# HELP DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION Total energy consumption since boot "
        + "(in mJ).\n").append("# TYPE DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION counter\n");
    for (int g = 0; g < gpus; g++) {
      sb.append("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION").append(labels(g)).append(' ')
          .append(Math.round(joules * 1000)).append('\n');
    }
    return sb.toString();
  }

  /** Seconds since the simulated GPUs were powered on; for tests. */
  double uptimeSeconds(long nowNanos) {
    return (nowNanos - startNanos) / 1e9;
  }

  private static String labels(int g) {
    return String.format(Locale.ROOT, "{gpu=\"%d\",UUID=\"GPU-00000000-5151-4000-8000-%012d\","
        + "pci_bus_id=\"00000000:%02X:00.0\",device=\"nvidia%d\",modelName=\"gatling-llm "
        + "simulated GPU\",Hostname=\"sim\"}", g, g, 0x10 + g, g);
  }
}
