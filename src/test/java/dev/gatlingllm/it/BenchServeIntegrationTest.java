package dev.gatlingllm.it;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.internal.cli.BenchArgs;
import dev.gatlingllm.internal.cli.BenchPlan;
import dev.gatlingllm.cli.BenchServe;
import dev.gatlingllm.internal.cli.CommandLine;
import dev.gatlingllm.dataset.Samples;
import dev.gatlingllm.sim.RecordedRequest;
import dev.gatlingllm.internal.sim.SimTokens;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import dev.gatlingllm.testing.TeeOutputStream;
import dev.gatlingllm.tokenizer.Tokenizer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;

/**
 * Real {@code vllm bench serve} command lines run through {@link BenchServe} in-process: each
 * must run green and write the result JSON under the name vLLM would give it; what goes on
 * the wire is compared field by field with what vLLM sends for the same flags.
 */
@Timeout(120)
class BenchServeIntegrationTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String DATE = "-\\d{8}-\\d{6}\\.json";
  // the ready check (off by default since vLLM 0.29) is part of the procedure these runs
  // check, and a fixed request-id prefix (vLLM 0.29 draws one per run) lets runs be compared
  private static final String COMMON = "--model served-llm --tokenizer datasets/tokenizers/gpt2 "
      + "--save-result --seed 1 --ready-check-timeout-sec 600 --request-id-prefix bench- ";

  @TempDir
  static Path results;

  private static Tokenizer gpt2;

  @BeforeAll
  static void load() {
    gpt2 = Tokenizer.gpt2();
  }

  @AfterAll
  static void close() {
    gpt2.close();
  }

  /** One run: Gatling's exit code and run folder, and what it printed. */
  private record Run(GatlingRunner.Result result, String console) {
    JsonNode json() throws IOException {
      return JSON.readTree(resultFile().toFile());
    }

    Path resultFile() throws IOException {
      try (Stream<Path> files = Files.list(result.runFolder())) {
        List<Path> json = files.filter(p -> p.toString().endsWith(".json")).toList();
        assertEquals(1, json.size(), "one result JSON in the run folder: " + json);
        return json.get(0);
      }
    }
  }

  private static Run bench(String args) {
    PrintStream original = System.out;
    PrintStream originalErr = System.err;
    ByteArrayOutputStream copy = new ByteArrayOutputStream();
    System.setOut(new PrintStream(new TeeOutputStream(original, copy), true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(new TeeOutputStream(originalErr, copy), true, StandardCharsets.UTF_8));
    try {
      Map<String, String> properties = new HashMap<>();
      properties.put(CommandLine.ARGS_PROPERTY, args);
      properties.put("llm.resultsFolder", results.toString());
      GatlingRunner.Result result = GatlingRunner.run(BenchServe.class, results, properties);
      return new Run(result, copy.toString(StandardCharsets.UTF_8));
    } finally {
      // a run that crashed in-process leaves this thread interrupted; the next run would
      // then stop at its first wait
      Thread.interrupted();
      System.setOut(original);
      System.setErr(originalErr);
    }
  }

  private static Simulator fastSimulator() {
    return Simulator.start(StrictServer.builder().ttft(Duration.ofMillis(5))
        .itl(Duration.ofMillis(1)).jitter(0).build());
  }

  /** The re-alignment's /tokenize and /detokenize calls (random prompts, as vLLM 0.29). */
  static boolean isTokenizeCall(String path) {
    return path.equals("/tokenize") || path.equals("/detokenize");
  }

  /** What the server received but the re-alignment's calls. */
  private static List<RecordingLlmServer.Received> generations(RecordingLlmServer server) {
    return server.received().stream().filter(r -> !isTokenizeCall(r.path())).toList();
  }

  /** Command line (after the common flags), requests, the file name vLLM would write. */
  static Stream<Arguments> commandLines() {
    String random = "--random-input-len 48 --random-output-len 6 ";
    return Stream.of(
        arguments("--backend openai-chat --dataset-name random --request-rate 100 "
            + random + "--num-prompts 12", 12, "openai-chat-100.0qps-served-llm"),
        arguments("--backend vllm --dataset-name sharegpt --dataset-path "
            + "datasets/sharegpt/sharegpt_sample.json --sharegpt-output-len 6 "
            + "--request-rate 100 --num-prompts 10", 10, "vllm-100.0qps-served-llm"),
        arguments("--backend openai --dataset-name sonnet --dataset-path "
            + "datasets/sonnet/sonnet.txt --sonnet-input-len 120 --sonnet-prefix-len 40 "
            + "--sonnet-output-len 6 --request-rate 100 --num-prompts 10", 10,
            "openai-100.0qps-served-llm"),
        arguments("--dataset-name burstgpt --dataset-path "
            + "datasets/burstgpt/burstgpt_sample.csv --num-prompts 8 --label burst "
            + "--request-rate 100", 8, "burst-100.0qps-served-llm"),
        arguments("--dataset-name custom --dataset-path datasets/custom/custom_sample.jsonl "
            + "--custom-output-len 6 --num-prompts 10 --request-rate 100", 10,
            "openai-100.0qps-served-llm"),
        arguments("--dataset-name prefix_repetition --prefix-repetition-prefix-len 32 "
            + "--prefix-repetition-suffix-len 16 --prefix-repetition-num-prefixes 2 "
            + "--prefix-repetition-output-len 6 --num-prompts 10 --request-rate 100", 10,
            "openai-100.0qps-served-llm"),
        arguments("--dataset-name hf --dataset-path "
            + "datasets/hf/sharegpt_vicuna_sample.parquet --hf-name "
            + "Aeala/ShareGPT_Vicuna_unfiltered --hf-output-len 6 --num-prompts 10 "
            + "--request-rate 100", 10, "openai-100.0qps-served-llm"),
        arguments("--dataset-name spec_bench --dataset-path "
            + "datasets/spec_bench/spec_bench_sample.jsonl --spec-bench-output-len 6 "
            + "--num-prompts 8 --request-rate 100", 8, "openai-100.0qps-served-llm"),
        arguments("--backend sglang " + random + "--ramp-up-strategy linear "
            + "--ramp-up-start-rps 20 --ramp-up-end-rps 60 --num-prompts 12", 12,
            "sglang-ramp-up-linear-20qps-60qps-served-llm"),
        arguments(random + "--request-rate inf --max-concurrency 3 --num-prompts 12", 12,
            "openai-infqps-concurrency3-served-llm"),
        // issue 27's pasted vLLM 0.29 line: JSON merged into every body, no TLS check
        arguments("--backend openai-chat --dataset-name random --random-input-len 64 "
            + "--random-output-len 32 --extra-body '{\"min_tokens\": 32}' --insecure "
            + "--num-prompts 10 --request-rate 100", 10, "openai-chat-100.0qps-served-llm"),
        arguments(random + "--request-rate 80 --burstiness 0.5 --goodput ttft:5000 "
            + "tpot:1000 e2el:10000 --num-prompts 10 --percentile-metrics ttft,e2el "
            + "--metric-percentiles 50,99.9", 10, "openai-80.0qps-served-llm"),
        // every backend besides completions and chat, each with a dataset it can send
        arguments("--backend openai-audio --dataset-name hf --dataset-path "
            + "datasets/hf/asr_sample.parquet --hf-output-len 4 --num-prompts 4 "
            + "--request-rate 100", 4, "openai-audio-100.0qps-served-llm"),
        arguments("--backend openai-embeddings " + random + "--num-prompts 6 "
            + "--request-rate 100", 6, "openai-embeddings-100.0qps-served-llm"),
        arguments("--backend openai-embeddings-chat --dataset-name sharegpt --dataset-path "
            + "datasets/sharegpt/sharegpt_sample.json --num-prompts 5 --request-rate 100", 5,
            "openai-embeddings-chat-100.0qps-served-llm"),
        arguments("--backend openai-embeddings-clip --dataset-name hf --dataset-path "
            + "datasets/hf/visionarena_sample.parquet --hf-name lmarena-ai/VisionArena-Chat "
            + "--num-prompts 4 --request-rate 100", 4,
            "openai-embeddings-clip-100.0qps-served-llm"),
        arguments("--backend openai-embeddings-vlm2vec --dataset-name hf --dataset-path "
            + "datasets/hf/mmstar_sample.parquet --num-prompts 4 --request-rate 100", 4,
            "openai-embeddings-vlm2vec-100.0qps-served-llm"),
        arguments("--backend infinity-embeddings --dataset-name custom --dataset-path "
            + "datasets/custom/custom_sample.jsonl --num-prompts 5 --request-rate 100", 5,
            "infinity-embeddings-100.0qps-served-llm"),
        arguments("--backend infinity-embeddings-clip " + random + "--num-prompts 5 "
            + "--request-rate 100", 5, "infinity-embeddings-clip-100.0qps-served-llm"),
        arguments("--backend vllm-pooling " + random + "--num-prompts 4 --request-rate 100",
            4, "vllm-pooling-100.0qps-served-llm"),
        arguments("--backend vllm-rerank --dataset-name random-rerank --random-input-len 24 "
            + "--random-batch-size 3 --num-prompts 12 --request-rate 100", 4,
            "vllm-rerank-100.0qps-served-llm"),
        // multimodal datasets through chat
        arguments("--backend openai-chat --dataset-name random-mm --random-input-len 12 "
            + "--random-output-len 3 --random-mm-bucket-config '{(16, 24, 1): 1.0}' "
            + "--num-prompts 4 --request-rate 100", 4, "openai-chat-100.0qps-served-llm"),
        arguments("--backend openai-chat --dataset-name hf --dataset-path "
            + "datasets/hf/mmvu_sample.parquet --hf-name yale-nlp/MMVU --hf-output-len 4 "
            + "--num-prompts 4 --label mmvu --request-rate 100", 4, "mmvu-100.0qps-served-llm"),
        arguments("--backend openai-chat --dataset-name hf --dataset-path "
            + "datasets/hf/mlperf_sample.parquet --hf-name mgoin/mlperf-inference-llama2-data "
            + "--hf-output-len 4 --num-prompts 4 --request-rate 100", 4,
            "openai-chat-100.0qps-served-llm"));
  }

  @ParameterizedTest(name = "{2}: {0}")
  @MethodSource("commandLines")
  void commandLineRunsGreenAndWritesVllmsFileName(String line, int requests, String name)
      throws IOException {
    String args = COMMON + line;
    BenchPlan plan = BenchPlan.of(BenchArgs.parse(CommandLine.split(args)));
    try (Simulator sim = fastSimulator()) {
      // as in vLLM 0.29, random and prefix_repetition prompts are re-aligned through the
      // server's /tokenize: their lengths are the simulator's
      String dataset = plan.dataset().name();
      Tokenizer sampler = dataset.equals("random") || dataset.equals("prefix_repetition")
          ? gpt2.realignedBy(Tokenizer.fromServer(sim.baseUrl(), "served-llm", Map.of(), false))
          : gpt2;
      Samples samples = plan.dataset().sample(sampler);
      assertEquals(requests, samples.size());
      Run run = bench(args + " --base-url " + sim.baseUrl());

      assertEquals(0, run.result().exitCode(), run.console());
      assertTrue(Files.exists(run.result().file("index.html")), "Gatling's report");
      String file = run.resultFile().getFileName().toString();
      assertTrue(Pattern.matches(Pattern.quote(name) + DATE, file), file);
      JsonNode doc = run.json();
      assertEquals(requests, doc.get("completed").asInt());
      assertEquals(0, doc.get("failed").asInt());
      assertEquals(requests, doc.get("num_prompts").asInt());
      assertEquals("served-llm", doc.get("model_id").asText());
      assertEquals("datasets/tokenizers/gpt2", doc.get("tokenizer_id").asText());
      if (plan.backend().pooling()) {
        // vLLM counts the server's prompt tokens for pooling, and reports only E2EL
        assertTrue(doc.get("total_input_tokens").asLong() > 0, doc.toString());
        assertTrue(doc.has("mean_e2el_ms") && !doc.has("mean_ttft_ms")
            && !doc.has("total_output_tokens"), "the pooling metric set: " + doc);
      } else {
        assertEquals(samples.totalPromptTokens(), doc.get("total_input_tokens").asLong());
        assertTrue(doc.has("mean_ttft_ms") && doc.has("total_output_tokens"), doc.toString());
      }
      assertEquals(plan.backend().name(), doc.get("backend").asText());
      // the ready check's test request, then the run's; no warm-up by default (vLLM's 0)
      assertEquals(requests + 1, sim.requestsReceived());
      assertTrue(run.console().contains("Initial test run completed. Starting main benchmark "
          + "run..."), run.console());
    }
  }

  @Test
  void goodputBurstinessAndPercentileFlagsReachTheResult() throws IOException {
    try (Simulator sim = fastSimulator()) {
      Run run = bench(COMMON + "--random-input-len 32 --random-output-len 4 --num-prompts 8 "
          + "--request-rate 80 --burstiness 0.5 --goodput ttft:5000 tpot:1000 "
          + "--percentile-metrics ttft,e2el --metric-percentiles 50,99.9 --base-url "
          + sim.baseUrl());
      JsonNode doc = run.json();
      assertEquals(0.5, doc.get("burstiness").asDouble());
      assertEquals(doc.get("request_throughput").asDouble(),
          doc.get("request_goodput").asDouble(), 1e-9, "every request met the loose SLOs");
      assertTrue(doc.has("p99.9_e2el_ms") && doc.has("p50_ttft_ms"), doc.toString());
      assertFalse(doc.has("mean_itl_ms"), "itl was not selected");
      assertTrue(run.console().contains("Burstiness factor: 0.5 (Gamma distribution)"));
    }
  }

  @Test
  void maxConcurrencyCapsTheRequestsInFlight() {
    try (Simulator sim = fastSimulator()) {
      Run run = bench(COMMON + "--random-input-len 32 --random-output-len 30 --num-prompts 12 "
          + "--request-rate inf --max-concurrency 3 --base-url " + sim.baseUrl());
      assertEquals(0, run.result().exitCode());
      assertEquals(3, sim.maxInFlight(), "all at once, three at a time");
    }
  }

  @Test
  void withoutWarmUpsTheClientWarmsUpAgainstAStandInAndTheServerSeesOnlyTheRun() {
    Logger logger = (Logger) LoggerFactory.getLogger("dev.gatlingllm.internal.protocol");
    ListAppender<ILoggingEvent> lines = new ListAppender<>();
    lines.start();
    logger.addAppender(lines);
    // the default of a user's run (the build turns it off for the other tests' speed)
    String before = System.getProperty("llm.standInWarmUp");
    System.clearProperty("llm.standInWarmUp");
    try (Simulator sim = fastSimulator()) {
      Run run = bench(COMMON + "--random-input-len 32 --random-output-len 4 --num-prompts 6 "
          + "--max-concurrency 3 --base-url " + sim.baseUrl());
      assertEquals(0, run.result().exitCode());
      // ready check + 6 measured: the warm-up's requests went to the stand-in
      assertEquals(1 + 6, sim.requestsReceived());
      List<String> warmUps = lines.list.stream().map(ILoggingEvent::getFormattedMessage)
          .filter(m -> m.startsWith("warm-up: ")).toList();
      assertEquals(2, warmUps.size(), warmUps.toString());
      assertTrue(warmUps.get(0).contains("to an in-process stand-in (nothing sent to "
          + sim.baseUrl() + ") at concurrency 3"), warmUps.get(0));
      // and the pool holds the run's connections, with no request sent on them
      assertTrue(warmUps.get(1).startsWith("warm-up: opened 3 of 3 connections to "
          + sim.baseUrl()), warmUps.get(1));
    } finally {
      if (before != null) {
        System.setProperty("llm.standInWarmUp", before);
      }
      logger.detachAppender(lines);
    }
  }

  @Test
  void theStandInWarmUpCanBeTurnedOffForVllmsColdFirstWave() {
    Logger logger = (Logger) LoggerFactory.getLogger("dev.gatlingllm.internal.protocol");
    ListAppender<ILoggingEvent> lines = new ListAppender<>();
    lines.start();
    logger.addAppender(lines);
    String before = System.getProperty("llm.standInWarmUp");
    System.setProperty("llm.standInWarmUp", "false");
    try (Simulator sim = fastSimulator()) {
      Run run = bench(COMMON + "--random-input-len 32 --random-output-len 4 --num-prompts 4 "
          + "--max-concurrency 2 --base-url " + sim.baseUrl());
      assertEquals(0, run.result().exitCode());
      List<String> warmUps = lines.list.stream().map(ILoggingEvent::getFormattedMessage)
          .filter(m -> m.startsWith("warm-up: ")).toList();
      assertEquals(List.of("warm-up: none (-Dllm.standInWarmUp=false): the run's first "
          + "requests meet a cold client and open their own connections"), warmUps);
    } finally {
      if (before == null) {
        System.clearProperty("llm.standInWarmUp");
      }
      logger.detachAppender(lines);
    }
  }

  @Test
  void numWarmupsSendsThatManyWarmUpRequestsAfterThePluginsProbe() {
    try (Simulator sim = fastSimulator()) {
      Run run = bench(COMMON + "--random-input-len 32 --random-output-len 4 --num-prompts 6 "
          + "--num-warmups 4 --base-url " + sim.baseUrl());
      assertEquals(0, run.result().exitCode());
      // ready check + probe + 4 warm-ups + 6 measured
      assertEquals(1 + 1 + 4 + 6, sim.requestsReceived());
    }
  }

  @Test
  void profileStartsTheProfilerBeforeTheRunAndStopsItAfter() throws IOException {
    try (RecordingLlmServer server = new RecordingLlmServer()) {
      Run run = bench(COMMON + "--random-input-len 32 --random-output-len 4 --num-prompts 5 "
          + "--profile --base-url " + server.baseUrl());
      assertEquals(0, run.result().exitCode());
      List<String> paths = server.received().stream()
          .map(RecordingLlmServer.Received::path).toList();
      // the re-alignment probe comes first, before sampling (this server has no /tokenize)
      assertEquals(List.of("/tokenize", "/v1/completions", "/start_profile", "/v1/completions",
          "/v1/completions", "/v1/completions", "/v1/completions", "/v1/completions",
          "/stop_profile"), paths, "tokenize probe, ready check, start, the 5 requests, stop");
      // vLLM's completions body with no sampling flag (logprobs: null is left out, same meaning)
      for (RecordingLlmServer.Received r : server.received()) {
        if (r.path().equals("/v1/completions")) {
          // vLLM 0.29: no temperature unless given, ignore_eos forced with random
          assertEquals(new TreeSet<>(List.of("model", "prompt", "repetition_penalty",
              "max_tokens", "ignore_eos", "stream", "stream_options")), fields(r.body()));
          assertEquals(1.0, r.body().get("repetition_penalty").asDouble());
          assertTrue(r.body().get("ignore_eos").asBoolean());
        }
      }
      assertTrue(run.console().contains("Profiler started"));
      assertTrue(run.console().contains("Profiler stopped"));
      assertEquals(5, run.json().get("completed").asInt());
    }
  }

  @Test
  void completionsRequestsCarryExactlyTheFieldsAndHeadersVllmSends() {
    try (RecordingLlmServer server = new RecordingLlmServer()) {
      Run run = bench(COMMON + "--backend vllm --random-input-len 32 --random-output-len 5 "
          + "--num-prompts 4 --ignore-eos --temperature 0.5 --top-p 0.9 --top-k 20 "
          + "--min-p 0.1 --frequency-penalty 0.1 --presence-penalty 0.2 "
          + "--repetition-penalty 1.1 --logprobs 2 --served-model-name served "
          + "--header x-a=1 --header 'x-b=two words' --request-id-prefix rq- --base-url "
          + server.baseUrl());
      assertEquals(0, run.result().exitCode(), run.console());
      List<RecordingLlmServer.Received> got = generations(server);
      assertEquals(5, got.size(), "ready check + 4");
      Set<String> ids = new TreeSet<>();
      for (RecordingLlmServer.Received r : got) {
        assertEquals("POST", r.method());
        assertEquals("/v1/completions", r.path());
        JsonNode b = r.body();
        assertEquals(new TreeSet<>(List.of("model", "prompt", "max_tokens", "logprobs",
            "temperature", "top_p", "top_k", "min_p", "frequency_penalty", "presence_penalty",
            "repetition_penalty", "ignore_eos", "stream", "stream_options")), fields(b));
        assertEquals("served", b.get("model").asText());
        assertEquals(5, b.get("max_tokens").asInt());
        assertEquals(2, b.get("logprobs").asInt());
        assertEquals(0.5, b.get("temperature").asDouble());
        assertEquals(0.9, b.get("top_p").asDouble());
        assertEquals(20, b.get("top_k").asInt());
        assertEquals(0.1, b.get("min_p").asDouble());
        assertEquals(0.1, b.get("frequency_penalty").asDouble());
        assertEquals(0.2, b.get("presence_penalty").asDouble());
        assertEquals(1.1, b.get("repetition_penalty").asDouble());
        assertTrue(b.get("ignore_eos").asBoolean());
        assertTrue(b.get("stream").asBoolean());
        assertEquals("{\"include_usage\":true}", b.get("stream_options").toString());
        assertEquals(32, gpt2.count(b.get("prompt").asText()));
        assertEquals("1", r.header("x-a"));
        assertEquals("two words", r.header("x-b"));
        assertEquals("application/json", r.header("content-type"));
        if (r.header("x-request-id") != null) {
          ids.add(r.header("x-request-id"));
        }
      }
      assertNull(got.get(0).header("x-request-id"), "vLLM's test request carries no id");
      assertEquals(Set.of("rq-0", "rq-1", "rq-2", "rq-3"), ids, "the dataset's ids");
      // the test request is the first prompt, sent as the run sends it
      assertTrue(got.subList(1, got.size()).stream()
          .anyMatch(r -> r.body().equals(got.get(0).body())), "test request = a run request");
    }
  }

  @Test
  void chatRequestsSendThePromptAsOneTextPartWithVllmsDefaults() throws IOException {
    try (RecordingLlmServer server = new RecordingLlmServer()) {
      Run run = bench(COMMON + "--backend openai-chat --random-input-len 32 "
          + "--random-output-len 3 --num-prompts 3 --base-url " + server.baseUrl());
      assertEquals(0, run.result().exitCode(), run.console());
      assertEquals(4, generations(server).size());
      for (RecordingLlmServer.Received r : generations(server)) {
        assertEquals("/v1/chat/completions", r.path());
        JsonNode b = r.body();
        // vLLM 0.29: no temperature unless given; ignore_eos forced with the random dataset
        assertEquals(new TreeSet<>(List.of("model", "messages", "max_completion_tokens",
            "ignore_eos", "stream", "stream_options")), fields(b));
        assertEquals("served-llm", b.get("model").asText());
        assertTrue(b.get("ignore_eos").asBoolean());
        assertEquals(3, b.get("max_completion_tokens").asInt());
        JsonNode messages = b.get("messages");
        assertEquals(1, messages.size());
        assertEquals("user", messages.get(0).get("role").asText());
        JsonNode content = messages.get(0).get("content");
        assertEquals(1, content.size());
        assertEquals("text", content.get(0).get("type").asText());
        assertEquals(32, gpt2.count(content.get(0).get("text").asText()));
      }
      JsonNode doc = run.json();
      assertEquals("openai-chat", doc.get("backend").asText());
      assertEquals("openai-chat", doc.get("endpoint_type").asText());
    }
  }

  private static Simulator recordingSimulator() {
    return Simulator.start(StrictServer.builder().ttft(Duration.ofMillis(5))
        .itl(Duration.ofMillis(1)).jitter(0).recordRequests(true).build());
  }

  private static JsonNode json(RecordedRequest r) {
    try {
      return JSON.readTree(r.body());
    } catch (IOException e) {
      throw new AssertionError(r.bodyText(), e);
    }
  }

  @Test
  void embeddingsRequestsCarryExactlyTheFieldsVllmSends() throws IOException {
    try (Simulator sim = recordingSimulator()) {
      // sampling flags are not sent with pooling backends, ignore_eos is (as vLLM)
      Run run = bench(COMMON + "--backend openai-embeddings --random-input-len 24 "
          + "--num-prompts 4 --ignore-eos --temperature 0.5 "
          + "--header x-a=1 --request-id-prefix rq- --base-url " + sim.baseUrl());
      assertEquals(0, run.result().exitCode(), run.console());
      assertTrue(run.console().contains("Not sent with --backend openai-embeddings, as vLLM "
          + "does not: --temperature"), run.console());
      List<RecordedRequest> got = StrictServer.runRequests(sim).stream()
          .filter(r -> !isTokenizeCall(r.path())).toList();
      assertEquals(5, got.size(), "ready check + 4");
      Set<String> ids = new TreeSet<>();
      for (RecordedRequest r : got) {
        assertEquals("/v1/embeddings", r.path());
        assertEquals("application/json", r.header("content-type"));
        assertEquals("1", r.header("x-a"));
        JsonNode b = json(r);
        assertEquals(new TreeSet<>(List.of("model", "input", "truncate_prompt_tokens",
            "ignore_eos")), fields(b));
        assertEquals("served-llm", b.get("model").asText());
        // re-aligned through the simulator's /tokenize: 24 of its tokens (whitespace words)
        assertEquals(24, SimTokens.countPromptTokens(b.get("input").asText()));
        assertEquals(-1, b.get("truncate_prompt_tokens").asInt());
        assertTrue(b.get("ignore_eos").asBoolean());
        if (r.header("x-request-id") != null) {
          ids.add(r.header("x-request-id"));
        }
      }
      assertNull(got.get(0).header("x-request-id"), "vLLM's test request carries no id");
      assertEquals(Set.of("rq-0", "rq-1", "rq-2", "rq-3"), ids);
      assertTrue(got.subList(1, got.size()).stream()
          .anyMatch(r -> json(r).equals(json(got.get(0)))), "test request = a run request");
      JsonNode doc = run.json();
      assertEquals("openai-embeddings", doc.get("endpoint_type").asText());
      assertTrue(doc.has("p99_e2el_ms") && !doc.has("mean_ttft_ms"), doc.toString());
    }
  }

  @Test
  void vlm2vecEmbeddingsSendTheImageFirstWithVlm2vecsInstruction() throws IOException {
    try (Simulator sim = recordingSimulator()) {
      Run run = bench(COMMON + "--backend openai-embeddings-vlm2vec --dataset-name hf "
          + "--dataset-path datasets/hf/mmstar_sample.parquet --num-prompts 4 --base-url "
          + sim.baseUrl());
      assertEquals(0, run.result().exitCode(), run.console());
      List<RecordedRequest> got = StrictServer.runRequests(sim);
      assertEquals(5, got.size());
      for (RecordedRequest r : got) {
        JsonNode b = json(r);
        assertEquals(new TreeSet<>(List.of("model", "messages", "truncate_prompt_tokens")),
            fields(b));
        JsonNode content = b.get("messages").get(0).get("content");
        assertEquals(2, content.size());
        assertEquals("image_url", content.get(0).get("type").asText());
        assertTrue(content.get(0).get("image_url").get("url").asText()
            .startsWith("data:image/"), "the row's image, inline");
        assertEquals("text", content.get(1).get("type").asText());
        String id = r.header("x-request-id");
        String text = content.get(1).get("text").asText();
        if (id == null || (id.charAt(id.length() - 1) - '0') % 2 == 0) {
          assertEquals("Represent the given image.", text, id);
        } else {
          assertTrue(text.startsWith("Represent the given image with the following question: ")
              && text.length() > 60, text);
        }
      }
    }
  }

  @Test
  void rerankRequestsCarryTheQueryAndItsDocumentsAsVllmSendsThem() throws IOException {
    try (Simulator sim = recordingSimulator()) {
      Run run = bench(COMMON + "--backend vllm-rerank --dataset-name random-rerank "
          + "--random-input-len 24 --random-batch-size 3 --num-prompts 6 --ignore-eos "
          + "--base-url " + sim.baseUrl());
      assertEquals(0, run.result().exitCode(), run.console());
      List<RecordedRequest> got = StrictServer.runRequests(sim);
      assertEquals(3, got.size(), "ready check + 6 documents in requests of 3");
      for (RecordedRequest r : got) {
        assertEquals("/v1/rerank", r.path());
        JsonNode b = json(r);
        // vLLM's rerank request has no ignore_eos and no extra body
        assertEquals(new TreeSet<>(List.of("model", "query", "documents",
            "truncate_prompt_tokens")), fields(b));
        assertEquals("served-llm", b.get("model").asText());
        assertTrue(b.get("query").isTextual() && !b.get("query").asText().isEmpty());
        assertEquals(3, b.get("documents").size());
        assertEquals(-1, b.get("truncate_prompt_tokens").asInt());
      }
      assertEquals(2, run.json().get("completed").asInt());
    }
  }

  @Test
  void audioRequestsUploadTheClipWithVllmsFormFields() throws IOException {
    try (Simulator sim = recordingSimulator()) {
      Run run = bench(COMMON + "--backend openai-audio --dataset-name hf --dataset-path "
          + "datasets/hf/asr_sample.parquet --hf-output-len 4 --num-prompts 3 --ignore-eos "
          + "--base-url " + sim.baseUrl());
      assertEquals(0, run.result().exitCode(), run.console());
      List<RecordedRequest> got = StrictServer.runRequests(sim);
      assertEquals(4, got.size());
      for (RecordedRequest r : got) {
        assertEquals("/v1/audio/transcriptions", r.path());
        String type = r.header("content-type");
        assertTrue(type.startsWith("multipart/form-data; boundary="), type);
        Map<String, String> form = formFields(r.body(), type.substring(type.indexOf('=') + 1));
        // vLLM's payload in its order, then _update_payload_common: ignore_eos, extra body
        assertEquals(List.of("file", "model", "max_completion_tokens", "stream", "language",
            "stream_include_usage", "stream_continuous_usage_stats", "ignore_eos",
            "temperature"), List.copyOf(form.keySet()));
        assertTrue(form.get("file").startsWith("RIFF"), "a WAV file");
        assertEquals("served-llm", form.get("model"));
        assertEquals("4", form.get("max_completion_tokens"));
        assertEquals("True", form.get("stream"));
        assertEquals("en", form.get("language"));
        assertEquals("True", form.get("stream_include_usage"));
        assertEquals("True", form.get("stream_continuous_usage_stats"));
        assertEquals("True", form.get("ignore_eos"));
        assertEquals("0.0", form.get("temperature"));
      }
      JsonNode doc = run.json();
      assertEquals(3, doc.get("completed").asInt());
      assertEquals(12, doc.get("total_output_tokens").asInt());
    }
  }

  @Test
  void randomMmChatRequestsSendTheTextPartThenTheImages() throws IOException {
    try (Simulator sim = recordingSimulator()) {
      Run run = bench(COMMON + "--backend openai-chat --dataset-name random-mm "
          + "--random-input-len 12 --random-output-len 3 --random-mm-base-items-per-request 2 "
          + "--random-mm-bucket-config '{(16, 24, 1): 1.0}' --num-prompts 3 --base-url "
          + sim.baseUrl());
      assertEquals(0, run.result().exitCode(), run.console());
      for (RecordedRequest r : StrictServer.runRequests(sim)) {
        assertEquals("/v1/chat/completions", r.path());
        JsonNode b = json(r);
        assertEquals(new TreeSet<>(List.of("model", "messages", "max_completion_tokens",
            "ignore_eos", "stream", "stream_options")), fields(b));
        JsonNode content = b.get("messages").get(0).get("content");
        assertEquals(3, content.size(), content.toString());
        assertEquals("text", content.get(0).get("type").asText());
        assertEquals(12, gpt2.count(content.get(0).get("text").asText()));
        for (int i = 1; i < 3; i++) {
          assertEquals("image_url", content.get(i).get("type").asText());
          assertTrue(content.get(i).get("image_url").get("url").asText()
              .startsWith("data:image/jpeg;base64,"));
        }
      }
    }
  }

  /** The parts of a multipart form, by name in order; file contents as ISO-8859-1 text. */
  private static Map<String, String> formFields(byte[] body, String boundary) {
    String text = new String(body, StandardCharsets.ISO_8859_1);
    Map<String, String> fields = new java.util.LinkedHashMap<>();
    for (String part : text.split("--" + Pattern.quote(boundary))) {
      int name = part.indexOf("name=\"");
      if (name < 0) {
        continue;
      }
      String key = part.substring(name + 6, part.indexOf('"', name + 6));
      int start = part.indexOf("\r\n\r\n") + 4;
      fields.put(key, part.substring(start, part.length() - 2));
    }
    return fields;
  }

  @Test
  void loraModulesAreDrawnPerRequestWithTheSeedAndSentAsTheModel() throws IOException {
    Map<String, Integer> first;
    try (RecordingLlmServer server = new RecordingLlmServer()) {
      Run run = bench(COMMON + "--random-input-len 16 --random-output-len 2 --num-prompts 20 "
          + "--request-rate inf --max-concurrency 1 --lora-modules ada bob cyd --base-url "
          + server.baseUrl());
      assertEquals(0, run.result().exitCode(), run.console());
      first = modelsById(server);
      assertEquals(Set.of("ada", "bob", "cyd"), new TreeSet<>(first.values().stream()
          .map(i -> List.of("ada", "bob", "cyd").get(i)).toList()), "every module is used");
      assertEquals("served-llm", run.json().get("model_id").asText(), "the file names --model");
    }
    try (RecordingLlmServer server = new RecordingLlmServer()) {
      bench(COMMON + "--random-input-len 16 --random-output-len 2 --num-prompts 20 "
          + "--request-rate inf --max-concurrency 1 --lora-modules ada bob cyd --base-url "
          + server.baseUrl());
      assertEquals(first, modelsById(server), "the same seed picks the same modules");
    }
  }

  /** Module index by request id. */
  private static Map<String, Integer> modelsById(RecordingLlmServer server) {
    Map<String, Integer> out = new HashMap<>();
    for (RecordingLlmServer.Received r : server.received()) {
      String id = r.header("x-request-id");
      if (id != null) {
        out.put(id, List.of("ada", "bob", "cyd").indexOf(r.body().get("model").asText()));
      }
    }
    assertEquals(20, out.size());
    assertFalse(out.containsValue(-1), "only the given modules: " + out);
    return out;
  }

  @Test
  void resultOptionsWriteWhereAndWhatVllmWould() throws IOException {
    Path dir = results.resolve("custom-dir");
    String args = "--model org/served-llm --tokenizer datasets/tokenizers/gpt2 "
        + "--random-input-len 16 --random-output-len 2 --num-prompts 4 --label nightly "
        + "--result-dir " + dir + " --result-filename 'two runs.json' --append-result "
        + "--save-detailed --metadata tp=1 'note=two words' --served-model-name served-llm";
    try (Simulator sim = fastSimulator()) {
      assertEquals(0, bench(args + " --base-url " + sim.baseUrl()).result().exitCode());
      assertEquals(0, bench(args + " --base-url " + sim.baseUrl()).result().exitCode());
    }
    List<String> lines = Files.readAllLines(dir.resolve("two runs.json"));
    assertEquals(2, lines.size(), "appended, one JSON per line");
    JsonNode doc = JSON.readTree(lines.get(1));
    assertEquals("nightly", doc.get("label").asText());
    assertEquals("org/served-llm", doc.get("model_id").asText());
    assertEquals("1", doc.get("tp").asText());
    assertEquals("two words", doc.get("note").asText());
    assertEquals(4, doc.get("ttfts").size(), "detailed arrays");
    assertEquals(4, doc.get("generated_texts").size());
  }

  @Test
  void readyCheckWaitsForAServerThatComesUpLate() throws Exception {
    int port;
    try (ServerSocket probe = new ServerSocket(0)) {
      port = probe.getLocalPort();
    }
    RecordingLlmServer[] late = new RecordingLlmServer[1];
    Thread starter = new Thread(() -> {
      try {
        Thread.sleep(1500);
        late[0] = new RecordingLlmServer(port);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    starter.start();
    try {
      Run run = bench(COMMON + "--random-input-len 16 --random-output-len 2 --num-prompts 3 "
          + "--ready-check-timeout-sec 60 --port " + port);
      assertEquals(0, run.result().exitCode(), run.console());
      assertTrue(run.console().contains("Endpoint not ready (connect failed"), run.console());
      assertTrue(run.console().contains("Initial test run completed"), run.console());
      assertEquals(3, run.json().get("completed").asInt());
    } finally {
      starter.join();
      if (late[0] != null) {
        late[0].close();
      }
    }
  }

  @Test
  void readyCheckFailsClearlyWithoutHangingWhenTheServerNeverComesUp() throws Exception {
    int port;
    try (ServerSocket probe = new ServerSocket(0)) {
      port = probe.getLocalPort();
    }
    long start = System.nanoTime();
    Run run = bench(COMMON + "--random-input-len 16 --random-output-len 2 --num-prompts 3 "
        + "--ready-check-timeout-sec 2 --base-url http://127.0.0.1:" + port);
    double seconds = (System.nanoTime() - start) / 1e9;
    assertNotEquals(0, run.result().exitCode(), "the build fails");
    assertTrue(seconds < 30, "gave up after the 2 s timeout, took " + seconds + " s");
    assertTrue(run.console().contains("was not ready within 2 s"), run.console());
    assertTrue(Files.exists(run.result().file("index.html")), "Gatling's report is written");
    String log = Files.readString(run.result().file("simulation.log"), StandardCharsets.ISO_8859_1);
    assertTrue(log.contains("ready check"), "the KO row names the ready check");
    JsonNode doc = run.json();
    assertEquals(0, doc.get("completed").asInt(), "the (empty) result is written too");
  }

  @Test
  void aMisspeltFlagStopsTheRunBeforeAnyRequestWithTheNearestFlag() {
    try (Simulator sim = fastSimulator()) {
      // in-process Gatling rethrows what the simulation threw; the forked JVM exits non-zero
      Throwable e = rootCause(assertThrows(Exception.class,
          () -> bench(COMMON + "--num-prompt 3 --base-url " + sim.baseUrl())));
      assertTrue(e instanceof IllegalArgumentException, e.toString());
      assertEquals("unknown flag --num-prompt; did you mean --num-prompts? "
          + "(-Dllm.args=--help lists every flag)", e.getMessage());
      assertEquals(0, sim.requestsReceived());
    }
  }

  @Test
  void helpPrintsTheFlagTableAndRunsNothing() {
    PrintStream original = System.out;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
    Throwable e;
    try {
      // in the JVM gatling:test forks, the simulation exits with status 0 after printing
      e = rootCause(assertThrows(Exception.class, () -> bench("--help")));
    } finally {
      System.setOut(original);
    }
    assertEquals("--help: the flags were printed; nothing to run", e.getMessage());
    // picocli's help from the flag table, its lines wrapped
    String help = printed.toString(StandardCharsets.UTF_8).replaceAll("\\s+", " ");
    assertTrue(help.contains("--ready-check-timeout-sec=READY_CHECK_TIMEOUT_SEC"), help);
    assertTrue(help.contains("refused: tokenizers here are tokenizer.json"), help);
  }

  private static Throwable rootCause(Throwable t) {
    while (t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }

  private static Set<String> fields(JsonNode body) {
    Set<String> names = new TreeSet<>();
    body.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
