package dev.gatlingllm.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.action.GenerationTemplate;
import dev.gatlingllm.internal.action.RequestTemplate;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class BackendsTest {

  /**
   * Current vLLM's ASYNC_REQUEST_FUNCS keys, plus the older names of the reference's --help,
   * plus vLLM's Rust client's {@code openai-responses}.
   */
  private static final Set<String> VLLM_NAMES = Set.of("vllm", "openai", "openai-chat",
      "openai-responses",
      "openai-audio", "openai-embeddings", "openai-embeddings-chat", "openai-embeddings-clip",
      "openai-embeddings-vlm2vec", "infinity-embeddings", "infinity-embeddings-clip",
      "vllm-pooling", "vllm-rerank", "tgi", "lmdeploy", "deepspeed-mii", "tensorrt-llm",
      "scalellm", "sglang", "llama.cpp");

  /**
   * Backends of APIs vLLM serves that its bench has no backend for: the Anthropic Messages
   * API, by the vendor-API naming of vLLM's own names (AIPerf calls it {@code messages}).
   */
  private static final Set<String> BEYOND_VLLM = Set.of("anthropic-messages");

  /** vLLM's POOLING_BACKENDS. */
  private static final Set<String> POOLING = Set.of("openai-embeddings",
      "openai-embeddings-chat", "openai-embeddings-clip", "openai-embeddings-vlm2vec",
      "infinity-embeddings", "infinity-embeddings-clip", "vllm-pooling", "vllm-rerank");

  @Test
  void onlyTheVllmBackendNamesAServerWhoseMetricsPathIsKnown() {
    // vllm is vLLM's own server (Prometheus at /metrics); every other name says only which
    // API is spoken, so its server's metrics are not scraped unless asked
    for (String name : Backends.servedNames()) {
      assertEquals(name.equals("vllm") ? "/metrics" : "",
          Backends.resolve(name).serverMetricsPath(), name);
    }
    assertEquals("/metrics", new dev.gatlingllm.internal.action.TableBackendFacts()
        .serverMetricsPath("vllm"));
    assertEquals("", new dev.gatlingllm.internal.action.TableBackendFacts()
        .serverMetricsPath("no-such-backend"));
  }

  @Test
  void everyNameVllmAcceptsIsEitherServedOrRefusedWithAReason() {
    Set<String> known = new TreeSet<>(Backends.servedNames());
    known.addAll(Backends.refused().keySet());
    Set<String> expected = new TreeSet<>(VLLM_NAMES);
    expected.addAll(BEYOND_VLLM);
    assertEquals(expected, known);
    for (String name : Backends.refused().keySet()) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> Backends.resolve(name));
      assertTrue(e.getMessage().contains("cannot be served") && e.getMessage().contains(name),
          e.getMessage());
      assertFalse(Backends.lookup(name).isPresent());
    }
  }

  @Test
  void poolingBackendsAreExactlyVllms() {
    for (String name : Backends.servedNames()) {
      assertEquals(POOLING.contains(name), Backends.resolve(name).pooling(), name);
    }
  }

  /** The command line of a test: a path, no flag given. */
  record NoFlags(String endpoint) implements RequestFlags {
    @Override
    public boolean on(String flag) {
      return false;
    }

    @Override
    public OptionalDouble decimal(String flag) {
      return OptionalDouble.empty();
    }

    @Override
    public OptionalInt integer(String flag) {
      return OptionalInt.empty();
    }

    @Override
    public Optional<String> model() {
      return Optional.empty();
    }

    @Override
    public <T> T flagged(String flag, Supplier<T> call) {
      return call.get();
    }
  }

  @Test
  void eachNameMapsToItsRequestKind() {
    assertInstanceOf(LlmRequestBuilder.class, request("vllm"));
    assertEquals(GenerationTemplate.class, template("vllm").getClass());
    assertEquals("completions", template("llama.cpp").endpointType());
    assertEquals("openai-chat", template("openai-chat").endpointType());
    assertEquals("openai-responses", template("openai-responses").endpointType());
    assertEquals("openai-audio", template("openai-audio").endpointType());
    assertEquals("vllm-rerank", template("vllm-rerank").endpointType());
    assertInstanceOf(AudioRequestBuilder.class, request("openai-audio"));
    assertInstanceOf(RerankRequestBuilder.class, request("vllm-rerank"));
    assertInstanceOf(EmbeddingsRequestBuilder.class, request("infinity-embeddings-clip"));
    // an embeddings backend's body is its variant's: the result names it
    assertEquals("infinity-embeddings-clip", template(" infinity-embeddings-clip ")
        .endpointType());
    assertEquals("/embeddings", Backends.resolve("infinity-embeddings-clip").defaultEndpoint());
    assertEquals("/v1/rerank", Backends.resolve("vllm-rerank").defaultEndpoint());
  }

  /** What a request's template says matches its entry: path, stream, metric set, warm-up. */
  @Test
  void eachRequestGoesWhereItsEntrySaysWithItsMetricSet() {
    for (String name : Backends.servedNames()) {
      Backends.Backend b = Backends.resolve(name);
      RequestTemplate t = template(name);
      assertEquals(b.defaultEndpoint(), t.path(), name);
      // vLLM's pooling backends get the reduced (embedding) metric set, the others generation's
      assertEquals(POOLING.contains(name) ? dev.gatlingllm.internal.metrics.TaskType.EMBEDDING
          : dev.gatlingllm.internal.metrics.TaskType.GENERATION, t.taskType(), name);
      assertEquals(b.streams(), t.taskType() == dev.gatlingllm.internal.metrics.TaskType.GENERATION,
          name + ": only pooling answers are one body");
      assertTrue(b.endpointEndings().stream().anyMatch(b.defaultEndpoint()::endsWith), name);
      // the drop-in allows --num-warmups where the plugin's warm-up can send the request
      assertEquals(b.takes(Backends.Takes.WARM_UP), t.warmUpBody("m") != null, name);
    }
  }

  @Test
  void theDslsDefaultPathsAreTheTablesOnes() {
    assertEquals("/v1/completions", LlmRequestBuilder.completions("c").prompt("p").spec().path());
    assertEquals("/v1/chat/completions", LlmRequestBuilder.chat("c").prompt("p").spec().path());
    assertEquals("/v1/audio/transcriptions", AudioRequestBuilder.of("a").fromDataset()
        .template().path());
    assertEquals("/pooling", EmbeddingsVariant.VLLM_POOLING.defaultPath());
    assertEquals("/v1/rerank", RerankRequestBuilder.rerank("r").fromDataset().template().path());
  }

  private static io.gatling.javaapi.core.ActionBuilder request(String name) {
    Backends.Backend b = Backends.resolve(name);
    return b.request(new NoFlags(b.defaultEndpoint()));
  }

  private static RequestTemplate template(String name) {
    return ((RequestBuilderBase<?>) request(name)).template();
  }

  /**
   * The capabilities code outside the table asks instead of comparing names, against
   * hand-written expectations: only chat requests are chat-template messages (multi-turn,
   * BFCL, multimodal chat, chat-template-kwargs); only the Responses and Messages APIs read
   * their answers off the OpenAI chunk's fast path; only the pooling backends are one body.
   */
  @Test
  void eachBackendsCapabilitiesAreItsApis() {
    for (String name : Backends.servedNames()) {
      Backends.Backend b = Backends.resolve(name);
      assertEquals(name.equals("openai-chat"), b.chatTemplate(), name);
      assertEquals(!name.equals("openai-responses") && !name.equals("anthropic-messages"),
          b.api().reader() == dev.gatlingllm.internal.client.ChunkReader.OPENAI, name);
      assertEquals(POOLING.contains(name), b.pooling(), name);
      assertEquals(!POOLING.contains(name), b.streams(), name);
    }
  }

  @Test
  void aGenerationBackendGivesItsRequestBuilderByName() {
    assertEquals("/v1/responses",
        LlmRequestBuilder.forBackend("openai-responses", "r").prompt("p").spec().path());
    assertEquals("max_output_tokens",
        LlmRequestBuilder.forBackend("openai-responses", "r").prompt("p").spec().api()
            .maxTokensField());
    assertEquals("/v1/completions",
        LlmRequestBuilder.forBackend("sglang", "c").prompt("p").spec().path());
    assertEquals("--backend vllm-rerank sends no completions, chat or Responses request",
        assertThrows(IllegalArgumentException.class,
            () -> LlmRequestBuilder.forBackend("vllm-rerank", "r")).getMessage());
  }

  @Test
  void anUnknownNameListsTheServedOnes() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Backends.resolve("openai-chats"));
    assertTrue(e.getMessage().contains("Unknown --backend 'openai-chats'"), e.getMessage());
    assertTrue(e.getMessage().contains("openai-chat,"), e.getMessage());
  }
}
