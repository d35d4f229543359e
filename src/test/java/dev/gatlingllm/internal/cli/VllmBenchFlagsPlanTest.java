package dev.gatlingllm.internal.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.internal.action.RequestPreview;
import dev.gatlingllm.internal.dataset.DatasetException;
import dev.gatlingllm.dataset.SampleRequest;
import dev.gatlingllm.dataset.Samples;
import dev.gatlingllm.internal.flags.BenchFlags;
import dev.gatlingllm.internal.flags.Flag;
import dev.gatlingllm.tokenizer.Tokenizer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The parsing and the checks of the flags that were refused before: {@code --prompt-token-ids},
 * {@code --hf-text-column}, {@code --profile-batch-threshold} / {@code --profile-duration} and
 * {@code --enable-multimodal-chat}: accepted where they apply, refused with vLLM's reason
 * elsewhere, before anything is sent.
 */
class VllmBenchFlagsPlanTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  private static BenchPlan plan(String line) {
    return BenchPlan.of(BenchArgs.parse(CommandLine.split("--model m " + line)));
  }

  private static String error(String line) {
    return assertThrows(IllegalArgumentException.class, () -> plan(line)).getMessage();
  }

  @Test
  void noneOfTheFlagsIsRefusedByTheTableAnyMore() {
    for (String flag : List.of("prompt-token-ids", "hf-text-column", "profile-batch-threshold",
        "profile-duration", "enable-multimodal-chat")) {
      assertFalse(BenchFlags.find("--" + flag).orElseThrow().support() == Flag.Support.REFUSED,
          flag);
    }
  }

  // --prompt-token-ids

  @Test
  void promptTokenIdsSendTheRecordsIdsAsTheCompletionsPrompt() throws Exception {
    BenchPlan plan = plan("--prompt-token-ids --random-input-len 8");
    RequestPreview.Rendered r = RequestPreview.render(plan.request(), Map.of("prompt", "hi",
        "prompt_len", 3, "output_len", 2, "request_id", "x-0",
        "prompt_token_ids", List.of(5, 0, 50256)), plan.requestModelName());
    JsonNode body = JSON.readTree(r.body());
    assertEquals("[5,0,50256]", body.get("prompt").toString());
  }

  @Test
  void withoutTheFlagThePromptIsTheText() throws Exception {
    BenchPlan plan = plan("--random-input-len 8");
    RequestPreview.Rendered r = RequestPreview.render(plan.request(), Map.of("prompt", "hi",
        "prompt_len", 1, "output_len", 2, "request_id", "x-0",
        "prompt_token_ids", List.of(5)), plan.requestModelName());
    assertEquals("\"hi\"", JSON.readTree(r.body()).get("prompt").toString());
  }

  @Test
  void promptTokenIdsSamplesEachPromptsIdsAndCountsThem() {
    BenchPlan plan = plan("--prompt-token-ids --random-input-len 12 --random-output-len 3 "
        + "--num-prompts 4");
    try (Tokenizer gpt2 = Tokenizer.gpt2()) {
      Samples samples = plan.sample(gpt2);
      assertEquals(4, samples.size());
      for (SampleRequest r : samples.requests()) {
        @SuppressWarnings("unchecked")
        List<Integer> ids = (List<Integer>) r.extras().get("prompt_token_ids");
        int[] expected = gpt2.encode(r.prompt());
        assertEquals(expected.length, ids.size());
        for (int i = 0; i < expected.length; i++) {
          assertEquals(expected[i], ids.get(i));
        }
        assertEquals(12, r.promptLen(), "the random dataset's exact length");
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"openai-chat", "openai-responses", "openai-embeddings"})
  void promptTokenIdsIsRefusedWithBackendsThatDoNotSendACompletionsPrompt(String backend) {
    String message = error("--prompt-token-ids --backend " + backend);
    assertTrue(message.startsWith("--prompt-token-ids is not supported with --backend "
        + backend + ": only a completions request"), message);
  }

  @Test
  void promptTokenIdsNeedsTheTokenizer() {
    assertEquals("--prompt-token-ids with --skip-tokenizer-init: the token ids come from the "
        + "model's tokenizer, which --skip-tokenizer-init does not load; give one of them",
        error("--prompt-token-ids --skip-tokenizer-init"));
  }

  // --profile-batch-threshold, --profile-duration

  @Test
  void profileBatchThresholdAndDurationAreRead() {
    BenchPlan plan = plan("--profile --profile-batch-threshold 16 --profile-duration 2.5");
    assertEquals(16, plan.profileBatchThreshold().getAsInt());
    assertEquals(2.5, plan.profileDuration());
    BenchPlan whole = plan("--profile");
    assertTrue(whole.profileBatchThreshold().isEmpty());
    assertEquals(5.0, whole.profileDuration(), "vllm-bench's default");
  }

  @Test
  void profileFlagsFollowVllmBenchsRules() {
    assertEquals("--profile-batch-threshold requires --profile",
        error("--profile-batch-threshold 4"));
    assertEquals("--profile-batch-threshold must be >= 0 (requests running on the server), "
        + "got -1", error("--profile --profile-batch-threshold=-1"));
    assertEquals("--profile-duration must be a positive number of seconds, got 0",
        error("--profile --profile-batch-threshold 4 --profile-duration 0"));
    assertEquals("--profile-duration requires --profile-batch-threshold: without it, "
        + "--profile profiles the whole measured run", error("--profile --profile-duration 3"));
    assertEquals("--profile-duration expects a number, got 'soon'",
        error("--profile --profile-batch-threshold 4 --profile-duration soon"));
    // vllm-bench lets its default value through alone
    assertTrue(plan("--profile --profile-duration 5").profileBatchThreshold().isEmpty());
  }

  @Test
  void theRunningCountIsReadFromTheServersMetrics() {
    String metrics = "# HELP vllm:num_requests_running Number of requests.\n"
        + "# TYPE vllm:num_requests_running gauge\n"
        + "vllm:num_requests_running_total 99\n"
        + "vllm:num_requests_running{model_name=\"m\"} 7.0\n"
        + "vllm:num_requests_waiting{model_name=\"m\"} 3.0\n";
    assertEquals(7, Profiler.running(metrics));
    assertEquals(-1, Profiler.running("vllm:num_requests_waiting 3.0\n"));
  }

  // --hf-text-column

  @Test
  void hfTextColumnReadsThatColumnAndTheAnswerAsTheOutputLength() throws Exception {
    Path file = dir.resolve("rows.jsonl");
    Files.writeString(file, "{\"q\": \"What is the capital city of France?\", "
        + "\"answer\": \"Paris is the capital.\"}\n"
        + "{\"q\": [\"A list of turns, the first one is the prompt\", \"second\"]}\n"
        + "{\"q\": [{\"role\": \"system\", \"content\": \"be brief\"}, {\"role\": \"user\", "
        + "\"content\": \"The user turn is the prompt here\"}], \"answer\": [\"one two\"]}\n"
        + "{\"q\": \"Hi\"}\n");
    BenchPlan plan = plan("--dataset-name hf --dataset-path " + file
        + " --hf-text-column q --disable-shuffle --num-prompts 3 --no-oversample");
    try (Tokenizer gpt2 = Tokenizer.gpt2()) {
      List<SampleRequest> requests = plan.sample(gpt2).requests();
      assertEquals(List.of("What is the capital city of France?",
          "A list of turns, the first one is the prompt", "The user turn is the prompt here"),
          requests.stream().map(SampleRequest::prompt).toList(), "'Hi' is under 4 tokens");
      assertEquals(gpt2.count("Paris is the capital."), requests.get(0).expectedOutputLen());
      assertEquals(128, requests.get(1).expectedOutputLen(), "no answer: vllm-bench's 128");
      assertEquals(gpt2.count("one two"), requests.get(2).expectedOutputLen());
      assertEquals(gpt2.count("What is the capital city of France?"),
          requests.get(0).promptLen());
    }
  }

  @Test
  void aMissingColumnIsRefusedWithTheColumnsThatExist() throws Exception {
    Path file = dir.resolve("rows.jsonl");
    Files.writeString(file, "{\"question\": \"What is two and two?\", \"answer\": \"4\"}\n");
    BenchPlan plan = plan("--dataset-name hf --dataset-path " + file
        + " --hf-text-column prompt");
    try (Tokenizer gpt2 = Tokenizer.gpt2()) {
      DatasetException e = assertThrows(DatasetException.class, () -> plan.sample(gpt2));
      assertEquals("--hf-text-column 'prompt': hf dataset " + file + " has no such column; "
          + "its columns: [question, answer]", e.getMessage());
    }
  }

  @Test
  void hfTextColumnIsAFlagOfTheHfDatasetOnly() {
    String message = error("--dataset-name sharegpt --dataset-path x.json "
        + "--hf-text-column q");
    assertTrue(message.contains("hf-text-column"), message);
  }

  // --enable-multimodal-chat

  @Test
  void multimodalChatIsAcceptedForMediaDatasetsSentAsChat() {
    plan("--backend openai-chat --dataset-name custom_image --dataset-path x.jsonl "
        + "--enable-multimodal-chat");
    plan("--backend openai-chat --dataset-name custom_audio --dataset-path x.jsonl "
        + "--enable-multimodal-chat");
  }

  @Test
  void multimodalChatIsRefusedWhereThereIsNoMediaOrNoChat() {
    assertEquals("--enable-multimodal-chat with --dataset-name random: it makes each prompt "
        + "and its images or audio one chat message, for the datasets with media "
        + "(custom_image, custom_audio, random-mm)",
        error("--backend openai-chat --enable-multimodal-chat"));
    String message = error("--backend openai-embeddings-chat --dataset-name custom_image "
        + "--dataset-path x.jsonl --enable-multimodal-chat");
    assertEquals("--enable-multimodal-chat with --backend openai-embeddings-chat: the "
        + "multimodal chat message is a chat request's; use --backend openai-chat", message);
  }
}
