package dev.gatlingllm.internal.servermetrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One scrape of NVIDIA's DCGM exporter, GPU by GPU: the energy counter and the power gauge of
 * each label set. A GPU is told apart by its host and UUID (DCGM's {@code Hostname} and
 * {@code UUID} labels), else its index ({@code gpu}), so that two nodes' GPU 0 stay two GPUs.
 *
 * @param nanos {@link System#nanoTime()} when the answer was read
 * @param gpus  the GPUs the answer had either figure for, in the order of the text
 */
public record GpuSample(long nanos, List<Gpu> gpus) {

  /** DCGM's energy counter: millijoules since the driver was loaded. */
  public static final String ENERGY = "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION";
  /** DCGM's power gauge: watts drawn at the last collection. */
  public static final String POWER = "DCGM_FI_DEV_POWER_USAGE";

  /**
   * One GPU's figures in one scrape; a figure the answer did not have is NaN.
   *
   * @param id       host and UUID (or index): the same GPU in every scrape
   * @param labels   the labels that name it ({@code gpu}, {@code UUID}, {@code Hostname},
   *                 {@code modelName}, {@code device}) as the exporter wrote them
   * @param energyMj {@value #ENERGY}, millijoules
   * @param powerW   {@value #POWER}, watts
   */
  public record Gpu(String id, Map<String, String> labels, double energyMj, double powerW) {}

  private static final List<String> NAMING =
      List.of("gpu", "UUID", "Hostname", "modelName", "device");

  public GpuSample {
    gpus = List.copyOf(gpus);
  }

  /** The GPUs of one exposition text; null when it has neither DCGM family. */
  public static GpuSample of(long nanos, String exposition) {
    Map<String, double[]> figures = new LinkedHashMap<>();
    Map<String, Map<String, String>> naming = new LinkedHashMap<>();
    for (PrometheusText.Series s : PrometheusText.series(exposition, Set.of(ENERGY, POWER))) {
      String id = id(s.labels());
      double[] f = figures.computeIfAbsent(id, k -> new double[] {Double.NaN, Double.NaN});
      f[s.name().equals(ENERGY) ? 0 : 1] = s.value();
      naming.computeIfAbsent(id, k -> naming(s.labels()));
    }
    if (figures.isEmpty()) {
      return null;
    }
    List<Gpu> gpus = new ArrayList<>();
    figures.forEach((id, f) -> gpus.add(new Gpu(id, naming.get(id), f[0], f[1])));
    return new GpuSample(nanos, gpus);
  }

  private static String id(Map<String, String> labels) {
    String host = labels.getOrDefault("Hostname", "");
    String uuid = labels.get("UUID");
    return host + "/" + (uuid != null ? uuid : "gpu" + labels.getOrDefault("gpu", "?"));
  }

  private static Map<String, String> naming(Map<String, String> labels) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String key : NAMING) {
      String v = labels.get(key);
      if (v != null) {
        out.put(key, v);
      }
    }
    return Map.copyOf(out);
  }
}
