package dev.gatlingllm.internal.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.action.Backends.Backend;
import dev.gatlingllm.action.Backends;
import dev.gatlingllm.internal.action.RequestPreview;
import dev.gatlingllm.dataset.DatasetContent;
import dev.gatlingllm.dataset.Samples;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import dev.gatlingllm.tokenizer.Tokenizer;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every served backend of the {@link Backends} table, end to end on the embedded simulator:
 * the drop-in's plan builds its test request from a dataset the backend accepts, and the
 * ready check gets the run's kind of success from the path the table gives it. A backend
 * added to the table without the simulator serving it fails here.
 */
class BackendsOnTheSimulatorTest {

  private static Simulator sim;
  private static Tokenizer gpt2;

  @BeforeAll
  static void start() {
    sim = Simulator.start(SimulatorConfig.builder().model("org/tiny-llm")
        .ttft(Duration.ofMillis(1)).itl(Duration.ZERO).build());
    gpt2 = Tokenizer.gpt2();
  }

  @AfterAll
  static void stop() {
    sim.close();
    gpt2.close();
  }

  /** Dataset flags of each content a backend can send (local files: no download). */
  private static String datasetOf(DatasetContent content) {
    return switch (content) {
      case TEXT -> "--dataset-name random --random-input-len 16 --random-output-len 4";
      case VISUAL -> "--dataset-name hf --dataset-path datasets/hf/mmvu_sample.parquet "
          + "--hf-name yale-nlp/MMVU";
      case AUDIO -> "--dataset-name hf --dataset-path datasets/hf/asr_sample.parquet";
      case RERANK -> "--dataset-name random-rerank";
    };
  }

  /**
   * The path each backend's requests must go to, written out here from vLLM's defaults (not
   * read from the table under test): a wrong path in an API fails this test even where the
   * simulator would answer it.
   */
  private static final Map<String, String> PATHS = paths();
  /** The backends timed as one JSON body with the pooling metric set. */
  private static final Set<String> POOLING = Set.of("openai-embeddings",
      "openai-embeddings-chat", "openai-embeddings-clip", "openai-embeddings-vlm2vec",
      "infinity-embeddings", "infinity-embeddings-clip", "vllm-pooling", "vllm-rerank");

  private static Map<String, String> paths() {
    Map<String, String> p = new HashMap<>();
    for (String completions : List.of("vllm", "openai", "sglang", "lmdeploy", "scalellm",
        "llama.cpp")) {
      p.put(completions, "/v1/completions");
    }
    p.put("openai-chat", "/v1/chat/completions");
    p.put("openai-responses", "/v1/responses");
    p.put("anthropic-messages", "/v1/messages");
    p.put("openai-audio", "/v1/audio/transcriptions");
    for (String embeddings : List.of("openai-embeddings", "openai-embeddings-chat",
        "openai-embeddings-clip", "openai-embeddings-vlm2vec")) {
      p.put(embeddings, "/v1/embeddings");
    }
    p.put("infinity-embeddings", "/embeddings");
    p.put("infinity-embeddings-clip", "/embeddings");
    p.put("vllm-pooling", "/pooling");
    p.put("vllm-rerank", "/v1/rerank");
    return Map.copyOf(p);
  }

  @Test
  void everyServedBackendHasAnExpectedPathHere() {
    assertEquals(new TreeSet<>(PATHS.keySet()), new TreeSet<>(Backends.servedNames()),
        "a backend added to the table needs its expected path written in PATHS");
  }

  @Test
  void theSimulatorServesEveryServedBackendOnItsDefaultPath() {
    List<String> sent = new ArrayList<>();
    for (String name : Backends.servedNames()) {
      Backend backend = Backends.resolve(name);
      for (DatasetContent content : backend.accepts().contents()) {
        BenchPlan plan = BenchPlan.of(BenchArgs.parse(CommandLine.split("--model org/tiny-llm "
            + "--backend " + name + " --base-url " + sim.baseUrl() + " --num-prompts 1 "
            + datasetOf(content))));
        Samples samples = plan.dataset().sample(gpt2);
        plan.checkDataset(DatasetContent.of(samples));
        RequestPreview.Rendered test = TestRequest.of(plan, samples.requests().get(0));
        assertEquals(PATHS.get(name), test.path(), name);
        assertEquals(POOLING.contains(name), test.pooling(), name);
        ReadyCheck.Outcome outcome = ReadyCheck.await(plan.baseUrl(), new DefaultHttpHeaders(),
            test, Duration.ofSeconds(20), Duration.ofMillis(100), false,
            new PrintStream(OutputStream.nullOutputStream()));
        assertTrue(outcome.ready(), name + " with " + content + ": " + outcome.lastError());
        assertEquals(1, outcome.attempts(), name + " with " + content);
        sent.add(name + "/" + content);
      }
    }
    // 6 completions backends (text), chat and 7 embeddings backends (text and images),
    // Responses (text), Messages (text), audio, rerank
    assertEquals(6 + 2 * 8 + 1 + 1 + 1 + 1, sent.size(), sent.toString());
  }
}
