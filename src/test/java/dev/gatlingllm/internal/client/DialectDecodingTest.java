package dev.gatlingllm.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.sim.SimTokens;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The client reading llama.cpp's stream habits, served by the simulator's dialect switches:
 * every request succeeds with the exact text, and the usage counts exactly what was asked.
 */
@Timeout(60)
class DialectDecodingTest {

  private static final Duration LONG = Duration.ofSeconds(30);
  private static final String CHAT = "{\"messages\":[{\"role\":\"user\",\"content\":\"a b\"}],"
      + "\"max_tokens\":4,\"stream\":true,\"stream_options\":{\"include_usage\":true}}";

  private final EventLoopGroup group =
      new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());

  @AfterEach
  void tearDown() throws Exception {
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
  }

  private RequestRecord send(SimulatorConfig.Builder config, String path, String body)
      throws Exception {
    try (Simulator sim = Simulator.start(config.ttft(Duration.ofMillis(1))
        .itl(Duration.ofMillis(1)).build());
        LlmClient client = new LlmClient(NioSocketChannel::new, new ClientConfig(
            Target.parse(sim.baseUrl()), Duration.ofSeconds(5), Duration.ZERO, LONG, LONG,
            Duration.ofSeconds(30), false))) {
      CompletableFuture<RequestRecord> done = new CompletableFuture<>();
      client.send(group.next(), new LlmRequest("gen", path,
          new DefaultHttpHeaders().set("x-request-id", "r1"),
          body.getBytes(StandardCharsets.UTF_8), 2, LlmRequest.NOT_SCHEDULED), done::complete);
      RequestRecord r = done.get(20, TimeUnit.SECONDS);
      assertTrue(r.success(), r.error());
      return r;
    }
  }

  @Test
  void usageInTheFinishChunkIsCountedExactly() throws Exception {
    RequestRecord r = send(SimulatorConfig.builder().usageInFinishChunk(true), "/v1/completions",
        "{\"prompt\":\"a b\",\"max_tokens\":16,\"stream\":true}");
    assertEquals(16, r.outputTokens());
    assertEquals(2, r.usagePromptTokens());
    assertEquals(SimTokens.text(16), r.generatedText());
    // the finish chunk has a choice, so it is a chunk of the stream, as in vLLM's client
    assertEquals(17, r.chunkMicros().length);
  }

  @Test
  void aRoleChunkWithNullContentAddsNoText() throws Exception {
    RequestRecord r = send(SimulatorConfig.builder().nullRoleContent(true)
        .usageInFinishChunk(true), "/v1/chat/completions", CHAT);
    assertEquals(SimTokens.text(4), r.generatedText());
    assertEquals(4, r.outputTokens());
    assertEquals(6, r.chunkMicros().length, "role chunk, 4 tokens, finish chunk");
  }

  @Test
  void aStreamWithoutRoleChunkIsReadAlike() throws Exception {
    RequestRecord r = send(SimulatorConfig.builder().missingRoleRate(1.0)
        .usageInFinishChunk(true), "/v1/chat/completions", CHAT);
    assertEquals(SimTokens.text(4), r.generatedText());
    assertEquals(4, r.outputTokens());
    assertEquals(5, r.chunkMicros().length, "4 tokens and the finish chunk, no role chunk");
    assertTrue(r.ttftNanos() > 0);
  }

  @Test
  void mergedTokensLeaveFewerItlSamplesThanTokens() throws Exception {
    // rate 0.25 over 8 tokens holds token 3 back: 7 events carry 8 tokens
    RequestRecord r = send(SimulatorConfig.builder().mergedTokenRate(0.25), "/v1/completions",
        "{\"prompt\":\"a b\",\"max_tokens\":8,\"stream\":true,"
            + "\"stream_options\":{\"include_usage\":true}}");
    assertEquals(8, r.outputTokens());
    assertEquals(SimTokens.text(8), r.generatedText());
    assertEquals(7, r.chunkMicros().length);
    assertEquals(6, r.itlCount());
  }
}
