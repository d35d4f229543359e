package dev.gatlingllm.action;

import static dev.gatlingllm.LlmDsl.audio;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.action.ActionHarness;
import dev.gatlingllm.internal.action.AudioApi;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.options.ResultOptions;
import dev.gatlingllm.protocol.LlmProtocolBuilder;
import dev.gatlingllm.sim.RecordedRequest;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import dev.gatlingllm.testing.StrictServer;
import io.gatling.core.action.Action;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.multipart.Attribute;
import io.netty.handler.codec.http.multipart.DefaultHttpDataFactory;
import io.netty.handler.codec.http.multipart.FileUpload;
import io.netty.handler.codec.http.multipart.HttpPostRequestDecoder;
import io.netty.handler.codec.http.multipart.InterfaceHttpData;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The {@code openai-audio} upload as vLLM sends it: a multipart form with the file first and
 * then the payload's fields in order, each as Python's {@code str()} writes it; the answer is
 * streamed and timed like chat.
 */
@Timeout(60)
class AudioRequestTest {

  /** A tiny WAV-looking payload: the bytes only have to arrive unchanged. */
  private static final byte[] WAV = new byte[6_500];

  static {
    for (int i = 0; i < WAV.length; i++) {
      WAV[i] = (byte) (i * 31);
    }
  }

  @Test
  void theUploadCarriesTheFileThenVllmsFieldsAndTheStreamIsTimedLikeChat() throws Exception {
    try (Simulator sim = Simulator.start(SimulatorConfig.builder().recordRequests(true)
        .ttft(Duration.ofMillis(5)).itl(Duration.ofMillis(2)).build());
         ActionHarness h = new ActionHarness(new LlmProtocolBuilder().baseUrl(sim.baseUrl()).noServerMetrics()
             .model("sim-model").noWarmUp().requestIdPrefix("asr-")
             .results(ResultOptions.builder().saveResult(false).printSummary(false))
             .protocol())) {
      Action action = audio("asr").translations().fromDataset().asScala().build(h.ctx, h.next);
      h.execute(action, h.session("audio", WAV, "prompt_len", 2, "output_len", 7));
      h.awaitPassedOn();

      RecordedRequest sent = StrictServer.runRequests(sim).get(0);
      assertEquals("/v1/audio/translations", sent.path());
      assertTrue(sent.header("content-type").startsWith("multipart/form-data; boundary="),
          sent.header("content-type"));
      assertEquals("asr-0", sent.header("x-request-id"));
      Map<String, String> fields = new LinkedHashMap<>();
      List<String> order = new ArrayList<>();
      FullHttpRequest http = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST,
          sent.path(), Unpooled.wrappedBuffer(sent.body()));
      http.headers().set("content-type", sent.header("content-type"));
      HttpPostRequestDecoder decoder =
          new HttpPostRequestDecoder(new DefaultHttpDataFactory(false), http);
      try {
        for (InterfaceHttpData data : decoder.getBodyHttpDatas()) {
          order.add(data.getName());
          if (data instanceof FileUpload file) {
            assertEquals("audio.wav", file.getFilename());
            assertEquals("audio/wav", file.getContentType());
            assertArrayEquals(WAV, file.get());
          } else {
            fields.put(data.getName(), ((Attribute) data).getValue());
          }
        }
      } finally {
        decoder.destroy();
      }
      assertEquals(List.of("file", "model", "max_completion_tokens", "stream", "language",
          "stream_include_usage", "stream_continuous_usage_stats"), order);
      assertEquals(Map.of("model", "sim-model", "max_completion_tokens", "7", "stream", "True",
          "language", "en", "stream_include_usage", "True",
          "stream_continuous_usage_stats", "True"), fields);

      RequestRecord r = h.run.requests().store().snapshot().record(0);
      assertTrue(r.success(), r.error());
      // as chat: the role chunk (with the first token's), then one chunk per token
      assertEquals(8, r.chunkMicros().length);
      assertEquals(7, r.outputTokens());
      assertEquals(2, r.promptTokens(), "the dataset's prompt length");
    }
  }

  @Test
  void theBuilderRefusesWhatCannotBeSent() {
    assertThrows(IllegalArgumentException.class, () -> audio("a").maxTokens(0));
    assertThrows(IllegalArgumentException.class, () -> audio("a").file("a\".wav", "audio/wav"));
    assertThrows(IllegalArgumentException.class, () -> audio("a").extraBody("file", "x"));
    IllegalArgumentException noAudio =
        assertThrows(IllegalArgumentException.class, () -> audio("a").asScala());
    assertTrue(noAudio.getMessage().contains("audio(...) is required"), noAudio.getMessage());
  }

  @Test
  void pythonsStrOfPayloadValues() {
    assertEquals("True", AudioApi.python(true));
    assertEquals("False", AudioApi.python(false));
    assertEquals("None", AudioApi.python(null));
    assertEquals("12", AudioApi.python(12));
  }
}
