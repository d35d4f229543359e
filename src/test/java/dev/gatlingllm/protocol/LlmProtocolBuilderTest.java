package dev.gatlingllm.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.internal.protocol.LlmProtocol;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LlmProtocolBuilderTest {

  private static final String SECRET = "sk-very-secret-123";

  private static LlmProtocolBuilder base(Map<String, String> env) {
    return new LlmProtocolBuilder().environment(env::get)
        .baseUrl("http://127.0.0.1:8000").model("org/model");
  }

  @Test
  void apiKeyComesFromTheNamedVariableAndNeverShowsInToString() {
    LlmProtocol p = base(Map.of("MY_KEY", SECRET)).apiKeyFromEnv("MY_KEY").protocol();
    assertEquals(SECRET, p.apiKey());
    assertFalse(p.toString().contains(SECRET), p.toString());
    assertTrue(p.toString().contains("apiKey=<set>"));
  }

  @Test
  void openAiKeyIsUsedByDefaultLikeVllm() {
    assertEquals(SECRET, base(Map.of("OPENAI_API_KEY", SECRET)).protocol().apiKey());
    assertNull(base(Map.of()).protocol().apiKey());
  }

  @Test
  void namedVariableThatIsNotSetFailsWhenBuilt() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> base(Map.of()).apiKeyFromEnv("MY_KEY").protocol());
    assertEquals("llm protocol: apiKeyFromEnv(\"MY_KEY\") but the environment variable MY_KEY"
        + " is not set", e.getMessage());
  }

  @Test
  void resultNamesTheTokenizerThatCountsOutputsWithoutUsage() {
    // Without a configured counter the shipped GPT-2 tokenizer counts, not the model's.
    assertEquals("gpt2", base(Map.of()).protocol().tokenizerId());
    assertEquals("org/tokenizer", base(Map.of()).tokenCounter("org/tokenizer", String::length)
        .protocol().tokenizerId());
  }

  @Test
  void aHeaderIsSetNotAddedWhateverTheCaseOfItsName() {
    LlmProtocol p = base(Map.of()).header("X-Team", "perf").header("x-team", "llm").protocol();
    assertEquals(Map.of("x-team", "llm"), p.headers());
  }

  @Test
  void theUsersAuthorizationHeaderAndTheEnvironmentsKey() {
    // The default key gives way to the user's own header ...
    LlmProtocol p = base(Map.of("OPENAI_API_KEY", SECRET)).header("authorization", "Basic x")
        .protocol();
    assertNull(p.apiKey());
    assertEquals(Map.of("authorization", "Basic x"), p.headers());
    // ... but asking for both explicitly is a contradiction, named without the key.
    IllegalArgumentException both = assertThrows(IllegalArgumentException.class,
        () -> base(Map.of("MY_KEY", SECRET)).apiKeyFromEnv("MY_KEY")
            .header("Authorization", "Basic x").protocol());
    assertEquals("llm protocol: header(\"Authorization\") and apiKeyFromEnv(\"MY_KEY\") both "
        + "set the Authorization header; keep one", both.getMessage());
  }

  @Test
  void builderIsImmutable() {
    LlmProtocolBuilder a = base(Map.of());
    LlmProtocolBuilder b = a.servedModelName("served").header("X-Team", "perf");
    assertEquals("org/model", a.protocol().requestModelName());
    assertEquals("served", b.protocol().requestModelName());
    assertEquals(Map.of(), a.protocol().headers());
    assertEquals(Map.of("X-Team", "perf"), b.protocol().headers());
  }

  @Test
  void missingOrBadSettingsAreNamed() {
    assertEquals("llm protocol: baseUrl(...) is required", assertThrows(
        IllegalArgumentException.class, () -> new LlmProtocolBuilder().model("m").protocol())
        .getMessage());
    assertEquals("llm protocol: model(...) is required", assertThrows(
        IllegalArgumentException.class,
        () -> new LlmProtocolBuilder().baseUrl("http://h:1").protocol()).getMessage());
    assertEquals("baseUrl 'ftp://h' must start with http:// or https://", assertThrows(
        IllegalArgumentException.class, () -> new LlmProtocolBuilder().baseUrl("ftp://h"))
        .getMessage());
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> new LlmProtocolBuilder().header("Content-Length", "1")).getMessage()
        .startsWith("header 'Content-Length' is set by the client"));
    assertEquals("idleTimeout must be a positive duration, got PT0S", assertThrows(
        IllegalArgumentException.class,
        () -> new LlmProtocolBuilder().idleTimeout(Duration.ZERO)).getMessage());
    assertEquals("maxConcurrency must be >= 1, got 0", assertThrows(
        IllegalArgumentException.class, () -> new LlmProtocolBuilder().maxConcurrency(0))
        .getMessage());
  }

  @Test
  void maxConcurrencyComesFromTheProfileAndMustAgree() {
    ArrivalProfile capped = ArrivalProfile.builder().numPrompts(10).maxConcurrency(4).build();
    assertEquals(4, base(Map.of()).arrivals(capped).protocol().maxConcurrency().orElseThrow());
    assertEquals(4, base(Map.of()).arrivals(capped).maxConcurrency(4).protocol()
        .maxConcurrency().orElseThrow());
    assertThrows(IllegalArgumentException.class,
        () -> base(Map.of()).arrivals(capped).maxConcurrency(8).protocol());
  }

  @Test
  void serverMetricsAreScrapedAtTheRootOfTheHostForTheVllmBackendOnly() {
    LlmProtocolBuilder b = base(Map.of()).baseUrl("https://gpu-box:8443/v1");
    assertEquals(java.net.URI.create("https://gpu-box:8443/metrics"),
        b.protocol().serverMetrics().orElseThrow(), "the path prefix is the API's, not /metrics'");
    assertTrue(b.backend("openai").protocol().serverMetrics().isEmpty(), "off for other labels");
    assertTrue(b.backend("my-label").protocol().serverMetrics().isEmpty(), "off for unknown ones");
    assertEquals(java.net.URI.create("https://gpu-box:8443/metrics"),
        b.backend("openai").backend("VLLM").protocol().serverMetrics().orElseThrow(),
        "the label is read in any case, as before");
    assertEquals(java.net.URI.create("http://prom:9090/federate"), b.backend("sglang")
        .serverMetrics("http://prom:9090/federate").protocol().serverMetrics().orElseThrow());
    assertEquals(java.net.URI.create("https://gpu-box:8443/stats"),
        b.serverMetrics("/stats").protocol().serverMetrics().orElseThrow());
    assertTrue(b.noServerMetrics().protocol().serverMetrics().isEmpty());
    assertThrows(IllegalArgumentException.class, () -> b.serverMetrics("ftp://x/metrics"));
  }

  @Test
  void gpuMetricsAreTheExportersGivenEachWithMetricsWhenNoPathIsGiven() {
    LlmProtocolBuilder b = base(Map.of()).baseUrl("http://gpu-box:8000");
    assertTrue(b.protocol().gpuMetrics().isEmpty(), "none unless asked");
    assertEquals(java.util.List.of(java.net.URI.create("http://node-a:9400/metrics"),
            java.net.URI.create("https://node-b:9400/dcgm")),
        b.gpuMetrics("http://node-a:9400").gpuMetrics("https://node-b:9400/dcgm").protocol()
            .gpuMetrics(), "in the order given, a bare host gets /metrics");
    assertTrue(b.gpuMetrics("http://n:9400/metrics").noServerMetrics().protocol()
        .serverMetrics().isEmpty(), "no link to the server's own metrics");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> b.gpuMetrics("/metrics"));
    assertTrue(e.getMessage().contains("http://gpu-node:9400/metrics"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> b.gpuMetrics("ftp://n/metrics"));
    assertThrows(IllegalArgumentException.class, () -> b.gpuMetrics(" "));
  }

  @Test
  void liveFiguresAreOffUntilOtlpIsCalledAndTakeTheEnvironmentAsDefaults() {
    Map<String, String> env = Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318",
        "OTEL_EXPORTER_OTLP_HEADERS", "Authorization=Bearer%20" + SECRET,
        "OTEL_METRIC_EXPORT_INTERVAL", "2000");
    assertTrue(base(env).protocol().otlp().isEmpty(), "a variable alone turns nothing on");

    var fromEnv = base(env).otlp("env").protocol().otlp().orElseThrow();
    assertEquals("http://collector:4318/v1/metrics", fromEnv.endpoint().toString());
    assertEquals(Map.of("Authorization", "Bearer " + SECRET), fromEnv.headers());
    assertEquals(Duration.ofSeconds(2), fromEnv.interval());
    assertFalse(base(env).otlp("env").protocol().toString().contains(SECRET));

    var given = base(env).otlp("http://127.0.0.1:4318", Duration.ofSeconds(1)).protocol()
        .otlp().orElseThrow();
    assertEquals("http://127.0.0.1:4318/v1/metrics", given.endpoint().toString());
    assertEquals(Duration.ofSeconds(1), given.interval(), "the DSL's interval wins");
  }

  @Test
  void aBadOtlpEndpointIsRefusedAtTheCall() {
    LlmProtocolBuilder b = base(Map.of());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> b.otlp("localhost:4318"))
        .getMessage().startsWith("otlp endpoint: an http:// or https:// URL"));
    assertThrows(IllegalArgumentException.class, () -> b.otlp(" "));
    assertThrows(IllegalArgumentException.class,
        () -> b.otlp("http://127.0.0.1:4318", Duration.ZERO));
    assertEquals("otlp endpoint env: neither OTEL_EXPORTER_OTLP_METRICS_ENDPOINT nor "
        + "OTEL_EXPORTER_OTLP_ENDPOINT is set", assertThrows(IllegalArgumentException.class,
            () -> b.otlp("env").protocol()).getMessage());
  }
}
