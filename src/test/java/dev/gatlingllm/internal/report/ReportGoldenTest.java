package dev.gatlingllm.internal.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.report.ReportOutcome;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Our files and summary against the goldens of {@code report/make_golden.py}. The goldens are
 * not output of vLLM: they are our own transcription into Python (numpy for the statistics,
 * {@code metrics/make_fixtures.py}) of vLLM's {@code calculate_metrics}, console summary and
 * result dictionary, written from reading {@code vllm/benchmarks/serve.py}, and run over the
 * hand-built records of {@code metrics/metrics_cases.json}. They hold the Java code to that
 * reading, independently of the Java code; a misreading of vLLM would be in both, so a few
 * golden values are also worked out by hand below
 * ({@link #mixedGoldenValuesAreTheOnesWorkedOutByHand}).
 */
class ReportGoldenTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"mixed", "no-slo", "all-failed", "embedding"})
  void consoleSummaryIsVllmsTextToTheCharacter(String golden) {
    ReportOutcome out = Goldens.report(golden, Goldens.options(golden), dir);
    assertTrue(out.ok(), out.error());
    assertEquals(Goldens.resource("summary-" + golden + ".txt"), out.summary());
  }

  @ParameterizedTest
  @ValueSource(strings = {"mixed", "no-slo", "all-failed", "embedding"})
  void resultJsonHasVllmsKeysOrderTypesAndValues(String golden) throws Exception {
    ReportOutcome out = Goldens.report(golden, Goldens.options(golden), dir);
    assertTrue(out.ok(), out.error());
    JsonNode expected = JSON.readTree(Goldens.resource("result-" + golden + ".json"));
    JsonNode actual = JSON.readTree(out.resultFile().toFile());
    // our own analysis (issue 29) is not vLLM's: checked below, left out of the comparison
    ((com.fasterxml.jackson.databind.node.ObjectNode) actual).remove(RunAnalysis.KEYS);
    List<String> diffs = JsonCompare.differences(expected, actual, 1e-12);
    assertTrue(diffs.isEmpty(), String.join("\n", diffs));
  }

  /**
   * The goldens are paced or too short for the analysis: no steady state (no closed loop; the
   * embeddings run has none), and fewer requests than one over-saturation window (32), so
   * none was tested; embeddings have no TTFT to test.
   */
  @ParameterizedTest
  @ValueSource(strings = {"mixed", "no-slo", "all-failed", "embedding"})
  void resultJsonEndsVllmsKeysWithTheAnalysis(String golden) throws Exception {
    ReportOutcome out = Goldens.report(golden, Goldens.options(golden), dir);
    JsonNode actual = JSON.readTree(out.resultFile().toFile());
    assertTrue(actual.get("steady_state").isNull());
    JsonNode o = actual.get("over_saturation");
    if (golden.equals("embedding")) {
      assertTrue(o.isNull());
    } else {
      assertFalse(o.get("detected").asBoolean());
      assertEquals(0, o.get("windows_tested").asInt());
      assertTrue(o.get("evidence").isNull());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"mixed", "no-slo", "all-failed"})
  void pytorchFileMatchesVllmsRecords(String golden) throws Exception {
    ReportOutcome out = Goldens.report(golden, Goldens.options(golden), dir);
    assertNotNull(out.pytorchFile(), out.error());
    assertEquals(out.resultFile().getFileName().toString().replace(".json", ".pytorch.json"),
        out.pytorchFile().getFileName().toString());
    JsonNode expected = JSON.readTree(Goldens.resource("pytorch-" + golden + ".json"));
    JsonNode actual = JSON.readTree(out.pytorchFile().toFile());
    List<String> diffs = JsonCompare.differences(expected, actual, 1e-12);
    assertTrue(diffs.isEmpty(), String.join("\n", diffs));
  }

  @Test
  void embeddingsHaveNoPytorchRecordsSoNoFile() throws Exception {
    ReportOutcome out = Goldens.report("embedding", Goldens.options("embedding"), dir);
    assertTrue(out.ok(), out.error());
    assertNull(out.pytorchFile());
    try (var files = Files.list(dir)) {
      // the LLM report (llm-report.html) sits beside it; no other JSON
      assertEquals(List.of(out.resultFile()),
          files.filter(p -> p.toString().endsWith(".json")).toList());
    }
  }

  @Test
  void unboundedRateIsTheStringInfAndGoodputNullWithoutSlos() throws Exception {
    ReportOutcome out = Goldens.report("no-slo", Goldens.options("no-slo"), dir);
    JsonNode doc = JSON.readTree(out.resultFile().toFile());
    assertEquals("inf", doc.get("request_rate").textValue());
    assertTrue(doc.get("request_goodput").isNull());
    assertTrue(doc.get("max_concurrency").isNull());
    assertEquals("nightly", doc.get("label").textValue());
    assertEquals(0.5, doc.get("burstiness").doubleValue());
  }

  @Test
  void jsonTextIsPythonsJsonDump() throws Exception {
    Map<String, Object> sample = new LinkedHashMap<>();
    sample.put("a", 1);
    sample.put("b", 1.5);
    sample.put("c", "inf");
    sample.put("d", null);
    sample.put("e", List.of(1e-05, 10.0, 1e16, 0.1, -2.5e-07));
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("x", true);
    f.put("y", false);
    f.put("z", List.of());
    sample.put("f", f);
    sample.put("g", "h\u00e9llo \uD83D\uDE00 \"q\" \\ /\n\t");
    sample.put("h", 123456789012345680.0);
    sample.put("i", -7L);
    sample.put("j", Map.of());
    StringWriter out = new StringWriter();
    PyJson.write(out, sample, false);
    assertEquals(Goldens.resource("pyjson-sample.json"), out.toString());
  }

  @Test
  void resultFileIsOneLineOfPythonStyleJson() throws Exception {
    ReportOutcome out = Goldens.report("mixed", Goldens.options("mixed"), dir);
    String text = Files.readString(out.resultFile());
    assertFalse(text.contains("\n"));
    assertTrue(text.startsWith("{\"date\": \"20250102-030405\", \"endpoint_type\": \"openai\", "),
        text);
  }

  @Test
  void mixedGoldenValuesAreTheOnesWorkedOutByHand() throws Exception {
    // The six successful requests of make_fixtures.py's mixed_records(), in ms (each TTFT
    // carries 123 ns more, each latency 456 ns more, 123 ns for a single chunk):
    //   TTFT  120  80  95  150  60  400          chunk gaps
    //   r1 120: 20 22 25 30 (5 tokens)   r2 80: 15 x9 (10 tokens)   r3 95: - (1 token)
    //   r4 150: 40 35 45 (7 words, no usage)   r5 60: 10 10 (3 words, usage 0)
    //   r6 400: 300 350 450 500 300 (6 tokens)
    JsonNode golden = JSON.readTree(Goldens.resource("result-mixed.json"));
    ReportOutcome out = Goldens.report("mixed", Goldens.options("mixed"), dir);
    JsonNode ours = JSON.readTree(out.resultFile().toFile());
    for (JsonNode doc : List.of(golden, ours)) {
      // prompts 11 + 32 + 9 + 20 + 13 (usage, no dataset length) + 40; tokens 5+10+1+7+3+6
      assertEquals(125, doc.get("total_input_tokens").asInt());
      assertEquals(32, doc.get("total_output_tokens").asInt());
      assertEquals(157 / 3.5, doc.get("total_token_throughput").doubleValue(), 1e-12);
      // every successful request runs in second 0 (r6 from 0.9 s), and every chunk but r6's
      // arrives in it (r6's first at 1.3 s): 5 + 10 + 1 + 4 + 3
      assertEquals(6, doc.get("max_concurrent_requests").asInt());
      assertEquals(23.0, doc.get("max_output_tokens_per_s").doubleValue());
      // TTFT sorted 60 80 95 120 150 400: numpy's p90 at rank 4.5, p99.9 at 4.995
      assertEquals(905 / 6.0 + 0.000123, doc.get("mean_ttft_ms").doubleValue(), 1e-9);
      assertEquals(107.5 + 0.000123, doc.get("median_ttft_ms").doubleValue(), 1e-9);
      assertEquals(275 + 0.000123, doc.get("p90_ttft_ms").doubleValue(), 1e-9);
      assertEquals(398.75 + 0.000123, doc.get("p99.9_ttft_ms").doubleValue(), 1e-9);
      // TPOT of the five with more than one token: (gaps + 333 ns) / (tokens - 1); median r4's
      assertEquals(120.000333 / 6, doc.get("median_tpot_ms").doubleValue(), 1e-9);
      // the 23 ITLs sum to 97 + 135 + 120 + 20 + 1900; sorted, index 11 is 20, and the p90 at
      // rank 19.8 lies between 300 and 350
      assertEquals(2272 / 23.0, doc.get("mean_itl_ms").doubleValue(), 1e-9);
      assertEquals(20.0, doc.get("median_itl_ms").doubleValue(), 1e-9);
      assertEquals(340.0, doc.get("p90_itl_ms").doubleValue(), 1e-9);
      // E2EL sorted 80 95 215 217 270 2300 (+456 ns, r3's +123 ns): p90 at rank 4.5
      assertEquals(216.000456, doc.get("median_e2el_ms").doubleValue(), 1e-9);
      assertEquals(1285.000456, doc.get("p90_e2el_ms").doubleValue(), 1e-9);
    }
  }

  @Test
  void mixedCaseReallyHasFailuresGoodputAndMetadata() throws Exception {
    // The comparisons above are only as good as the case: check the produced file has the
    // parts that matter, with values worked out by hand from metrics_cases.json.
    ReportOutcome out = Goldens.report("mixed", Goldens.options("mixed"), dir);
    assertTrue(out.ok(), out.error());
    JsonNode doc = JSON.readTree(out.resultFile().toFile());
    // Nine requests: an HTTP 500, a reset mid-stream and a timeout failed.
    assertEquals(6, doc.get("completed").asInt());
    assertEquals(3, doc.get("failed").asInt());
    // SLOs ttft <= 200, tpot <= 30, e2el <= 1000 ms: of the six completed, only the one with a
    // 400 ms TTFT misses; five good requests over the 3.5 s run.
    assertEquals(5 / 3.5, doc.get("request_goodput").doubleValue(), 1e-12);
    // "--metadata tp=1 ' version = 0.9.2'": string values, trimmed, before request_rate.
    assertEquals("1", doc.get("tp").textValue());
    assertEquals("0.9.2", doc.get("version").textValue());
    List<String> keys = new ArrayList<>();
    doc.fieldNames().forEachRemaining(keys::add);
    assertEquals(List.of("tp", "version", "request_rate"),
        keys.subList(keys.indexOf("tp"), keys.indexOf("tp") + 3));
    assertTrue(doc.has("p99.9_e2el_ms"), "percentile 99.9 of the selected e2el metric");
  }
}
