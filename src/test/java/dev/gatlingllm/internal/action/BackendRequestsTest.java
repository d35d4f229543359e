package dev.gatlingllm.internal.action;

import static dev.gatlingllm.LlmDsl.chat;
import static dev.gatlingllm.LlmDsl.embeddings;
import static dev.gatlingllm.LlmDsl.rerank;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.action.EmbeddingsRequestBuilder;
import dev.gatlingllm.action.EmbeddingsVariant;
import dev.gatlingllm.internal.metrics.RecordStore;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.protocol.LlmProtocol;
import dev.gatlingllm.options.ResultOptions;
import dev.gatlingllm.protocol.LlmProtocolBuilder;
import dev.gatlingllm.protocol.ProtocolTestSupport;
import dev.gatlingllm.sim.RecordedRequest;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import dev.gatlingllm.testing.StrictServer;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import io.gatling.javaapi.core.ActionBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What each backend sends, read back from the simulator's record of the request and compared
 * field by field (names, values and order) with what vLLM's benchmark client sends for the
 * same input. The expected bodies were worked out from vLLM's request functions
 * ({@code vllm/benchmarks/lib/endpoint_request_func.py}), not from our code.
 */
@Timeout(60)
class BackendRequestsTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String KEY = "sk-test-backend";
  private static final String IMAGE_URL = "data:image/jpeg;base64,/9j/AAAA";
  private static final Map<String, Object> IMAGE =
      Map.of("type", "image_url", "image_url", Map.of("url", IMAGE_URL));

  private static Simulator sim;

  @BeforeAll
  static void start() {
    sim = Simulator.start(SimulatorConfig.builder().recordRequests(true)
        .ttft(Duration.ofMillis(2)).itl(Duration.ofMillis(1)).build());
  }

  @AfterAll
  static void stop() {
    sim.close();
  }

  private record Sent(RecordedRequest request, RequestRecord record) {
    JsonNode json() throws Exception {
      return JSON.readTree(request.body());
    }
  }

  /** Runs one request of {@code builder} for a user with these attributes. */
  private static Sent send(ActionBuilder builder, Object... attributes) throws Exception {
    int before = StrictServer.runRequests(sim).size();
    LlmProtocol protocol = ProtocolTestSupport.withEnvironment(new LlmProtocolBuilder().noServerMetrics()
            .baseUrl(sim.baseUrl()).model("sim-model").noWarmUp().requestIdPrefix("emb-")
            .results(ResultOptions.builder().saveResult(false).printSummary(false)),
        Map.of("OPENAI_API_KEY", KEY)).protocol();
    try (ActionHarness h = new ActionHarness(protocol)) {
      Action action = builder.asScala().build(h.ctx, h.next);
      Session session = h.session(attributes);
      h.execute(action, session);
      h.awaitPassedOn();
      RecordStore.Snapshot snapshot = h.run.requests().store().snapshot();
      List<RecordedRequest> all = StrictServer.runRequests(sim);
      assertEquals(before + 1, all.size(), "one request reached the server");
      RecordedRequest request = all.get(all.size() - 1);
      assertEquals("Bearer " + KEY, request.header("authorization"));
      assertEquals(snapshot.record(0).requestId(), request.header("x-request-id"));
      return new Sent(request, snapshot.record(0));
    }
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      names.add(it.next());
    }
    return names;
  }

  private static void assertBody(String expected, Sent sent) throws Exception {
    JsonNode want = JSON.readTree(expected);
    JsonNode got = sent.json();
    assertEquals(want, got);
    assertEquals(fieldNames(want), fieldNames(got), "fields in vLLM's order");
    assertEquals("application/json", sent.request().header("content-type"));
  }

  @Test
  void openAiEmbeddingsSendInputAndAskTheServerToTruncate() throws Exception {
    Sent sent = send(embeddings("e").fromDataset(), "prompt", "alpha beta gamma",
        "prompt_len", 3);
    assertEquals("/v1/embeddings", sent.request().path());
    assertBody("{\"model\":\"sim-model\",\"input\":\"alpha beta gamma\","
        + "\"truncate_prompt_tokens\":-1}", sent);
    // timed as vLLM times pooling: one answer, ttft = latency; input length from usage
    RequestRecord r = sent.record();
    assertTrue(r.success(), r.error());
    assertEquals(r.ttftNanos(), r.latencyNanos());
    assertEquals(3, r.usagePromptTokens());
    assertEquals(1, r.chunkMicros().length);
  }

  @Test
  void anEmbeddingsVariantCanBeNamedAsVllmsBackend() throws Exception {
    Sent byName = send(embeddings("e").variant("openai-embeddings-chat")
        .input("#{prompt}").multiModal("#{mm}"), "prompt", "describe", "mm", IMAGE);
    Sent byConstant = send(embeddings("e").variant(EmbeddingsVariant.OPENAI_CHAT)
        .input("#{prompt}").multiModal("#{mm}"), "prompt", "describe", "mm", IMAGE);
    assertBody(byConstant.json().toString(), byName);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> embeddings("e").variant("openai-embedding"));
    assertEquals("no embeddings backend 'openai-embedding'; known: [openai-embeddings, "
        + "openai-embeddings-chat, openai-embeddings-clip, openai-embeddings-vlm2vec, "
        + "infinity-embeddings, infinity-embeddings-clip, vllm-pooling]", e.getMessage());
  }

  @Test
  void embeddingsChatSendsOneUserMessageTextFirstThenTheImage() throws Exception {
    Sent sent = send(embeddings("e").variant(EmbeddingsVariant.OPENAI_CHAT)
        .input("#{prompt}").multiModal("#{mm}"), "prompt", "describe", "mm", IMAGE);
    assertBody("{\"model\":\"sim-model\",\"messages\":[{\"role\":\"user\",\"content\":["
        + "{\"type\":\"text\",\"text\":\"describe\"},"
        + "{\"type\":\"image_url\",\"image_url\":{\"url\":\"" + IMAGE_URL + "\"}}]}],"
        + "\"truncate_prompt_tokens\":-1}", sent);
  }

  @Test
  void clipEmbedsTheImageWithAnEmptyText() throws Exception {
    Sent sent = send(embeddings("e").variant(EmbeddingsVariant.OPENAI_CLIP)
        .input("#{prompt}").multiModal("#{mm}"), "prompt", "describe", "mm", IMAGE);
    assertBody("{\"model\":\"sim-model\",\"messages\":[{\"role\":\"user\",\"content\":["
        + "{\"type\":\"text\",\"text\":\"\"},"
        + "{\"type\":\"image_url\",\"image_url\":{\"url\":\"" + IMAGE_URL + "\"}}]}],"
        + "\"truncate_prompt_tokens\":-1}", sent);
  }

  @Test
  void vlm2vecPutsTheImageFirstAndPicksThePromptByTheRequestNumbersParity() throws Exception {
    EmbeddingsRequestBuilder b = embeddings("e")
        .variant(EmbeddingsVariant.OPENAI_VLM2VEC).input("#{prompt}").multiModal("#{mm}");
    Sent even = send(b, "prompt", "what is it", "mm", IMAGE);
    assertEquals("emb-0", even.request().header("x-request-id"));
    assertBody("{\"model\":\"sim-model\",\"messages\":[{\"role\":\"user\",\"content\":["
        + "{\"type\":\"image_url\",\"image_url\":{\"url\":\"" + IMAGE_URL + "\"}},"
        + "{\"type\":\"text\",\"text\":\"Represent the given image.\"}]}],"
        + "\"truncate_prompt_tokens\":-1}", even);
    Sent odd = send(b.requestId("q-7"), "prompt", "what is it", "mm", IMAGE);
    assertEquals("Represent the given image with the following question: what is it",
        odd.json().at("/messages/0/content/1/text").asText());
  }

  @Test
  void infinitySendsTextAsInputAndALoneImageAsItsUrlWithAModality() throws Exception {
    Sent text = send(embeddings("e").variant(EmbeddingsVariant.INFINITY)
        .endpoint("/embeddings").input("#{prompt}"), "prompt", "alpha");
    assertEquals("/embeddings", text.request().path());
    assertBody("{\"model\":\"sim-model\",\"input\":\"alpha\"}", text);
    Sent image = send(embeddings("e").variant(EmbeddingsVariant.INFINITY_CLIP)
        .input("#{prompt}").multiModal("#{mm}"), "prompt", "ignored", "mm", IMAGE);
    assertBody("{\"model\":\"sim-model\",\"input\":\"" + IMAGE_URL + "\","
        + "\"modality\":\"image\"}", image);
  }

  @Test
  void vllmPoolingGoesToPoolingWithTruncationBeforeTheInput() throws Exception {
    Sent sent = send(embeddings("e").variant(EmbeddingsVariant.VLLM_POOLING)
        .input("#{prompt}").extraBody("task", "embed"), "prompt", "alpha beta");
    assertEquals("/pooling", sent.request().path());
    assertBody("{\"model\":\"sim-model\",\"truncate_prompt_tokens\":-1,\"input\":\"alpha beta\","
        + "\"task\":\"embed\"}", sent);
  }

  @Test
  void rerankSendsTheQueryAndItsDocuments() throws Exception {
    Sent sent = send(rerank("r").fromDataset(), "prompt", "which one",
        "documents", List.of("first doc", "second doc"), "prompt_len", 9);
    assertEquals("/v1/rerank", sent.request().path());
    assertBody("{\"model\":\"sim-model\",\"query\":\"which one\","
        + "\"documents\":[\"first doc\",\"second doc\"],\"truncate_prompt_tokens\":-1}", sent);
    assertTrue(sent.record().success(), sent.record().error());
    // the simulator counts the query once per document: (2 + 2) * 2
    assertEquals(8, sent.record().usagePromptTokens());
  }

  @Test
  void multimodalChatSendsTheTextPartThenTheMediaParts() throws Exception {
    Map<String, Object> video = Map.of("type", "video_url",
        "video_url", Map.of("url", "data:video/mp4;base64,AAAA"));
    Sent sent = send(chat("c").fromDataset().multiModal("#{mm}"), "prompt", "what",
        "prompt_len", 1, "output_len", 3, "mm", List.of(IMAGE, video));
    JsonNode body = sent.json();
    assertEquals(JSON.readTree("[{\"role\":\"user\",\"content\":["
        + "{\"type\":\"text\",\"text\":\"what\"},"
        + "{\"type\":\"image_url\",\"image_url\":{\"url\":\"" + IMAGE_URL + "\"}},"
        + "{\"type\":\"video_url\",\"video_url\":{\"url\":\"data:video/mp4;base64,AAAA\"}}]}]"),
        body.get("messages"));
    assertEquals(3, body.get("max_completion_tokens").asInt());
    assertTrue(body.get("stream").asBoolean());
    assertTrue(body.at("/stream_options/include_usage").asBoolean());
    assertTrue(sent.record().success(), sent.record().error());
  }
}
