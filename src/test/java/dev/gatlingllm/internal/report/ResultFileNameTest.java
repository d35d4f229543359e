package dev.gatlingllm.internal.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ResultFileNameTest {

  private static final String DATE = "20250102-030405";

  @Test
  void labelDefaultsToTheBackendAndRateIsPythonsFloatText() {
    RunInfo run = RunInfo.builder("meta-llama/Llama-3.1-8B-Instruct").build();
    assertEquals("openai-infqps-Llama-3.1-8B-Instruct-20250102-030405.json",
        ResultFileName.defaultName(run, null, DATE));
    assertEquals("openai-infqps-Llama-3.1-8B-Instruct-20250102-030405.json",
        ResultFileName.defaultName(run, "", DATE));
  }

  @Test
  void concurrencyAndLabelAppearWhenSet() {
    RunInfo run = RunInfo.builder("gpt2").backend("vllm").requestRate(0.5).maxConcurrency(16)
        .build();
    assertEquals("nightly-0.5qps-concurrency16-gpt2-20250102-030405.json",
        ResultFileName.defaultName(run, "nightly", DATE));
    RunInfo whole = RunInfo.builder("a/b/c").requestRate(4).build();
    assertEquals("openai-4.0qps-c-20250102-030405.json",
        ResultFileName.defaultName(whole, null, DATE));
  }

  @Test
  void rampUpNamesBothRates() {
    RunInfo run = RunInfo.builder("m").rampUp("exponential", 2, 32.5).maxConcurrency(3).build();
    assertEquals("openai-ramp-up-exponential-2qps-32.5qps-concurrency3-m-20250102-030405.json",
        ResultFileName.defaultName(run, null, DATE));
  }

  @Test
  void pytorchFileSitsBesideTheResult() {
    assertEquals("x.pytorch.json", ResultFileName.pytorchName("x.json"));
    assertEquals("a.b.pytorch.json", ResultFileName.pytorchName("a.b.txt"));
    assertEquals("noext.pytorch.json", ResultFileName.pytorchName("noext"));
    assertEquals(".json.pytorch.json", ResultFileName.pytorchName(".json"));
  }
}
