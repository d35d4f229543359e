package dev.gatlingllm.internal.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.client.Target;
import dev.gatlingllm.internal.client.TargetChooser;
import dev.gatlingllm.internal.protocol.LlmProtocol;
import dev.gatlingllm.protocol.LlmProtocolBuilder;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code --base-url} given more than once and {@code --base-url-strategy}, from the command
 * line to the protocol, and the DSL's {@code baseUrls} / {@code baseUrlStrategy} they build.
 */
class ReplicaFlagsTest {

  private static BenchPlan plan(String line) {
    return BenchPlan.of(BenchArgs.parse(CommandLine.split(line)));
  }

  private static String error(String line) {
    return assertThrows(IllegalArgumentException.class, () -> plan(line)).getMessage();
  }

  @Test
  void eachBaseUrlIsAReplicaInTheOrderGiven() {
    BenchPlan plan = plan("--model m --base-url http://a:8000/ --base-url https://b/v1 "
        + "--base-url-strategy least-in-flight");
    assertEquals(List.of("http://a:8000", "https://b/v1"), plan.baseUrls());
    assertEquals("http://a:8000", plan.baseUrl(), "the first answers /tokenize and the profiler");
    LlmProtocol protocol = plan.protocol().protocol();
    assertEquals(List.of(Target.parse("http://a:8000"), Target.parse("https://b/v1")),
        protocol.targets());
    assertEquals(TargetChooser.Strategy.LEAST_IN_FLIGHT, protocol.targetStrategy());
    assertTrue(protocol.severalTargets());
  }

  @Test
  void oneBaseUrlIsOneServerAsBefore() {
    LlmProtocol protocol = plan("--model m --base-url http://a:8000 "
        + "--base-url-strategy least-in-flight").protocol().protocol();
    assertEquals(List.of(Target.parse("http://a:8000")), protocol.targets());
    assertTrue(!protocol.severalTargets());
    // without --base-url: --host and --port, as vLLM
    assertEquals(List.of("http://h:9"), plan("--model m --host h --port 9").baseUrls());
  }

  @Test
  void aWrongReplicaOrStrategyIsRefusedNamingItsFlag() {
    assertEquals("--base-url-strategy: unknown base URL strategy 'random': use round-robin or "
        + "least-in-flight", error("--model m --base-url http://a --base-url-strategy random"));
    String twice = error("--model m --base-url http://a:8000 --base-url http://a:8000/");
    assertTrue(twice.startsWith("--base-url: baseUrls: http://a:8000") && twice.contains("twice"),
        twice);
    assertEquals("--base-url 'ftp://b' must start with http:// or https://",
        error("--model m --base-url http://a --base-url ftp://b"));
  }

  @Test
  void aiperfsNameForTheStrategyPointsToOurs() {
    assertEquals("unknown flag --url-strategy; did you mean --base-url-strategy?",
        BenchFlagSpec.unknownFlag("--url-strategy"));
  }

  @Test
  void theDslScrapesEveryReplicasMetricsWithTheVllmBackend() {
    LlmProtocol protocol = new LlmProtocolBuilder().baseUrls("http://a:8000", "http://b:8001")
        .model("m").protocol();
    assertEquals(List.of(URI.create("http://a:8000/metrics"), URI.create("http://b:8001/metrics")),
        protocol.serverMetricsEndpoints());
    assertEquals(URI.create("http://a:8000/metrics"), protocol.serverMetrics().orElseThrow());
    assertEquals(TargetChooser.Strategy.ROUND_ROBIN, protocol.targetStrategy());
    // a full URL is that one endpoint
    assertEquals(List.of(URI.create("http://m:9090/metrics")), new LlmProtocolBuilder()
        .baseUrls("http://a:8000", "http://b:8001").serverMetrics("http://m:9090/metrics")
        .model("m").protocol().serverMetricsEndpoints());
    assertThrows(IllegalArgumentException.class, () -> new LlmProtocolBuilder().baseUrls());
    assertThrows(IllegalArgumentException.class,
        () -> new LlmProtocolBuilder().baseUrlStrategy("fastest"));
  }
}
