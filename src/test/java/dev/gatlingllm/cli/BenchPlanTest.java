package dev.gatlingllm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.metrics.Metric;
import dev.gatlingllm.report.ResultOptions;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BenchPlanTest {

  private static BenchPlan plan(String line) {
    return BenchPlan.of(BenchArgs.parse(CommandLine.split(line)));
  }

  private static String error(String line) {
    return assertThrows(IllegalArgumentException.class, () -> plan(line)).getMessage();
  }

  /** vLLM's defaults, read off {@code vllm bench serve --help} and its argument parser. */
  @Test
  void defaultsAreVllms() {
    BenchPlan plan = plan("--model meta-llama/Llama-3.1-8B");
    BenchArgs args = plan.args();
    assertEquals("openai", plan.backend().name());
    assertEquals("http://127.0.0.1:8000", plan.baseUrl());
    assertEquals("/v1/completions", plan.endpoint());
    assertEquals("meta-llama/Llama-3.1-8B", plan.requestModelName());
    assertEquals("meta-llama/Llama-3.1-8B", plan.tokenizerId(), "the tokenizer is the model's");
    assertEquals(600, plan.readyCheckTimeoutSec());
    assertEquals(0, plan.warmUps());
    assertEquals("auto", args.value("tokenizer-mode").orElseThrow());
    assertEquals("benchmark-serving", args.value("request-id-prefix").orElseThrow());
    assertTrue(plan.progressBar());
    assertEquals(false, plan.profile());
    ArrivalProfile arrivals = plan.arrivals(1000);
    assertEquals(Double.POSITIVE_INFINITY, arrivals.requestRate());
    assertEquals(1.0, arrivals.burstiness());
    assertEquals(0, arrivals.seed());
    assertTrue(arrivals.maxConcurrency().isEmpty());
    assertTrue(arrivals.rampUpStrategy().isEmpty());
    ResultOptions results = plan.results();
    assertEquals(false, results.saveResult(), "no file without --save-result");
    assertEquals(false, results.append());
    assertEquals(false, results.detailed());
    assertNull(results.label());
    assertNull(results.resultDir());
    assertNull(results.resultFilename());
    assertEquals(List.of(Metric.TTFT, Metric.TPOT, Metric.ITL), results.percentileMetrics());
    assertEquals(99.0, results.metricPercentiles()[0]);
    assertEquals(1, results.metricPercentiles().length);
    assertTrue(results.goodput().isEmpty());
    assertTrue(results.metadata().isEmpty());
    assertEquals(Map.of("dataset-name", "random", "num-prompts", "1000", "seed", "0",
        "request-id-prefix", "benchmark-serving"), plan.datasetFlags());
    assertEquals(List.of(), plan.loraChoices(5));
  }

  @Test
  void theChatBackendDefaultsToTheChatEndpoint() {
    assertEquals("/v1/chat/completions",
        plan("--model m --backend openai-chat").endpoint());
    assertEquals("/api/chat/completions",
        plan("--model m --backend openai-chat --endpoint /api/chat/completions").endpoint());
  }

  @Test
  void baseUrlWinsOverHostAndPort() {
    assertEquals("http://10.0.0.1:9000", plan("--model m --host 10.0.0.1 --port 9000")
        .baseUrl());
    assertEquals("https://h/prefix", plan("--model m --host x --base-url https://h/prefix/")
        .baseUrl());
  }

  @Test
  void modelIsRequired() {
    assertTrue(error("--backend vllm").startsWith("--model is required"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"slow", "mistral", "custom"})
  void tokenizerModesOtherThanAutoAreRefused(String mode) {
    assertEquals("--tokenizer-mode " + mode + " is not supported: "
        + BenchFlags.find("--tokenizer-mode").orElseThrow().note(),
        error("--model m --tokenizer-mode " + mode));
  }

  @Test
  void everyBackendVllmKnowsIsMappedOrRefusedWithItsReason() {
    for (Backends.Backend b : Backends.TABLE.values()) {
      String line = "--model m --backend " + b.name();
      if (b.mapped()) {
        assertEquals(b.name(), plan(line).backend().name());
      } else {
        String message = error(line);
        assertTrue(message.startsWith("--backend " + b.name() + " is refused: "
            + b.refusal()), message);
      }
    }
    assertTrue(error("--model m --backend openai-chatt").contains("is not a backend of "
        + "vLLM's benchmark"));
    Set<String> mapped = Backends.TABLE.values().stream().filter(Backends.Backend::mapped)
        .map(Backends.Backend::name).collect(Collectors.toCollection(TreeSet::new));
    assertEquals(new TreeSet<>(List.of("vllm", "openai", "openai-chat", "lmdeploy", "sglang",
        "scalellm", "llama.cpp")), mapped);
  }

  @Test
  void endpointsThatVllmWouldRejectAreRefused() {
    assertTrue(error("--model m --backend openai-chat --endpoint /v1/completions")
        .contains("must end with 'chat/completions'"));
    assertTrue(error("--model m --endpoint /v1/embeddings")
        .contains("must end with 'completions'"));
    assertTrue(error("--model m --endpoint v1/completions").contains("must start with '/'"));
  }

  @Test
  void logprobsWithChatIsRefused() {
    assertTrue(error("--model m --backend openai-chat --logprobs 2")
        .contains("vLLM's chat request does not send it"));
    assertTrue(error("--model m --logprobs -1").startsWith("--logprobs: logprobs must be >= 0"));
  }

  @Test
  void rampUpFollowsVllmsRules() {
    assertTrue(error("--model m --ramp-up-strategy linear --ramp-up-start-rps 1 "
        + "--ramp-up-end-rps 5 --request-rate 3").contains("do not specify --request-rate"));
    assertTrue(error("--model m --ramp-up-strategy linear --ramp-up-start-rps 1")
        .contains("both --ramp-up-start-rps and --ramp-up-end-rps must be specified"));
    assertTrue(error("--model m --ramp-up-strategy steps --ramp-up-start-rps 1 "
        + "--ramp-up-end-rps 5").contains("allowed values are 'linear' and 'exponential'"));
    assertTrue(error("--model m --ramp-up-start-rps 1 --ramp-up-end-rps 5")
        .contains("need --ramp-up-strategy"));
    assertTrue(error("--model m --ramp-up-strategy exponential --ramp-up-start-rps 0 "
        + "--ramp-up-end-rps 5").startsWith("--arrival flags: "));
    ArrivalProfile ramp = plan("--model m --ramp-up-strategy exponential "
        + "--ramp-up-start-rps 2 --ramp-up-end-rps 8 --request-rate inf").arrivals(10);
    assertEquals(2, ramp.rampUpStartRps().getAsInt());
    assertEquals(8, ramp.rampUpEndRps().getAsInt());
  }

  @Test
  void badValuesNameTheirFlag() {
    assertTrue(error("--model m --burstiness 0").startsWith("--arrival flags: "));
    assertEquals("--max-concurrency must be >= 1, got 0", error("--model m --max-concurrency 0"));
    assertTrue(error("--model m --top-p 1.5").startsWith("--top-p: topP must be in (0, 1]"));
    assertTrue(error("--model m --temperature -1").startsWith("--temperature: "));
    assertEquals("--header 'novalue': Invalid header format. Please use KEY=VALUE format.",
        error("--model m --header novalue"));
    assertTrue(error("--model m --header Host=x").startsWith("--header: header 'Host' is set "
        + "by the client"));
    assertTrue(error("--model m --metadata novalue").startsWith("--metadata: Invalid metadata "
        + "format"));
    assertTrue(error("--model m --goodput ttfb:5").startsWith("--goodput: "));
    assertTrue(error("--model m --percentile-metrics ttft,foo")
        .startsWith("--percentile-metrics: "));
    assertTrue(error("--model m --metric-percentiles 101").startsWith("--metric-percentiles: "));
    assertTrue(error("--model m --result-filename ''").startsWith("--result-filename: "));
    assertEquals("--num-warmups must be >= 0 (or auto), got -1",
        error("--model m --num-warmups -1"));
    assertEquals("--ready-check-timeout-sec must be >= 0, got -5",
        error("--model m --ready-check-timeout-sec -5"));
    assertTrue(error("--model m --dataset-name sharegpt").contains("needs --dataset-path"));
    assertTrue(error("--model m --dataset-name random --sonnet-input-len 5")
        .contains("belong to other datasets"));
    assertTrue(error("--model m --dataset-name visionarena").contains("Unsupported "
        + "--dataset-name"));
    assertTrue(error("--model m --random-batch-size 4").contains("not supported"));
  }

  @Test
  void warmUpsAndResultFlagsMap() {
    assertNull(plan("--model m --num-warmups auto").warmUps(), "the plugin's own warm-up");
    assertEquals(8, plan("--model m --num-warmups 8").warmUps());
    ResultOptions r = plan("--model m --save-result --save-detailed --append-result "
        + "--label L --result-dir out --result-filename f.json --metadata a=1 'b = two words' "
        + "--goodput ttft:500 e2el:9000 --percentile-metrics e2el --metric-percentiles 50,99.9")
        .results();
    assertTrue(r.saveResult() && r.detailed() && r.append());
    assertEquals("L", r.label());
    assertEquals("out", r.resultDir().toString());
    assertEquals("f.json", r.resultFilename());
    assertEquals(Map.of("a", "1", "b", "two words"), r.metadata());
    assertEquals(List.of(Metric.E2EL), r.percentileMetrics());
    assertEquals(2, r.metricPercentiles().length);
    assertTrue(!r.goodput().isEmpty());
  }

  @Test
  void loraChoicesAreSeededAndUseOnlyTheGivenModules() {
    BenchPlan a = plan("--model m --lora-modules x y z --seed 3");
    List<String> picks = a.loraChoices(300);
    assertEquals(picks, plan("--model m --lora-modules x y z --seed 3").loraChoices(300));
    assertEquals(Set.of("x", "y", "z"), Set.copyOf(picks));
    assertTrue(!picks.equals(plan("--model m --lora-modules x y z --seed 4").loraChoices(300)),
        "another seed, other picks");
  }

  @Test
  void readyCheckAndProfilerCallsCarryTheRunsHeadersAndKey() {
    BenchPlan plan = plan("--model m --header x-team=perf");
    assertEquals(Map.of("x-team", "perf", "Authorization", "Bearer sk-1"),
        plan.controlHeaders(Map.of("OPENAI_API_KEY", " sk-1 ")::get));
    assertEquals(Map.of("x-team", "perf"), plan.controlHeaders(name -> null));
    assertEquals(Map.of("authorization", "Basic abc"),
        plan("--model m --header authorization=Basic\\ abc")
            .controlHeaders(Map.of("OPENAI_API_KEY", "sk-1")::get), "the user's header wins");
  }

  @Test
  void datasetsThatNeedUnmappedRequestsAreRefusedWithTheReason() {
    assertTrue(error("--model m --dataset-name random-mm").contains("need multimodal chat or "
        + "rerank requests, not mapped by the ready simulation yet"));
    assertTrue(error("--model m --dataset-name random-rerank").startsWith("--dataset-name "
        + "random-rerank is not supported"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> plan("--model m --no-reranker"))
        .getMessage().contains("rerank requests"));
  }
}
