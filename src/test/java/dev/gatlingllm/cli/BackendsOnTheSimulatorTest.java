package dev.gatlingllm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.action.Backends;
import dev.gatlingllm.action.Backends.Backend;
import dev.gatlingllm.action.RequestPreview;
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
import java.util.List;
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
        assertEquals(backend.defaultEndpoint(), test.path(), name);
        assertEquals(backend.pooling(), test.pooling(), name);
        ReadyCheck.Outcome outcome = ReadyCheck.await(plan.baseUrl(), new DefaultHttpHeaders(),
            test, Duration.ofSeconds(20), Duration.ofMillis(100), false,
            new PrintStream(OutputStream.nullOutputStream()));
        assertTrue(outcome.ready(), name + " with " + content + ": " + outcome.lastError());
        assertEquals(1, outcome.attempts(), name + " with " + content);
        sent.add(name + "/" + content);
      }
    }
    // 6 completions backends (text), chat and 7 embeddings backends (text and images),
    // Responses (text), audio, rerank
    assertEquals(6 + 2 * 8 + 1 + 1 + 1, sent.size(), sent.toString());
  }
}
