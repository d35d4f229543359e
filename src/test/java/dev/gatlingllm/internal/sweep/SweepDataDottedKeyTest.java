package dev.gatlingllm.internal.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.sweep.PlotSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A dotted key names a figure inside a result's objects, as plot's axes take it, a bracket one
 * replica's.
 */
class SweepDataDottedKeyTest {

  @Test
  void aDottedKeyReadsInsideObjectsAndAKeyWithADotOfItsOwnWins() {
    Map<String, Object> record = Map.of("gpu_energy",
        Map.of("output_tokens_per_joule", 2.5, "gpus", 3), "a.b", 7, "output_throughput", 9);
    assertEquals(2.5, SweepData.number(record, "gpu_energy.output_tokens_per_joule"));
    assertEquals("3", SweepData.text(record, "gpu_energy.gpus"));
    assertEquals(7, SweepData.number(record, "a.b"), "a key of the record itself first");
    assertTrue(Double.isNaN(SweepData.number(record, "gpu_energy.none")));
    assertTrue(Double.isNaN(SweepData.number(record, "output_throughput.x")));
    assertEquals("None", SweepData.text(record, "gpu_energy.none"));
  }

  @Test
  void aReplicasFigureIsPickedByItsUrlWhoseDotsDoNotSplitTheKeyOrByItsIndex() {
    Map<String, Object> record = Map.of("per_url", List.of(
        Map.of("url", "http://10.0.0.1:8000", "output_throughput", 120.5),
        Map.of("url", "http://10.0.0.2:8000", "output_throughput", 80.25)));
    assertEquals(80.25, SweepData.number(record,
        "per_url[http://10.0.0.2:8000].output_throughput"));
    assertEquals(120.5, SweepData.number(record, "per_url[0].output_throughput"));
    assertTrue(Double.isNaN(SweepData.number(record, "per_url[2].output_throughput")));
    assertTrue(Double.isNaN(SweepData.number(record,
        "per_url[http://10.0.0.3:8000].output_throughput")));
  }

  @Test
  void eachReplicaBecomesARecordOfItsOwnAndEachFigureASeries() {
    Map<String, Object> record = Map.of("max_concurrency", 4, "per_url", List.of(
        Map.of("url", "http://a:1", "p99_ttft_ms", 30.0),
        Map.of("url", "http://b:1", "p99_ttft_ms", 90.0)));
    List<Map<String, Object>> replicas = SweepData.perReplica(List.of(record, Map.of("x", 1)));
    assertEquals(2, replicas.size(), "a run against one server gives none");
    assertEquals("http://b:1", replicas.get(1).get("url"));
    assertEquals(90.0, SweepData.number(replicas.get(1), "per_url.p99_ttft_ms"));
    assertEquals(4, replicas.get(1).get("max_concurrency"));

    Map<String, String> parts = new LinkedHashMap<>();
    parts.put("network", "phases.network");
    parts.put("server", "phases.server");
    List<Map<String, Object>> series = SweepData.series(List.of(Map.of("phases",
        Map.of("network", 1.5, "server", 20.0))), "part", "ms", parts);
    assertEquals(List.of("network", "server"), series.stream().map(r -> r.get("part")).toList());
    assertEquals(List.of(1.5, 20.0), series.stream().map(r -> r.get("ms")).toList());
  }

  @Test
  void plottingAReplicasFigureDrawsOneCurvePerUrl() {
    List<Map<String, Object>> records = List.of(
        run(1, 50.0, 40.0), run(2, 90.0, 60.0));
    List<Figures.Figure> figures = Figures.build(records,
        PlotSpec.defaults().withAxes("max_concurrency", "per_url.output_throughput"));
    assertEquals(1, figures.size());
    List<Figures.Curve> curves = figures.get(0).panels().get(0).curves();
    assertEquals(List.of("url=http://a:1", "url=http://b:1"),
        curves.stream().map(Figures.Curve::name).toList());
    assertEquals(List.of(40.0, 60.0),
        curves.get(1).points().stream().map(p -> p.y().mean()).toList());
  }

  private static Map<String, Object> run(int concurrency, double a, double b) {
    return Map.of("max_concurrency", concurrency, SweepData.POINT_KEY, "c=" + concurrency,
        "per_url", List.of(Map.of("url", "http://a:1", "output_throughput", a),
            Map.of("url", "http://b:1", "output_throughput", b)));
  }
}
