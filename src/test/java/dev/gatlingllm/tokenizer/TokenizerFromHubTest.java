package dev.gatlingllm.tokenizer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.hub.FakeHub;
import dev.gatlingllm.internal.hub.FakeHub.Response;
import dev.gatlingllm.internal.hub.HubClient;
import dev.gatlingllm.internal.hub.HubException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code Tokenizer.fromHub} with a client of the test's (package-private: users give a model
 * id, and the hub client is internal): the model's tokenizer.json, else its tiktoken.model.
 */
class TokenizerFromHubTest {

  @TempDir
  Path home;

  @Test
  void aModelWithTokenizerJsonLoadsIt() throws Exception {
    byte[] json = Files.readAllBytes(Path.of("src/test/resources/tokenizer/bos/tokenizer.json"));
    try (FakeHub hub = new FakeHub()) {
      hub.route("/acme/tiny-llm/resolve/main/tokenizer.json", Response.ok(json));
      HubClient client = HubClient.builder().endpoint(hub.url()).home(home).build();
      try (Tokenizer tokenizer = Tokenizer.fromHub(client, "acme/tiny-llm", "main")) {
        assertEquals("acme/tiny-llm", tokenizer.id());
        // the BOS tokenizer adds its begin token to the two words
        assertEquals(3, tokenizer.countWithSpecialTokens("hello world"));
      }
      assertEquals(List.of("/acme/tiny-llm/resolve/main/tokenizer.json"),
          hub.requests().stream().map(FakeHub.Request::rawPath).toList());
    }
  }

  @Test
  void aModelWithoutTokenizerJsonLoadsItsTiktokenModel() throws Exception {
    byte[] ranks = Files.readAllBytes(Gpt2Tiktoken.write(home.resolve("ranks.tiktoken")));
    try (FakeHub hub = new FakeHub()) {
      hub.route("/acme/tiktoken-llm/resolve/main/tiktoken.model", Response.ok(ranks));
      HubClient client = HubClient.builder().endpoint(hub.url()).home(home).build();
      try (Tokenizer tokenizer = Tokenizer.fromHub(client, "acme/tiktoken-llm", "main");
          Tokenizer gpt2 = Tokenizer.gpt2()) {
        assertEquals("acme/tiktoken-llm", tokenizer.id());
        assertTrue(tokenizer.source().endsWith("tiktoken.model"), tokenizer.source());
        String text = "So let the golden morning stay beside the meadow.";
        // tiktoken.model names no encoding: cl100k_base's pattern, the same pieces here
        assertArrayEquals(gpt2.encode(text), tokenizer.encode(text));
      }
      assertEquals(List.of("/acme/tiktoken-llm/resolve/main/tokenizer.json",
              "/acme/tiktoken-llm/resolve/main/tiktoken.model"),
          hub.requests().stream().map(FakeHub.Request::rawPath).toList());
    }
  }

  @Test
  void aModelWithNeitherSaysBoth() throws Exception {
    try (FakeHub hub = new FakeHub()) {
      HubClient client = HubClient.builder().endpoint(hub.url()).home(home).build();
      HubException e = assertThrows(HubException.class,
          () -> Tokenizer.fromHub(client, "acme/none", "main"));
      assertTrue(e.getMessage().contains("tokenizer.json") && e.getMessage().contains("HTTP 404")
          && e.getMessage().endsWith("; no tiktoken.model either"), e.getMessage());
    }
  }
}
