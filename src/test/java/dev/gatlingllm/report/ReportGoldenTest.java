package dev.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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

/** Our files and summary against what vLLM's code paths produce (make_golden.py). */
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
    List<String> diffs = JsonCompare.differences(expected, actual, 1e-12);
    assertTrue(diffs.isEmpty(), String.join("\n", diffs));
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
