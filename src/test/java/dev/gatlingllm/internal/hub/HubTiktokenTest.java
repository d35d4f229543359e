package dev.gatlingllm.internal.hub;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.hub.FakeHub.Response;
import dev.gatlingllm.tokenizer.Gpt2Tiktoken;
import dev.gatlingllm.tokenizer.Tokenizer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A hub model that ships no tokenizer.json but a tiktoken.model is loaded from the latter. */
class HubTiktokenTest {

  @TempDir
  Path home;

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
