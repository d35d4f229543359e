package dev.gatlingllm.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class BackendsTest {

  /** Current vLLM's ASYNC_REQUEST_FUNCS keys, plus the older names of the reference's --help. */
  private static final Set<String> VLLM_NAMES = Set.of("vllm", "openai", "openai-chat",
      "openai-audio", "openai-embeddings", "openai-embeddings-chat", "openai-embeddings-clip",
      "openai-embeddings-vlm2vec", "infinity-embeddings", "infinity-embeddings-clip",
      "vllm-pooling", "vllm-rerank", "tgi", "lmdeploy", "deepspeed-mii", "tensorrt-llm",
      "scalellm", "sglang", "llama.cpp");

  /** vLLM's POOLING_BACKENDS. */
  private static final Set<String> POOLING = Set.of("openai-embeddings",
      "openai-embeddings-chat", "openai-embeddings-clip", "openai-embeddings-vlm2vec",
      "infinity-embeddings", "infinity-embeddings-clip", "vllm-pooling", "vllm-rerank");

  @Test
  void everyNameVllmAcceptsIsEitherServedOrRefusedWithAReason() {
    Set<String> known = new TreeSet<>(Backends.servedNames());
    known.addAll(Backends.refused().keySet());
    assertEquals(new TreeSet<>(VLLM_NAMES), known);
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

  @Test
  void eachNameMapsToItsRequestKind() {
    assertEquals(Backends.Kind.COMPLETIONS, Backends.resolve("vllm").kind());
    assertEquals(Backends.Kind.CHAT, Backends.resolve("openai-chat").kind());
    assertEquals(Backends.Kind.AUDIO, Backends.resolve("openai-audio").kind());
    assertEquals(Backends.Kind.RERANK, Backends.resolve("vllm-rerank").kind());
    Backends.Backend clip = Backends.resolve(" infinity-embeddings-clip ");
    assertEquals(Backends.Kind.EMBEDDINGS, clip.kind());
    assertEquals(EmbeddingsVariant.INFINITY_CLIP, clip.embeddingsVariant());
    assertEquals("/embeddings", clip.defaultEndpoint());
    assertEquals("/v1/rerank", Backends.resolve("vllm-rerank").defaultEndpoint());
  }

  @Test
  void anUnknownNameListsTheServedOnes() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Backends.resolve("openai-chats"));
    assertTrue(e.getMessage().contains("Unknown --backend 'openai-chats'"), e.getMessage());
    assertTrue(e.getMessage().contains("openai-chat,"), e.getMessage());
  }
}
