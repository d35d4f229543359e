package dev.gatlingllm.launcher;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.internal.protocol.RunResults;
import dev.gatlingllm.sim.RecordedRequest;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import dev.gatlingllm.tokenizer.Tokenizer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * vllm-bench's and vLLM 0.29's flags that were refused before ({@code --prompt-token-ids},
 * {@code --hf-text-column}, {@code --profile-batch-threshold} / {@code --profile-duration},
 * {@code --enable-multimodal-chat}) run as pasted against the embedded simulator, through
 * {@code gatling-llm bench serve}; what reached the simulator is checked request by request.
 */
class DropInVllmBenchFlagsIntegrationTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  /** What one run left: its result JSON and the measured requests the simulator received. */
  private record Run(JsonNode result, List<JsonNode> bodies, List<String> profilerCalls) {}

  private Run run(SimulatorConfig.Builder config, String... flags) throws Exception {
    // a folder per run: the run folder is the only one in it
    Path results = Files.createTempDirectory(dir, "results");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status;
    List<JsonNode> bodies = new ArrayList<>();
    List<String> profilerCalls;
    try (Simulator sim = Simulator.start(config.recordRequests(true).build())) {
      List<String> words = new ArrayList<>(List.of("bench", "serve", "--base-url",
          sim.baseUrl(), "--model", "served-llm", "--tokenizer", "gpt2",
          "--request-id-prefix", "run-", "--save-result", "--result-filename", "result.json"));
      words.addAll(List.of(flags));
      System.setProperty(RunResults.RESULTS_FOLDER_PROPERTY, results.toString());
      try {
        status = GatlingLlm.run(words.toArray(String[]::new), System.out,
            new PrintStream(err, true, StandardCharsets.UTF_8));
      } finally {
        System.clearProperty(RunResults.RESULTS_FOLDER_PROPERTY);
      }
      for (RecordedRequest r : sim.recordedRequests()) {
        // the run's own requests carry the dataset's ids, the plugin's probe does not
        String id = r.header("x-request-id");
        if (id != null && id.startsWith("run-")) {
          bodies.add(JSON.readTree(r.bodyText()));
        }
      }
      profilerCalls = sim.profilerCalls();
    }
    assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
    return new Run(JSON.readTree(resultFile(results).toFile()), bodies, profilerCalls);
  }

  private static Path resultFile(Path results) throws IOException {
    try (Stream<Path> folders = Files.list(results)) {
      Path run = folders.filter(p -> p.getFileName().toString().startsWith("benchserve-"))
          .findFirst().orElseThrow();
      return run.resolve("result.json");
    }
  }

  private static SimulatorConfig.Builder fast() {
    return StrictServer.builder().ttft(Duration.ofMillis(5)).itl(Duration.ofMillis(1))
        .jitter(0);
  }

  @Test
  void promptTokenIdsSendsEachPromptAsItsTokenIdsOfTheExactInputLength() throws Exception {
    Run run = run(fast(), "--dataset-name", "random", "--random-input-len", "24",
        "--random-output-len", "3", "--num-prompts", "5", "--seed", "2", "--prompt-token-ids");
    assertEquals(5, run.result().get("completed").asInt(), run.result().toString());
    assertEquals(5, run.bodies().size());
    try (Tokenizer gpt2 = Tokenizer.gpt2()) {
      for (JsonNode body : run.bodies()) {
        JsonNode prompt = body.get("prompt");
        assertTrue(prompt.isArray(), "token ids, not text: " + prompt);
        // GPT-2 adds no special token: the random dataset's 24 tokens are 24 ids
        assertEquals(24, prompt.size());
        int[] ids = new int[prompt.size()];
        for (int i = 0; i < ids.length; i++) {
          assertTrue(prompt.get(i).isInt() && prompt.get(i).asInt() >= 0
              && prompt.get(i).asInt() < gpt2.vocabSize(), "an id of GPT-2: " + prompt.get(i));
          ids[i] = prompt.get(i).asInt();
        }
        // the ids are the encoding of a text that encodes to them again
        assertEquals(24, gpt2.encode(gpt2.decode(ids)).length);
      }
    }
    // the simulator counts an id prompt one token per id, the result the dataset's 24 each
    assertEquals(5 * 24, run.result().get("total_input_tokens").asInt());
  }

  @Test
  void hfTextColumnReadsThePromptFromThatColumnOfAnyDataset() throws Exception {
    Path file = dir.resolve("questions.jsonl");
    String[] questions = {"Why is the sky blue on a clear summer day?",
        "Name three rivers that flow through more than two countries.",
        "How does a bicycle stay upright while it moves?"};
    String[] answers = {"Rayleigh scattering of sunlight by air.", "Danube, Rhine, Nile.",
        "Steering and the wheels' motion keep it balanced."};
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < questions.length; i++) {
      lines.append(JSON.writeValueAsString(java.util.Map.of("id", i, "my_question",
          questions[i], "answer", answers[i]))).append('\n');
    }
    Files.writeString(file, lines.toString());
    Run run = run(fast(), "--dataset-name", "hf", "--dataset-path", file.toString(),
        "--hf-text-column", "my_question", "--num-prompts", "3", "--disable-shuffle",
        "--seed", "1");
    assertEquals(3, run.result().get("completed").asInt(), run.result().toString());
    assertEquals(3, run.bodies().size());
    List<String> sent = new ArrayList<>();
    try (Tokenizer gpt2 = Tokenizer.gpt2()) {
      for (JsonNode body : run.bodies()) {
        int q = List.of(questions).indexOf(body.get("prompt").asText());
        assertTrue(q >= 0, "a question of the column: " + body.get("prompt"));
        // the output length is the answer column's token count
        assertEquals(gpt2.count(answers[q]), body.get("max_tokens").asInt());
        sent.add(questions[q]);
      }
    }
    assertEquals(List.of(questions), sent.stream().sorted(
        java.util.Comparator.comparingInt(List.of(questions)::indexOf)).toList(),
        "each question once");
  }

  @Test
  void profileBatchThresholdStartsTheProfilerOnlyOnceTheServerRunsThatManyRequests()
      throws Exception {
    // 4 requests at a time, each ~0.4 s: the server runs 4 for most of the run
    SimulatorConfig.Builder slow = StrictServer.builder().ttft(Duration.ofMillis(100))
        .itl(Duration.ofMillis(30)).jitter(0);
    Run reached = run(slow, "--dataset-name", "random", "--random-input-len", "16",
        "--random-output-len", "10", "--num-prompts", "24", "--max-concurrency", "4",
        "--profile", "--profile-batch-threshold", "3", "--profile-duration", "0.5");
    assertEquals(24, reached.result().get("completed").asInt());
    assertEquals(List.of("/start_profile", "/stop_profile"), reached.profilerCalls());

    // a batch the run never reaches: no profiler call at all (--profile alone makes two)
    Run never = run(fast(), "--dataset-name", "random", "--random-input-len", "16",
        "--random-output-len", "2", "--num-prompts", "4", "--max-concurrency", "1",
        "--profile", "--profile-batch-threshold", "50");
    assertEquals(4, never.result().get("completed").asInt());
    assertEquals(List.of(), never.profilerCalls());
  }

  @Test
  void enableMultimodalChatSendsEachImagePromptAsOneUserChatMessage() throws Exception {
    Run run = run(fast(), "--backend", "openai-chat", "--dataset-name", "custom_image",
        "--dataset-path", "datasets/custom_media/custom_image_sample.jsonl",
        "--enable-multimodal-chat", "--num-prompts", "3", "--custom-output-len", "4");
    assertEquals(3, run.result().get("completed").asInt(), run.result().toString());
    assertEquals(3, run.bodies().size());
    for (JsonNode body : run.bodies()) {
      JsonNode messages = body.get("messages");
      assertEquals(1, messages.size(), "one message: " + messages);
      assertEquals("user", messages.get(0).get("role").asText());
      JsonNode content = messages.get(0).get("content");
      assertEquals("text", content.get(0).get("type").asText());
      assertEquals("image_url", content.get(1).get("type").asText());
      // the image as the dataset gives it (a file URL unless --custom-ensure-client-side-data)
      String url = content.get(1).get("image_url").get("url").asText();
      assertTrue(url.endsWith("red.png") || url.endsWith("blue.png"), url);
    }
  }
}
