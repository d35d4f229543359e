package dev.gatlingllm.internal.servermetrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@code gpu_energy} object from scrapes made up by hand, one a second. */
class GpuSeriesTest {

  private static final double NaN = Double.NaN;
  private static final long S = 1_000_000_000L;

  /** One GPU's scrapes at 0, 1, 2, ... s: its counter (mJ) and power (W), NaN = absent. */
  private static List<GpuSample> scrapes(String gpu, double[] mj, double[] watts) {
    List<GpuSample> out = new ArrayList<>();
    for (int i = 0; i < mj.length; i++) {
      List<GpuSample.Gpu> gpus = Double.isNaN(mj[i]) && Double.isNaN(watts[i]) ? List.of()
          : List.of(new GpuSample.Gpu("h/" + gpu, Map.of("gpu", gpu, "Hostname", "h"), mj[i],
              watts[i]));
      out.add(new GpuSample(i * S, gpus));
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> gpus(Map<String, Object> json) {
    return (List<Map<String, Object>>) json.get("gpus");
  }

  @SuppressWarnings("unchecked")
  private static List<String> warnings(Map<String, Object> json) {
    return (List<String>) json.get("warnings");
  }

  @Test
  void energyPerGpuAndInAllWithAResetAndPowerAtTheScrapePeriod() {
    // GPU 0: 10 000 -> 410 000 -> 810 000 mJ: 800 J; power 400, 400, 400 W
    // GPU 1: 50 000 -> 350 000 -> reset 100 000 mJ: 300 + 100 = 400 J; power 300, 300, 200 W
    GpuSeries a = new GpuSeries("http://n:9400/metrics", 1.0, merge(
        scrapes("0", new double[] {10_000, 410_000, 810_000}, new double[] {400, 400, 400}),
        scrapes("1", new double[] {50_000, 350_000, 100_000}, new double[] {300, 300, 200})),
        0, "ok");
    Map<String, Object> json = GpuSeries.toJson(List.of(a), 0);
    assertEquals(2, json.get("gpu_count"));
    assertEquals(2.0, json.get("window_s"));
    assertEquals(1200.0, json.get("energy_j"));
    // the GPUs' average draws summed: 400 + (300 + 300 + 200) / 3 = 666.667
    assertEquals(666.667, json.get("avg_power_w"));
    Map<String, Object> g0 = gpus(json).get(0);
    assertEquals("0", g0.get("gpu"));
    assertEquals(800.0, g0.get("energy_j"));
    assertEquals("counter", g0.get("energy_source"));
    assertEquals(400.0, g0.get("avg_power_w"));
    assertEquals(400.0, g0.get("peak_power_w"));
    Map<String, Object> g1 = gpus(json).get(1);
    assertEquals(400.0, g1.get("energy_j"));
    assertEquals(1, g1.get("counter_resets"));
    assertEquals(266.667, g1.get("avg_power_w"));
    assertEquals(300.0, g1.get("peak_power_w"));
    assertEquals(List.of(0.0, 1.0, 2.0), g1.get("time_s"));
    assertEquals(List.of(300.0, 300.0, 200.0), g1.get("power_w"));
    assertEquals(List.of("GPU 1 (h): the energy counter went back 1 time(s) (a reset); "
        + "counted from 0 after it"), warnings(json));
  }

  @Test
  void withoutTheCounterTheEnergyIsThePowerIntegratedAndAMissingScrapeIsSaid() {
    // power 100, 300, (missing), 300 W at 0..3 s: 200 J + (300 + 300) / 2 * 2 s = 800 J
    GpuSeries a = new GpuSeries("http://n:9400/metrics", 1.0,
        scrapes("0", new double[] {NaN, NaN, NaN, NaN}, new double[] {100, 300, NaN, 300}),
        0, "ok");
    Map<String, Object> json = GpuSeries.toJson(List.of(a), 0);
    Map<String, Object> g = gpus(json).get(0);
    assertEquals(800.0, g.get("energy_j"));
    assertEquals("power", g.get("energy_source"));
    assertEquals(3, g.get("samples"));
    assertEquals(Arrays.asList(100.0, 300.0, null, 300.0), g.get("power_w"));
    assertEquals(List.of("GPU 0 (h): no DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION; energy "
        + "integrated from the power samples", "GPU 0 (h): missing from 1 of 4 scrapes"),
        warnings(json));
  }

  @Test
  void aCounterThatDoesNotMoveUnderLoadIsStaleAndThePowerIsUsed() {
    // the exporter collected once: the counter reads 5 000 mJ throughout, power 200 W: 400 J
    GpuSeries a = new GpuSeries("e", 1.0,
        scrapes("0", new double[] {5000, 5000, 5000}, new double[] {200, 200, 200}), 0, "ok");
    Map<String, Object> g = gpus(GpuSeries.toJson(List.of(a), 0)).get(0);
    assertEquals(400.0, g.get("energy_j"));
    assertEquals("power", g.get("energy_source"));
  }

  @Test
  void anEndpointThatFailedIsAWarningAndNoFigure() {
    GpuSeries dead = new GpuSeries("http://gone:9400/metrics", 1.0, List.of(), 3,
        "no answer: connection refused");
    GpuSeries notDcgm = new GpuSeries("http://x/metrics", 1.0, List.of(), 0,
        "disabled: HTTP 404");
    Map<String, Object> json = GpuSeries.toJson(List.of(dead, notDcgm), 0);
    assertEquals(0, json.get("gpu_count"));
    assertNull(json.get("energy_j"));
    assertNull(json.get("window_s"));
    assertEquals(List.of("http://gone:9400/metrics: no answer: connection refused",
        "http://x/metrics: disabled: HTTP 404"), warnings(json));
  }

  /** Two GPUs' scrapes at the same times as one endpoint's. */
  private static List<GpuSample> merge(List<GpuSample> a, List<GpuSample> b) {
    List<GpuSample> out = new ArrayList<>();
    for (int i = 0; i < a.size(); i++) {
      List<GpuSample.Gpu> gpus = new ArrayList<>(a.get(i).gpus());
      gpus.addAll(b.get(i).gpus());
      out.add(new GpuSample(a.get(i).nanos(), gpus));
    }
    return out;
  }
}
