package dev.gatlingllm.internal.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.sweep.PlotSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FiguresTest {

  private static Map<String, Object> run(String point, int tp, int conc, double x, double y) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put(SweepData.POINT_KEY, point);
    r.put("tp", tp);
    r.put("max_concurrency", conc);
    r.put("request_throughput", x);
    r.put("p99_e2el_ms", y);
    return r;
  }

  private static List<Map<String, Object>> records() {
    List<Map<String, Object>> rs = new ArrayList<>();
    rs.add(run("a", 1, 4, 10, 100));
    rs.add(run("a", 1, 4, 12, 110));
    rs.add(run("a", 1, 4, 11, 120));
    rs.add(run("b", 1, 8, 20, 300));
    rs.add(run("c", 2, 4, 15, 90));
    return rs;
  }

  @Test
  void aReplicasUrlLeavesNoColonOrSlashInTheFileName() {
    assertEquals("per_url[http___10.0.0.2_8000].p99_ttft_ms-vs-max_concurrency",
        Figures.fileName("per_url[http://10.0.0.2:8000].p99_ttft_ms-vs-max_concurrency"));
    assertEquals("ttft-vs-rate", Figures.fileName("ttft-vs-rate"));
  }

  @Test
  void figNameNamesTheFilesAsVllmDoes() {
    List<Figures.Figure> one = Figures.named(Figures.build(records(), PlotSpec.defaults()),
        "latency");
    assertEquals(List.of("latency"), one.stream().map(Figures.Figure::name).toList());
    List<Figures.Figure> split = Figures.named(Figures.build(records(), PlotSpec.defaults()
        .withSplits(List.of("tp"), List.of(), List.of(), List.of())), "latency");
    assertEquals(List.of("latency-tp=1", "latency-tp=2"),
        split.stream().map(Figures.Figure::name).toList());
    // tp=1: point a (three runs, one point) and point b
    assertEquals(2, split.get(0).pointCount(), "the figure is the same, its name only changes");
  }

  @Test
  void aCurveAlongTheSweptVariableKeepsTheOrderOfTheLoad() {
    // throughput falls past saturation: 8 -> 20 req/s, 16 -> 18 req/s; in x order 16 would
    // come before 8, in load order it comes last
    List<Map<String, Object>> rs = List.of(run("c4", 1, 4, 10, 100), run("c16", 1, 16, 18, 900),
        run("c8", 1, 8, 20, 300));
    List<Figures.Point> byLoad = Figures.build(rs, PlotSpec.defaults(), "max_concurrency")
        .get(0).panels().get(0).curves().get(0).points();
    assertEquals(List.of("c4", "c8", "c16"), byLoad.stream().map(Figures.Point::label).toList());
    // plot finds the load itself: the concurrency varies over the runs
    assertEquals("max_concurrency", Figures.loadKey(rs));
    List<Figures.Point> plotted = Figures.build(rs, PlotSpec.defaults()).get(0).panels().get(0)
        .curves().get(0).points();
    assertEquals(List.of("c4", "c8", "c16"), plotted.stream().map(Figures.Point::label)
        .toList());
    // without a load that varies in every run the points follow x
    List<Map<String, Object>> noLoad = new ArrayList<>();
    for (Map<String, Object> r : rs) {
      Map<String, Object> copy = new LinkedHashMap<>(r);
      copy.remove("max_concurrency");
      noLoad.add(copy);
    }
    assertEquals(null, Figures.loadKey(noLoad));
    List<Figures.Point> byX = Figures.build(noLoad, PlotSpec.defaults()).get(0).panels().get(0)
        .curves().get(0).points();
    assertEquals(List.of("c4", "c16", "c8"), byX.stream().map(Figures.Point::label).toList());
  }

  @Test
  void aWorkloadScanOfTheRateIsOrderedByItsRateThoughOnlyItsEndsSetAConcurrency() {
    // the scan's ends set max_concurrency (1 and the prompts), the loads between do not
    Map<String, Object> serial = run("s", 1, 1, 1, 50);
    serial.put("request_rate", 1);
    Map<String, Object> middle = run("m", 1, 0, 30, 80);
    middle.remove("max_concurrency");
    middle.put("request_rate", 30);
    Map<String, Object> batch = run("b", 1, 40, 25, 400);
    batch.put("request_rate", 40);
    List<Map<String, Object>> rs = List.of(serial, batch, middle);
    assertEquals("request_rate", Figures.loadKey(rs));
    assertEquals(List.of("s", "m", "b"), Figures.build(rs, PlotSpec.defaults()).get(0)
        .panels().get(0).curves().get(0).points().stream().map(Figures.Point::label).toList());
  }

  @Test
  void runsOfOnePointBecomeMeanWithInterval() {
    List<Figures.Figure> figs = Figures.build(records(), PlotSpec.defaults()
        .withSplits(List.of(), List.of(), List.of(), List.of("tp")));
    assertEquals(1, figs.size());
    Figures.Figure f = figs.get(0);
    assertEquals("p99_e2el_ms-vs-request_throughput", f.name());
    List<Figures.Curve> curves = f.panels().get(0).curves();
    assertEquals(List.of("tp=1", "tp=2"), curves.stream().map(Figures.Curve::name).toList());
    Figures.Point a = curves.get(0).points().get(0);
    assertEquals(11, a.x(), 1e-12);
    assertEquals(110, a.y().mean(), 1e-12);
    assertEquals(3, a.y().n());
    // std 10, t(0.975, 2) = 4.302652729749462, half-width 4.3026527 * 10 / sqrt(3)
    assertEquals(110 - 24.841377, a.y().ciLow(), 1e-5);
    assertFalse(curves.get(0).points().get(1).y().hasInterval());
    assertTrue(f.hasIntervals());
    assertEquals(3, f.pointCount());
  }

  @Test
  void figuresRowsColumnsFiltersAndBins() {
    PlotSpec spec = PlotSpec.defaults()
        .withSplits(List.of("tp"), List.of(), List.of("max_concurrency"), List.of())
        .withFilters(PlotSpec.Filter.parseAll("p99_e2el_ms<200"),
            PlotSpec.Bin.parseAll("request_throughput%5"));
    List<Figures.Figure> figs = Figures.build(records(), spec);
    assertEquals(List.of("FIGURE-tp=1", "FIGURE-tp=2"),
        figs.stream().map(Figures.Figure::name).toList());
    // point b (p99 300) is filtered out; a's runs bin to 10, 10, 10 -> one point at x = 10
    Figures.Figure one = figs.get(0);
    assertEquals(List.of("max_concurrency=4"), one.cols());
    Figures.Point p = one.panels().get(0).curves().get(0).points().get(0);
    assertEquals(10, p.x(), 1e-12);
    assertEquals(3, p.y().n());
  }

  @Test
  void filtersCompareNumbersOrText() {
    Map<String, Object> r = run("a", 1, 4, 10, 100);
    r.put("backend", "vllm");
    assertTrue(PlotSpec.Filter.parse("max_concurrency==4.0").keeps(r));
    assertTrue(PlotSpec.Filter.parse("backend==vllm").keeps(r));
    assertTrue(PlotSpec.Filter.parse("backend!=openai").keeps(r));
    assertFalse(PlotSpec.Filter.parse("max_concurrency>=5").keeps(r));
    assertTrue(PlotSpec.Filter.parse("max_concurrency<=4").keeps(r));
    assertEquals(new PlotSpec.Filter("a", "<=", "3"), PlotSpec.Filter.parse("a<=3"));
  }
}
