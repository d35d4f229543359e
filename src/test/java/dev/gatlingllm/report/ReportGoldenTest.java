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
      assertEquals(List.of(out.resultFile()), files.toList());
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
  void mixedGoldenReallyHasFailuresGoodputAndMetadata() throws Exception {
    JsonNode doc = JSON.readTree(Goldens.resource("result-mixed.json"));
    assertEquals(3, doc.get("failed").asInt());
    assertTrue(doc.get("request_goodput").isDouble());
    assertEquals("1", doc.get("tp").textValue());
    assertTrue(doc.has("p99.9_e2el_ms"));
  }
}
