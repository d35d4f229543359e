package dev.gatlingllm.internal.servermetrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What one DCGM endpoint gave over the run, and the result JSON's {@value #KEY} object made
 * from every endpoint's: the energy each GPU used over the window (its counter's increase,
 * resets counted from 0; integrated from its power samples when the counter is missing or did
 * not move), its average and peak power at the scrape period, and each problem met as a
 * warning. The figures per output token are the report's, which knows the tokens
 * ({@code internal.report.EnergyReport}). Holds the endpoint without any credentials.
 *
 * @param status {@code ok}, or why there are no samples
 */
public record GpuSeries(String endpoint, double intervalSeconds, List<GpuSample> samples,
    int failedScrapes, String status) {

  /** The result JSON key. */
  public static final String KEY = "gpu_energy";

  public GpuSeries {
    samples = List.copyOf(samples);
  }

  /**
   * The {@value #KEY} object of every endpoint's series, times in seconds from
   * {@code originNanos} (the benchmark start).
   */
  public static Map<String, Object> toJson(List<GpuSeries> all, long originNanos) {
    List<Object> endpoints = new ArrayList<>();
    List<Object> gpus = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    double energy = 0;
    boolean anyEnergy = false;
    double power = 0;
    boolean anyPower = false;
    double first = Double.NaN;
    double last = Double.NaN;
    double interval = Double.NaN;
    for (GpuSeries s : all) {
      interval = s.intervalSeconds;
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("endpoint", s.endpoint);
      e.put("status", s.status);
      e.put("samples", s.samples.size());
      e.put("failed_scrapes", s.failedScrapes);
      endpoints.add(e);
      if (!s.status.equals("ok")) {
        warnings.add(s.endpoint + ": " + s.status);
      } else if (s.failedScrapes > 0) {
        warnings.add(s.endpoint + ": " + s.failedScrapes + " scrape(s) failed");
      }
      if (!s.samples.isEmpty()) {
        double t0 = seconds(s.samples.get(0).nanos(), originNanos);
        double t1 = seconds(s.samples.get(s.samples.size() - 1).nanos(), originNanos);
        first = Double.isNaN(first) ? t0 : Math.min(first, t0);
        last = Double.isNaN(last) ? t1 : Math.max(last, t1);
      }
      for (Map<String, Object> gpu : s.gpus(originNanos, warnings)) {
        gpus.add(gpu);
        if (gpu.get("energy_j") instanceof Double j) {
          energy += j;
          anyEnergy = true;
        }
        if (gpu.get("avg_power_w") instanceof Double w) {
          power += w;
          anyPower = true;
        }
      }
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("gpu_count", gpus.size());
    out.put("window_s", Double.isNaN(first) ? null : round(last - first, 3));
    out.put("interval_s", Double.isNaN(interval) ? null : interval);
    out.put("energy_j", anyEnergy ? round(energy, 3) : null);
    out.put("avg_power_w", anyPower ? round(power, 3) : null);
    out.put("warnings", warnings);
    out.put("endpoints", endpoints);
    out.put("gpus", gpus);
    return out;
  }

  /** Each GPU of this endpoint's samples, in the order first seen. */
  private List<Map<String, Object>> gpus(long originNanos, List<String> warnings) {
    Map<String, GpuSample.Gpu> seen = new LinkedHashMap<>();
    for (GpuSample s : samples) {
      for (GpuSample.Gpu g : s.gpus()) {
        seen.putIfAbsent(g.id(), g);
      }
    }
    List<Map<String, Object>> out = new ArrayList<>();
    for (GpuSample.Gpu named : seen.values()) {
      int n = samples.size();
      double[] time = new double[n];
      double[] energy = new double[n];
      double[] power = new double[n];
      for (int i = 0; i < n; i++) {
        GpuSample s = samples.get(i);
        time[i] = seconds(s.nanos(), originNanos);
        energy[i] = Double.NaN;
        power[i] = Double.NaN;
        for (GpuSample.Gpu g : s.gpus()) {
          if (g.id().equals(named.id())) {
            energy[i] = g.energyMj();
            power[i] = g.powerW();
          }
        }
      }
      out.add(gpu(named, time, energy, power, warnings));
    }
    return out;
  }

  private Map<String, Object> gpu(GpuSample.Gpu named, double[] time, double[] energyMj,
      double[] watts, List<String> warnings) {
    String name = name(named);
    EnergyMaths.Increase counter = EnergyMaths.increase(energyMj);
    double avg = EnergyMaths.mean(watts);
    double joules = counter.rise() / 1000;
    String source = "counter";
    if (counter.resets() > 0) {
      warnings.add(name + ": the energy counter went back " + counter.resets()
          + " time(s) (a reset); counted from 0 after it");
    }
    if (Double.isNaN(joules) || (joules == 0 && avg > 0)) {
      double integrated = EnergyMaths.integrate(time, watts);
      if (Double.isNaN(joules)) {
        warnings.add(name + ": " + (counter.readings() == 0 ? "no " + GpuSample.ENERGY
            : "one reading of " + GpuSample.ENERGY) + (Double.isNaN(integrated) ? ""
                : "; energy integrated from the power samples"));
      } else {
        warnings.add(String.format(Locale.ROOT, "%s: the energy counter did not move while "
            + "the GPU drew %.0f W: the exporter collects less often than the scrapes "
            + "(dcgm-exporter -c, 30000 ms by default); energy integrated from the power "
            + "samples", name, avg));
      }
      joules = integrated;
      source = Double.isNaN(integrated) ? null : "power";
    }
    if (Double.isNaN(avg)) {
      warnings.add(name + ": no " + GpuSample.POWER);
    }
    int present = 0;
    for (int i = 0; i < time.length; i++) {
      present += Double.isNaN(energyMj[i]) && Double.isNaN(watts[i]) ? 0 : 1;
    }
    if (present < time.length) {
      warnings.add(name + ": missing from " + (time.length - present) + " of " + time.length
          + " scrapes");
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("endpoint", endpoint);
    out.put("gpu", named.labels().get("gpu"));
    out.put("uuid", named.labels().get("UUID"));
    out.put("hostname", named.labels().get("Hostname"));
    out.put("model_name", named.labels().get("modelName"));
    out.put("energy_j", Double.isNaN(joules) ? null : round(joules, 3));
    out.put("energy_source", source);
    out.put("counter_resets", counter.resets());
    out.put("avg_power_w", Double.isNaN(avg) ? null : round(avg, 3));
    double peak = EnergyMaths.peak(watts);
    out.put("peak_power_w", Double.isNaN(peak) ? null : peak);
    out.put("samples", present);
    List<Object> t = new ArrayList<>();
    List<Object> w = new ArrayList<>();
    for (int i = 0; i < time.length; i++) {
      t.add(round(time[i], 3));
      w.add(Double.isNaN(watts[i]) ? null : watts[i]);
    }
    out.put("time_s", t);
    out.put("power_w", w);
    return out;
  }

  /** How a warning names a GPU: {@code GPU 0 (host, GPU-uuid)}, or its id. */
  private static String name(GpuSample.Gpu g) {
    Map<String, String> l = g.labels();
    List<String> parts = new ArrayList<>();
    if (l.containsKey("Hostname") && !l.get("Hostname").isEmpty()) {
      parts.add(l.get("Hostname"));
    }
    if (l.containsKey("UUID")) {
      parts.add(l.get("UUID"));
    }
    String index = l.containsKey("gpu") ? "GPU " + l.get("gpu") : "GPU " + g.id();
    return parts.isEmpty() ? index : index + " (" + String.join(", ", parts) + ")";
  }

  private static double seconds(long nanos, long originNanos) {
    return (nanos - originNanos) / 1e9;
  }

  private static double round(double v, int decimals) {
    double scale = Math.pow(10, decimals);
    return Math.round(v * scale) / scale;
  }
}
