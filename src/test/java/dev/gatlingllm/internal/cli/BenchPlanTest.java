package dev.gatlingllm.internal.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.action.Backends;
import dev.gatlingllm.internal.action.RequestPreview;
import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.dataset.DatasetContent;
import dev.gatlingllm.dataset.Samples;
import dev.gatlingllm.internal.flags.BenchFlags;
import dev.gatlingllm.internal.flags.GivenValues;
import dev.gatlingllm.internal.metrics.Metric;
import dev.gatlingllm.internal.metrics.TaskType;
import dev.gatlingllm.internal.options.ResultOptionsAccess;
import dev.gatlingllm.internal.protocol.LlmProtocol;
import dev.gatlingllm.options.ResultOptions;
import dev.gatlingllm.tokenizer.Tokenizer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
    assertEquals(0, plan.readyCheckTimeoutSec(), "vLLM 0.29 skips the ready check by default");
    assertEquals(0, plan.warmUps());
    assertEquals("auto", args.value("tokenizer-mode").orElseThrow());
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
    assertEquals(List.of(Metric.TTFT, Metric.TPOT, Metric.ITL),
        ResultOptionsAccess.percentileMetrics(results, TaskType.GENERATION));
    assertEquals(List.of(Metric.E2EL),
        ResultOptionsAccess.percentileMetrics(results, TaskType.EMBEDDING),
        "current vLLM's default for pooling");
    assertEquals(99.0, results.metricPercentiles()[0]);
    assertEquals(1, results.metricPercentiles().length);
    assertTrue(ResultOptionsAccess.goodput(results).isEmpty());
    assertTrue(results.metadata().isEmpty());
    String prefix = plan.datasetFlags().value("request-id-prefix").orElseThrow();
    assertTrue(prefix.matches("bench-[0-9a-f]{8}-"), prefix);
    assertEquals(Map.of("dataset-name", "random", "num-prompts", "1000", "seed", "0",
        "request-id-prefix", prefix), plan.datasetFlags().texts());
    // handed to the dataset as converted when parsed, not as words to parse again
    assertEquals(Optional.of(1000), plan.datasetFlags().integer("num-prompts"));
    assertTrue(plan.ignoreEosForced(), "vLLM forces ignore_eos for random through completions");
    assertTrue(plan.temperatureWarning().startsWith("WARNING: vllm bench serve no longer sets "
        + "temperature==0 (greedy)"));
    assertFalse(plan.selfTimed());
    assertEquals(List.of(), plan.loraChoices(5));
  }

  @Test
  void oneGatlingRunIsOneRunSoMoreRunsAreTheLaunchersJob() {
    assertEquals(1, BenchChecks.numRuns(plan("--model m").args()));
    assertEquals(1, BenchChecks.numRuns(plan("--model m --num-runs 1").args()));
    assertEquals("--num-runs 3 runs the benchmark as that many Gatling runs, each in a JVM of "
        + "its own, which one Gatling run cannot do: use `gatling-llm bench serve ... "
        + "--num-runs 3` (or dev.gatlingllm.sweep.Sweep.repeat from Java)",
        error("--model m --num-runs 3"));
    assertEquals("--num-runs must be at least 1, got 0", error("--model m --num-runs 0"));
    assertEquals("--sweep-max-concurrency runs a sweep of Gatling runs, each in a JVM of its "
        + "own, which one Gatling run cannot do: use `gatling-llm bench serve ... "
        + "--sweep-max-concurrency ...` (or gatling-llm bench sweep serve)",
        error("--model m --sweep-max-concurrency 1,4"));
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
  void withoutModelTheServersFirstModelIsTakenAndPrintedAsVllmDoes() {
    List<String> asked = new ArrayList<>();
    BenchPlan plan = BenchPlan.of(BenchArgs.parse(CommandLine.split(
        "--backend vllm --base-url https://h:8443 --insecure")), (url, headers, insecure) -> {
          asked.add(url + " " + insecure);
          return new ServerModel("served-name", "org/base-model");
        });
    assertEquals(List.of("https://h:8443 true"), asked);
    assertEquals("org/base-model", plan.model(), "the root names the tokenizer and the file");
    assertEquals("org/base-model", plan.tokenizerId());
    assertEquals("served-name", plan.requestModelName(), "the id is sent");
    assertEquals(List.of("Model not specified, fetching first model from server...",
        "First model name: served-name, first model id: org/base-model"), plan.modelLines());
    // with --model, nothing is asked
    BenchPlan given = BenchPlan.of(BenchArgs.parse(CommandLine.split("--model m")),
        (url, headers, insecure) -> {
          throw new AssertionError("asked the server");
        });
    assertEquals(List.of(), given.modelLines());
  }

  @Test
  void theServersModelListIsReadAsVllmReadsIt() {
    assertEquals(new ServerModel("a", "org/a"), ServerModel.parse(
        "{\"data\":[{\"id\":\"a\",\"root\":\"org/a\"},{\"id\":\"b\"}]}".getBytes(
            StandardCharsets.UTF_8), "u"));
    assertEquals(new ServerModel("a", "a"), ServerModel.parse(
        "{\"data\":[{\"id\":\"a\"}]}".getBytes(StandardCharsets.UTF_8), "u"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> ServerModel.parse(
        "{\"data\":[]}".getBytes(StandardCharsets.UTF_8), "http://h/v1/models")).getMessage()
        .contains("no model was found on the server (http://h/v1/models lists none)"));
  }

  @Test
  void generalLengthsSetTheDatasetsOwnAsVllmMapsThem() {
    assertEquals("64", plan("--model m --input-len 64 --random-input-len 9").datasetFlags()
        .value("random-input-len").orElseThrow(), "--input-len wins");
    assertEquals("32", plan("--model m --output-len 32").datasetFlags()
        .value("random-output-len").orElseThrow());
    assertEquals("7", plan("--model m --dataset-name prefix_repetition --output-len 7")
        .datasetFlags().value("prefix-repetition-output-len").orElseThrow());
    // sonnet has no general length in vLLM 0.29: the flags are accepted and change nothing
    GivenValues sonnet = plan("--model m --dataset-name sonnet --dataset-path "
        + "datasets/sonnet/sonnet.txt --input-len 300 --output-len 20").datasetFlags();
    assertFalse(sonnet.has("sonnet-input-len") || sonnet.has("random-input-len"));
  }

  @Test
  void extraBodyIsMergedIntoEveryBodyAndBadJsonIsRefusedNamingTheFlag() throws Exception {
    BenchPlan plan = plan("--model m --backend openai-chat --temperature 0.5 "
        + "--extra-body '{\"min_tokens\": 32, \"temperature\": 0.1}' "
        + "--chat-template-kwargs '{\"enable_thinking\": false}'");
    RequestPreview.Rendered r = sent(plan, Map.of("prompt", "hi", "prompt_len", 1,
        "output_len", 3, "request_id", "x"));
    JsonNode body = JSON.readTree(r.body());
    assertEquals(32, body.get("min_tokens").asInt());
    assertEquals(0.1, body.get("temperature").asDouble(), "the extra body wins, as in vLLM");
    assertEquals(false, body.get("chat_template_kwargs").get("enable_thinking").asBoolean());
    assertTrue(error("--model m --extra-body '{min_tokens: 1}'")
        .startsWith("--extra-body is not valid JSON: "));
    assertEquals("--extra-body must be a JSON object such as '{\"min_tokens\": 32}', got: [1]",
        error("--model m --extra-body [1]"));
    assertTrue(error("--model m --backend vllm-rerank --dataset-name random-rerank "
        + "--extra-body {}").startsWith("--extra-body is not supported with --backend "
        + "vllm-rerank"));
    assertEquals(List.of("--chat-template-kwargs"),
        plan("--model m --chat-template-kwargs {}").ignoredFlags(), "completions: not sent");
  }

  @Test
  void temperatureIsSentOnlyWhenGiven() throws Exception {
    Map<String, Object> row = Map.of("prompt", "hi", "prompt_len", 1, "output_len", 3,
        "request_id", "x");
    assertFalse(JSON.readTree(sent(plan("--model m"), row).body()).has("temperature"));
    assertEquals(0.0, JSON.readTree(sent(plan("--model m --temperature 0"), row).body())
        .get("temperature").asDouble());
    assertNull(plan("--model m --temperature 0").temperatureWarning());
    assertNull(plan("--model m --backend openai-embeddings").temperatureWarning(),
        "pooling has no sampling");
  }

  @Test
  void loraAssignmentRoundRobinCyclesTheModules() {
    assertEquals(List.of("a", "b", "c", "a", "b"),
        plan("--model m --lora-modules a b c --lora-assignment round-robin").loraChoices(5));
    assertEquals("--lora-assignment: invalid choice 'sticky' (choose from 'random', "
        + "'round-robin')", error("--model m --lora-assignment sticky"));
  }

  @Test
  void ignoreEosIsForcedWhereVllmForcesIt() {
    assertTrue(plan("--model m --backend openai-chat --dataset-name random").ignoreEosForced());
    assertFalse(plan("--model m --dataset-name sonnet --dataset-path datasets/sonnet/sonnet.txt")
        .ignoreEosForced());
    assertFalse(plan("--model m --backend openai-embeddings").ignoreEosForced(),
        "not an OpenAI-compatible generation backend");
  }

  @Test
  void aTimedTraceIsReplayedAtItsOwnTimestampsWithIgnoreEosUnlessNoSelfTimed() {
    String trace = "--model m --dataset-name timed_trace --dataset-path "
        + "datasets/timed_trace/mooncake_sample.jsonl";
    double[] times = {0, 0.25, 1.5};
    BenchPlan timed = plan(trace);
    assertTrue(timed.selfTimed());
    assertTrue(timed.ignoreEosForced(), "vLLM forces --ignore-eos for timed_trace");
    ArrivalProfile replayed = timed.arrivals(3, Optional.of(times));
    assertEquals(3, replayed.replayTrace().orElseThrow().size());
    assertEquals(3, replayed.numPrompts());
    assertEquals("timed_trace is replayed at its own timestamps: --request-rate and "
        + "--ramp-up-strategy need --no-self-timed", assertThrows(IllegalArgumentException.class,
            () -> plan(trace + " --request-rate 5").arrivals(3, Optional.of(times)))
        .getMessage());
    ArrivalProfile rated = plan(trace + " --no-self-timed --request-rate 5")
        .arrivals(3, Optional.of(times));
    assertTrue(rated.replayTrace().isEmpty());
    assertEquals(5.0, rated.requestRate());
  }

  @Test
  void selfTimedIsRefusedWithoutATimedTraceAndOthersAsVllmDoes() {
    assertEquals("--self-timed/--no-self-timed is only supported with "
        + "--dataset-name=timed_trace (the only dataset with timestamps), as in vLLM",
        error("--model m --self-timed"));
    assertEquals(error("--model m --self-timed"), error("--model m --no-self-timed"));
    assertTrue(error("--model m --dataset-path x.json").startsWith("The random dataset is "
        + "generated and reads no file, but --dataset-path x.json was given"));
  }

  @Test
  void olderCommandLinesKeepTheirMeaning() {
    assertEquals("datasets/sharegpt/sharegpt_sample.json", plan("--model m --dataset-name "
        + "sharegpt --dataset datasets/sharegpt/sharegpt_sample.json").datasetFlags()
        .value("dataset-path").orElseThrow(), "older vLLM's --dataset");
    assertEquals("b.json", plan("--model m --dataset-name sharegpt --dataset a.json "
        + "--dataset-path b.json").datasetFlags().value("dataset-path").orElseThrow());
    for (String old : List.of("sglang", "lmdeploy", "scalellm", "llama.cpp")) {
      BenchPlan plan = plan("--model m --backend " + old);
      assertEquals("/v1/completions", plan.endpoint(), old);
      assertTrue(plan.ignoreEosForced(), old + " is an OpenAI-compatible completions backend");
    }
  }

  @Test
  void theRequestIdPrefixIsNewForEachRunUnlessGiven() {
    assertNotEquals(plan("--model m").datasetFlags().value("request-id-prefix").orElseThrow(),
        plan("--model m").datasetFlags().value("request-id-prefix").orElseThrow());
    assertEquals("r-", plan("--model m --request-id-prefix r-").datasetFlags()
        .value("request-id-prefix").orElseThrow());
  }

  @ParameterizedTest
  @ValueSource(strings = {"slow", "mistral", "custom", "deepseek_v32"})
  void tokenizerModesOtherThanTheFastTokenizerAreRefused(String mode) {
    assertEquals("--tokenizer-mode " + mode + " is not supported: "
        + BenchFlags.find("--tokenizer-mode").orElseThrow().note(),
        error("--model m --tokenizer-mode " + mode));
  }

  /** A dataset each backend can send, so that only the backend is under test. */
  private static String datasetFor(String backend) {
    DatasetContent only = Backends.resolve(backend).accepts().onlyFor();
    return only == DatasetContent.AUDIO
        ? " --dataset-name hf --dataset-path openslr/librispeech_asr"
        : only == DatasetContent.RERANK ? " --dataset-name random-rerank" : "";
  }

  @Test
  void everyBackendVllmKnowsIsServedOrRefusedWithItsReason() {
    for (String name : Backends.servedNames()) {
      BenchPlan plan = plan("--model m --backend " + name + datasetFor(name));
      assertEquals(name, plan.backend().name());
      assertEquals(plan.backend().defaultEndpoint(), plan.endpoint());
    }
    for (Map.Entry<String, String> refused
        : Backends.refused().entrySet()) {
      assertEquals("--backend " + refused.getKey() + " cannot be served: " + refused.getValue(),
          error("--model m --backend " + refused.getKey()));
    }
    assertTrue(error("--model m --backend openai-chatt").startsWith("Unknown --backend "
        + "'openai-chatt'"));
    // vLLM's names, and the older names for its completions request
    assertTrue(Backends.servedNames().containsAll(List.of("vllm",
        "openai", "openai-chat", "openai-audio", "openai-embeddings", "openai-embeddings-chat",
        "openai-embeddings-clip", "openai-embeddings-vlm2vec", "infinity-embeddings",
        "infinity-embeddings-clip", "vllm-rerank", "lmdeploy", "sglang", "scalellm",
        "llama.cpp")));
  }

  @Test
  void eachBackendDefaultsToThePathVllmsDocsGiveIt() {
    assertEquals("/v1/chat/completions", plan("--model m --backend openai-chat").endpoint());
    assertEquals("/v1/audio/transcriptions", plan("--model m --backend openai-audio"
        + datasetFor("openai-audio")).endpoint());
    assertEquals("/v1/embeddings", plan("--model m --backend openai-embeddings-vlm2vec")
        .endpoint());
    assertEquals("/embeddings", plan("--model m --backend infinity-embeddings-clip")
        .endpoint());
    assertEquals("/v1/rerank", plan("--model m --backend vllm-rerank"
        + datasetFor("vllm-rerank")).endpoint());
    assertEquals("/api/chat/completions",
        plan("--model m --backend openai-chat --endpoint /api/chat/completions").endpoint());
    assertEquals("/v1/audio/translations", plan("--model m --backend openai-audio "
        + "--endpoint /v1/audio/translations" + datasetFor("openai-audio")).endpoint());
  }

  @Test
  void endpointsThatVllmWouldRejectAreRefused() {
    assertTrue(error("--model m --backend openai-chat --endpoint /v1/completions")
        .contains("must end with 'chat/completions'"));
    assertTrue(error("--model m --endpoint /v1/embeddings")
        .contains("must end with 'completions'"));
    assertTrue(error("--model m --endpoint v1/completions").contains("must start with '/'"));
    assertTrue(error("--model m --backend openai-audio --endpoint /v1/audio/speech"
        + datasetFor("openai-audio")).contains("must end with 'transcriptions' or "
        + "'translations'"));
    assertTrue(error("--model m --backend openai-embeddings --endpoint /v1/completions")
        .contains("must end with 'embeddings'"));
    assertTrue(error("--model m --backend vllm-rerank --endpoint /v1/score"
        + datasetFor("vllm-rerank")).contains("must end with 'rerank'"));
  }

  @Test
  void logprobsIsRefusedWhereVllmDoesNotSendIt() {
    for (String backend : List.of("openai-chat", "openai-audio", "openai-embeddings",
        "vllm-rerank")) {
      assertTrue(error("--model m --backend " + backend + " --logprobs 2" + datasetFor(backend))
          .contains("vLLM's chat, audio and pooling requests do not send it"), backend);
    }
    assertTrue(error("--model m --logprobs -1").startsWith("--logprobs must be >= 0"));
  }

  @Test
  void samplingFlagsAreRefusedWithAudioAndNotSentWithPooling() {
    assertEquals("--temperature, --top-k with --backend openai-audio: sampling parameters are "
        + "only supported by openai-compatible backends (completions and chat), as vLLM "
        + "refuses them", error("--model m --backend openai-audio --temperature 0.3 --top-k 5"
        + datasetFor("openai-audio")));
    BenchPlan embeddings = plan("--model m --backend openai-embeddings --temperature 0.3 "
        + "--ignore-eos --goodput e2el:100");
    assertEquals(List.of("--temperature", "--goodput"), embeddings.ignoredFlags());
    assertEquals(List.of("--ignore-eos"), plan("--model m --backend vllm-rerank --ignore-eos"
        + datasetFor("vllm-rerank")).ignoredFlags());
    assertEquals(List.of(), plan("--model m --temperature 0.3").ignoredFlags());
  }

  @Test
  void loraModulesAndWarmUpsAreRefusedWhereTheRequestCannotTakeThem() {
    assertTrue(error("--model m --backend openai-embeddings --lora-modules a b")
        .startsWith("--lora-modules is not supported with --backend openai-embeddings: "));
    assertTrue(error("--model m --backend vllm-rerank --num-warmups 2"
        + datasetFor("vllm-rerank")).contains("warm-up requests are sent for completions and "
        + "chat only"));
    assertEquals(0, plan("--model m --backend vllm-rerank --num-warmups 0"
        + datasetFor("vllm-rerank")).warmUps());
  }

  @Test
  void rampUpFollowsVllmsRules() {
    assertTrue(error("--model m --ramp-up-strategy linear --ramp-up-start-rps 1 "
        + "--ramp-up-end-rps 5 --request-rate 3").contains("do not specify --request-rate"));
    assertTrue(error("--model m --ramp-up-strategy linear --ramp-up-start-rps 1")
        .contains("both --ramp-up-start-rps and --ramp-up-end-rps must be specified"));
    assertEquals("--ramp-up-strategy must be linear or exponential; got steps",
        error("--model m --ramp-up-strategy steps --ramp-up-start-rps 1 --ramp-up-end-rps 5"));
    assertTrue(error("--model m --ramp-up-start-rps 1 --ramp-up-end-rps 5")
        .contains("need --ramp-up-strategy"));
    assertEquals("--ramp-up-strategy exponential needs --ramp-up-start-rps > 0 (it multiplies "
        + "the rate); got 0", error("--model m --ramp-up-strategy exponential "
        + "--ramp-up-start-rps 0 --ramp-up-end-rps 5"));
    ArrivalProfile ramp = plan("--model m --ramp-up-strategy exponential "
        + "--ramp-up-start-rps 2 --ramp-up-end-rps 8 --request-rate inf").arrivals(10);
    assertEquals(2, ramp.rampUpStartRps().getAsInt());
    assertEquals(8, ramp.rampUpEndRps().getAsInt());
  }

  /**
   * The drop-in refuses a bad value in the words of the flag typed, never the DSL's: the
   * arrival profile said {@code requestRate must be > 0 ... or Double.POSITIVE_INFINITY}.
   */
  @ParameterizedTest
  @ValueSource(strings = {"--request-rate -5", "--request-rate 0", "--burstiness 0",
      "--burstiness -1", "--burstiness inf", "--num-prompts 0", "--num-prompts -3",
      "--max-concurrency 0", "--ramp-up-strategy linear --ramp-up-start-rps -1 "
      + "--ramp-up-end-rps 5", "--ramp-up-strategy linear --ramp-up-start-rps 5 "
      + "--ramp-up-end-rps 2", "--ramp-up-strategy linear --ramp-up-start-rps 0 "
      + "--ramp-up-end-rps 0", "--ramp-up-strategy exponential --ramp-up-start-rps 0 "
      + "--ramp-up-end-rps 5", "--ramp-up-strategy steps --ramp-up-start-rps 1 "
      + "--ramp-up-end-rps 5", "--top-p 1.5", "--temperature -1"})
  void refusalsSpeakInFlags(String flags) {
    String message = error("--model m " + flags);
    String first = flags.split(" ")[0];
    assertTrue(message.contains(first) || message.contains("--ramp-up-"), message);
    assertFalse(message.contains("Double."), message);
    assertFalse(Pattern.compile("\\b[a-z]+[A-Z][a-zA-Z]*\\b").matcher(message).find(),
        "a camelCase DSL name in: " + message);
    assertFalse(message.startsWith("--arrival flags"), message);
  }

  @Test
  void theRequestRateRefusalReadsAsTheUserTypedIt() {
    assertEquals("--request-rate must be > 0, or inf to send everything at once; got -5",
        error("--model m --request-rate -5"));
  }

  @Test
  void badValuesNameTheirFlag() {
    assertTrue(error("--model m --burstiness 0").startsWith("--burstiness must be a finite "));
    assertEquals("--max-concurrency must be >= 1, got 0", error("--model m --max-concurrency 0"));
    assertTrue(error("--model m --top-p 1.5").startsWith("--top-p must be in (0, 1]"));
    assertTrue(error("--model m --temperature -1").startsWith("--temperature "));
    assertEquals("--header 'novalue': Invalid header format. Please use KEY=VALUE format.",
        error("--model m --header novalue"));
    assertTrue(error("--model m --header Host=x").startsWith("--header 'Host' is set "
        + "by the client"));
    assertTrue(error("--model m --metadata novalue").startsWith("--metadata: Invalid metadata "
        + "format"));
    assertTrue(error("--model m --goodput ttfb:5").startsWith("--goodput: "));
    assertTrue(error("--model m --percentile-metrics ttft,foo")
        .startsWith("--percentile-metrics: "));
    assertTrue(error("--model m --metric-percentiles 101").startsWith("--metric-percentiles: "));
    assertTrue(error("--model m --result-filename ''").startsWith("--result-filename "));
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
    assertEquals(List.of(Metric.E2EL), ResultOptionsAccess.percentileMetrics(r));
    assertEquals(2, r.metricPercentiles().length);
    assertTrue(!ResultOptionsAccess.goodput(r).isEmpty());
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
  void datasetsAreRefusedWithABackendThatCannotSendThem() {
    assertEquals("--backend openai with --dataset-name random-mm: multi-modal content (images) "
        + "is only supported on the 'openai-chat' backend, as in vLLM",
        error("--model m --dataset-name random-mm"));
    assertTrue(error("--model m --backend openai-embeddings-clip --dataset-name random-mm")
        .contains("only supported on the 'openai-chat' backend"));
    assertEquals("--backend openai-chat with --dataset-name random-rerank: the dataset's "
        + "requests are rerank queries with documents, which only --backend vllm-rerank sends",
        error("--model m --backend openai-chat --dataset-name random-rerank"));
    assertTrue(error("--model m --backend vllm-rerank").contains("use --dataset-name "
        + "random-rerank"));
    assertTrue(error("--model m --backend vllm-rerank --dataset-name random-mm")
        .contains("use --dataset-name random-rerank"));
    assertTrue(error("--model m --backend openai-audio").contains("openai-audio uploads each "
        + "request's audio clip, and this dataset has text prompts; use an ASR dataset"));
    assertTrue(error("--model m --backend openai-chat --dataset-name hf --dataset-path "
        + "openslr/librispeech_asr").contains("only --backend openai-audio uploads"));
    assertTrue(error("--model m --backend vllm --dataset-name hf --dataset-path "
        + "lmarena-ai/VisionArena-Chat").contains("completions cannot send"));
    // a local copy names its hub id with --hf-name
    assertTrue(error("--model m --dataset-name hf --dataset-path "
        + "datasets/hf/visionarena_sample.parquet --hf-name lmarena-ai/VisionArena-Chat")
        .contains("completions cannot send"));
  }

  @Test
  void datasetsAreAcceptedWithEveryBackendThatCanSendThem() {
    plan("--model m --backend openai-chat --dataset-name random-mm");
    plan("--model m --backend vllm-rerank --dataset-name random-rerank --no-reranker "
        + "--random-batch-size 4");
    for (String backend : List.of("openai-chat", "openai-embeddings-clip",
        "openai-embeddings-vlm2vec", "infinity-embeddings-clip")) {
      plan("--model m --backend " + backend + " --dataset-name hf --dataset-path "
          + "yale-nlp/MMVU");
    }
    for (String backend : List.of("vllm", "openai-chat", "openai-embeddings",
        "infinity-embeddings")) {
      plan("--model m --backend " + backend + " --dataset-name hf --dataset-path "
          + "likaixin/InstructCoder");
    }
  }

  @Test
  void aLocalFileWhoseContentOnlyItsRowsTellIsCheckedOnTheSamples() {
    // without --hf-name the reader is picked by the file's columns: known once it is read
    BenchPlan plan = plan("--model m --backend openai-chat --dataset-name hf --dataset-path "
        + "datasets/hf/asr_sample.parquet --num-prompts 2");
    Samples samples;
    try (Tokenizer gpt2 = Tokenizer.gpt2()) {
      samples = plan.dataset().sample(gpt2);
    }
    assertEquals(DatasetContent.AUDIO, DatasetContent.of(samples));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> plan.checkDataset(DatasetContent.of(samples))).getMessage()
        .contains("only --backend openai-audio uploads"));
  }

  // What the plan builds, worked out by hand from vLLM's request functions: each backend's
  // request for one dataset record (the body the run and the ready check send), its path,
  // and what the plan gives the protocol, the dataset and the arrivals.

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Map<String, Object> IMAGE = Map.of("type", "image_url",
      "image_url", Map.of("url", "data:image/png;base64,AA=="));

  /** The request of the plan for one record, as the run's first user sends it. */
  private static RequestPreview.Rendered sent(BenchPlan plan, Map<String, Object> record) {
    return RequestPreview.render(plan.request(), record, plan.requestModelName());
  }

  private static String body(RequestPreview.Rendered r) {
    return new String(r.body(), StandardCharsets.UTF_8);
  }

  @Test
  void completionsSendTheFlagsInVllmsFieldOrder() {
    BenchPlan plan = plan("--model m --served-model-name served --ignore-eos "
        + "--temperature 0.7 --top-k 5 --logprobs 2");
    RequestPreview.Rendered r = sent(plan, Map.of("prompt", "hi", "prompt_len", 1,
        "output_len", 7, "request_id", "r-3"));
    assertEquals("/v1/completions", r.path());
    assertEquals("application/json", r.contentType());
    assertFalse(r.pooling());
    // repetition_penalty 1.0: vLLM's completions request always carries it
    assertEquals("{\"model\":\"served\",\"prompt\":\"hi\",\"max_tokens\":7,\"logprobs\":2,"
        + "\"temperature\":0.7,\"top_k\":5,\"repetition_penalty\":1.0,\"ignore_eos\":true,"
        + "\"stream\":true,\"stream_options\":{\"include_usage\":true}}", body(r));
  }

  @Test
  void chatSendsTheDatasetsMediaAfterThePromptAndTheDrawnLoraModule() throws Exception {
    BenchPlan plan = plan("--model m --backend openai-chat --lora-modules a b --top-p 0.9 "
        + "--endpoint /api/chat/completions");
    RequestPreview.Rendered r = sent(plan, Map.of("prompt", "hi", "prompt_len", 1,
        "output_len", 3, "request_id", "x", BenchPlan.LORA_ATTRIBUTE, "b",
        "mm_content", List.of(IMAGE)));
    assertEquals("/api/chat/completions", r.path());
    assertEquals(JSON.readTree("{\"model\":\"b\",\"messages\":[{\"role\":\"user\","
        + "\"content\":[{\"type\":\"text\",\"text\":\"hi\"},{\"type\":\"image_url\","
        + "\"image_url\":{\"url\":\"data:image/png;base64,AA==\"}}]}],"
        + "\"max_completion_tokens\":3,\"top_p\":0.9,\"ignore_eos\":true,\"stream\":true,"
        + "\"stream_options\":{\"include_usage\":true}}"), JSON.readTree(r.body()));
    // no repetition_penalty (completions only), no temperature unless given, ignore_eos
    // forced with the random dataset, and the fields in vLLM's order
    assertEquals(List.of("model", "messages", "max_completion_tokens", "top_p", "ignore_eos",
        "stream", "stream_options"), fieldNames(r));
  }

  @Test
  void embeddingsSendIgnoreEosAndNoSamplingParameter() throws Exception {
    BenchPlan plan = plan("--model m --backend openai-embeddings --ignore-eos "
        + "--temperature 0.3");
    RequestPreview.Rendered r = sent(plan, Map.of("prompt", "hi", "prompt_len", 1,
        "output_len", 3, "request_id", "x"));
    assertEquals("/v1/embeddings", r.path());
    assertTrue(r.pooling());
    assertEquals("{\"model\":\"m\",\"input\":\"hi\",\"truncate_prompt_tokens\":-1,"
        + "\"ignore_eos\":true}", body(r));
    assertEquals(List.of("--temperature"), plan.ignoredFlags());
  }

  @Test
  void anEmbeddingsVariantSendsItsOwnBodyToItsOwnPath() throws Exception {
    RequestPreview.Rendered r = sent(plan("--model m --backend infinity-embeddings-clip"),
        Map.of("prompt", "a cat", "prompt_len", 2, "request_id", "x",
            "mm_content", List.of(IMAGE)));
    assertEquals("/embeddings", r.path());
    // Infinity's CLIP body: the image alone, its modality from the part's type
    assertEquals("{\"model\":\"m\",\"input\":\"data:image/png;base64,AA==\","
        + "\"modality\":\"image\"}", body(r));
    RequestPreview.Rendered pooling = sent(plan("--model m --backend vllm-pooling "
        + "--endpoint /custom/pooling"), Map.of("prompt", "hi", "prompt_len", 1));
    assertEquals("/custom/pooling", pooling.path());
    assertEquals("{\"model\":\"m\",\"truncate_prompt_tokens\":-1,\"input\":\"hi\"}",
        body(pooling));
  }

  @Test
  void rerankSendsTheQueryAndDocumentsAndNothingOfTheFlags() {
    BenchPlan plan = plan("--model m --backend vllm-rerank --ignore-eos --temperature 0.5"
        + datasetFor("vllm-rerank"));
    RequestPreview.Rendered r = sent(plan, Map.of("prompt", "q", "prompt_len", 4,
        "documents", List.of("d1", "d2"), "request_id", "x"));
    assertEquals("/v1/rerank", r.path());
    assertTrue(r.pooling());
    assertEquals("{\"model\":\"m\",\"query\":\"q\",\"documents\":[\"d1\",\"d2\"],"
        + "\"truncate_prompt_tokens\":-1}", body(r));
    assertEquals(List.of("--temperature", "--ignore-eos"), plan.ignoredFlags());
  }

  @Test
  void audioUploadsTheClipWithVllmsFormFieldsInTheirOrder() {
    BenchPlan plan = plan("--model m --backend openai-audio --ignore-eos"
        + datasetFor("openai-audio"));
    RequestPreview.Rendered r = sent(plan, Map.of("audio", new byte[] {1, 2, 3},
        "prompt_len", 9, "output_len", 5, "request_id", "x"));
    assertEquals("/v1/audio/transcriptions", r.path());
    assertFalse(r.pooling(), "a transcription streams");
    assertTrue(r.contentType().startsWith("multipart/form-data; boundary="), r.contentType());
    String form = body(r);
    List<String> fields = new ArrayList<>();
    Matcher m = Pattern.compile("name=\"([^\"]+)\"(?:; filename=\"[^\"]*\")?\r\n"
        + "(?:Content-Type: [^\r]*\r\n)?\r\n([^\r]*)\r\n").matcher(form);
    while (m.find()) {
      fields.add(m.group(1) + "=" + m.group(2));
    }
    assertEquals(List.of("file=\u0001\u0002\u0003", "model=m", "max_completion_tokens=5",
        "stream=True", "language=en", "stream_include_usage=True",
        "stream_continuous_usage_stats=True", "ignore_eos=True", "temperature=0.0"), fields);
  }

  @Test
  void theProtocolDatasetAndArrivalsAreTheFlags() {
    BenchPlan plan = plan("--model org/m --served-model-name served --backend openai-chat "
        + "--base-url http://h:9/v --header x-team=perf --request-id-prefix p- --num-warmups 3 "
        + "--dataset-name sonnet --dataset-path datasets/sonnet/sonnet.txt --num-prompts 12 --seed 7 "
        + "--request-rate 4 --burstiness 0.5 --max-concurrency 3");
    LlmProtocol protocol = plan.protocol().protocol();
    assertEquals("openai-chat", protocol.backend());
    assertEquals("org/m", protocol.model());
    assertEquals("served", protocol.requestModelName());
    assertEquals(Map.of("x-team", "perf"), protocol.headers());
    assertEquals("p-", protocol.requestIdPrefix());
    assertEquals(3, protocol.warmUp().requests());
    assertEquals("/v1/chat/completions", plan.endpoint());
    assertEquals("sonnet", plan.dataset().name());
    assertEquals(12, plan.dataset().numPrompts());
    assertEquals(7, plan.dataset().seed());
    ArrivalProfile arrivals = plan.arrivals(12);
    assertEquals(12, arrivals.numPrompts());
    assertEquals(4.0, arrivals.requestRate());
    assertEquals(0.5, arrivals.burstiness());
    assertEquals(7, arrivals.seed());
    assertEquals(3, arrivals.maxConcurrency().getAsInt());
  }

  private static List<String> fieldNames(RequestPreview.Rendered r) throws Exception {
    List<String> names = new ArrayList<>();
    JSON.readTree(r.body()).fieldNames().forEachRemaining(names::add);
    return names;
  }
}
