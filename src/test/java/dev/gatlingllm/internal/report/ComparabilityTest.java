package dev.gatlingllm.internal.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.report.Compare;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs that were not run alike are compared with a warning that says how they differ. */
class ComparabilityTest {

  private static Map<String, Object> run(int prompts, Object rate, int inputTokens) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("date", "20261128-2032" + prompts);
    m.put("endpoint_type", "openai");
    m.put("backend", "openai");
    m.put("label", null);
    m.put("model_id", "m1");
    m.put("tokenizer_id", "gpt2");
    m.put("num_prompts", prompts);
    m.put("request_rate", rate);
    m.put("burstiness", 1.0);
    m.put("max_concurrency", null);
    m.put("completed", prompts);
    m.put("failed", 0);
    m.put("total_input_tokens", prompts * inputTokens);
    m.put("total_output_tokens", prompts * 32);
    m.put("mean_tpot_ms", 9.9234);
    return m;
  }

  @Test
  void runsRunAlikeHaveNoWarning() {
    assertNull(Comparability.warning(List.of(run(100, 20.0, 1024), run(100, 20, 1000))));
  }

  @Test
  void eachSettingThatDiffersIsNamedByItsFlag() {
    Map<String, Object> b = run(40, "inf", 256);
    b.put("model_id", "m2");
    b.put("max_concurrency", 8);
    assertEquals(List.of("--model m1 vs m2", "--num-prompts 100 vs 40",
        "--request-rate 20 vs inf", "--max-concurrency none vs 8",
        "prompt tokens per request 1024 vs 256"),
        Comparability.differences(List.of(run(100, 20.0, 1024), b)));
  }

  /** The case reported: 100 prompts against 40, compared as if alike. */
  @Test
  void thePairAndItsPageCarryTheWarning(@TempDir Path dir) throws Exception {
    ObjectMapper json = new ObjectMapper();
    Path a = dir.resolve("a.json");
    Path b = dir.resolve("b.json");
    json.writeValue(a.toFile(), run(100, 20.0, 1024));
    json.writeValue(b.toFile(), run(40, 20.0, 1024));
    Compare.Pair pair = Compare.pair(a, b, dir.resolve("compare.html"));
    assertNotNull(pair.warning());
    assertTrue(pair.warning().contains("--num-prompts 100 vs 40"), pair.warning());
    String data = HtmlPage.data(Files.readString(pair.page()));
    assertTrue(data.contains("\"warning\":\"the runs were not run alike (--num-prompts 100 vs 40)"),
        data);
  }
}
