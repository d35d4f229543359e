package dev.gatlingllm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.cli.BenchServe;
import dev.gatlingllm.internal.cli.CommandLine;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.testing.OtlpReceiver;
import dev.gatlingllm.testing.StrictServer;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The drop-in's {@code --otlp-endpoint} against an OTLP receiver in the test (no collector
 * installed): what a dashboard receives is the run's result (completed, failed, tokens, one
 * TTFT and E2EL per completed request, every ITL), labelled with the model; a collector that is
 * not there is one warning in a normal run; headers from {@code OTEL_EXPORTER_OTLP_HEADERS}
 * reach the collector and nothing else; and a run without the flag loads no class of
 * OpenTelemetry (issue 38 counts start-up time and memory).
 */
@Timeout(300)
class LiveFiguresIntegrationTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SECRET = "Bearer%20live-figures-s3cret";
  private static final String COMMON = "--backend openai-chat --model " + StrictServer.MODEL
      + " --tokenizer datasets/tokenizers/gpt2 --dataset-name random --random-input-len 16"
      + " --random-output-len 6 --request-rate 20 --seed 3 --save-result ";

  @TempDir
  Path results;

  /** A drop-in run in this JVM, and the plugin's log lines during it. */
  private record Logged(CapturedBench.Run run, List<String> log) {

    long lines(String containing) {
      return log.stream().filter(l -> l.contains(containing)).count();
    }
  }

  private Logged bench(String args) throws Exception {
    // logback's console appender keeps the console of the JVM's first run: read the events
    Logger plugin = (Logger) LoggerFactory.getLogger("dev.gatlingllm");
    ListAppender<ILoggingEvent> log = new ListAppender<>();
    log.start();
    plugin.addAppender(log);
    try {
      CapturedBench.Run run = CapturedBench.run(results.resolve("run"), COMMON + args);
      return new Logged(run, log.list.stream().map(ILoggingEvent::getFormattedMessage).toList());
    } finally {
      plugin.detachAppender(log);
    }
  }

  private static Simulator server() {
    return Simulator.start(StrictServer.builder().ttft(Duration.ofMillis(5))
        .itl(Duration.ofMillis(2)).build());
  }

  @Test
  void theCollectorReceivesTheResultsFiguresLabelledWithTheModel() throws Exception {
    try (OtlpReceiver receiver = new OtlpReceiver(); Simulator sim = server()) {
      Logged logged = bench("--num-prompts 24 --save-detailed --otlp-endpoint "
          + receiver.baseUrl() + " --base-url " + sim.baseUrl());
      JsonNode json = logged.run().json();
      int completed = json.get("completed").asInt();
      assertEquals(24, completed, "the run itself is unchanged");
      assertEquals(completed, number(receiver, "requests.completed"));
      assertEquals(json.get("failed").asLong(), number(receiver, "requests.failed"));
      assertEquals(24, number(receiver, "requests.started"));
      assertEquals(0, number(receiver, "requests.in_flight"), "all over at the last export");
      assertEquals(json.get("total_output_tokens").asLong(), number(receiver, "tokens.output"));
      assertEquals(json.get("total_input_tokens").asLong(), number(receiver, "tokens.input"));

      HistogramDataPoint ttft = receiver.lastHistogram("gatling_llm.ttft").orElseThrow();
      assertEquals(completed, ttft.getCount());
      double ttftSum = 0;
      for (JsonNode t : json.get("ttfts")) {
        ttftSum += t.asDouble();
      }
      assertEquals(ttftSum, ttft.getSum(), 1e-6, "the same TTFTs, in seconds");
      assertEquals(completed, receiver.lastHistogram("gatling_llm.e2el").orElseThrow()
          .getCount());
      long itls = 0;
      for (JsonNode perRequest : json.get("itls")) {
        itls += perRequest.size();
      }
      assertEquals(itls, receiver.lastHistogram("gatling_llm.itl").orElseThrow().getCount());

      assertEquals(StrictServer.MODEL, OtlpReceiver.attribute(ttft.getAttributesList(),
          "model"));
      assertEquals(json.get("backend").asText(), OtlpReceiver.attribute(
          ttft.getAttributesList(), "backend"));
      assertFalse(OtlpReceiver.attribute(ttft.getAttributesList(), "run_id").isEmpty());
      NumberDataPoint grade = receiver.lastNumber("gatling_llm.selfcheck.grade").orElseThrow();
      assertEquals(json.get("client_self_check").get("grade").asText(),
          OtlpReceiver.attribute(grade.getAttributesList(), "grade"));
      assertTrue(receiver.lastNumber("gatling_llm.selfcheck.loop_lag.p99").isPresent(),
          "the self-check's lag, live");
      assertEquals(1, logged.lines("live figures: exporting over OTLP to "
          + receiver.baseUrl() + "/v1/metrics every 5.0 s"), logged.log().toString());
      assertEquals(0, logged.lines("live figures: cannot"), logged.log().toString());
    }
  }

  @Test
  void aCollectorThatIsNotThereIsOneWarningInANormalRun() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    try (Simulator sim = server()) {
      Logged logged = bench("--num-prompts 12 --otlp-endpoint http://127.0.0.1:" + port
          + " --base-url " + sim.baseUrl());
      assertEquals(12, logged.run().json().get("completed").asInt());
      assertEquals(1, logged.lines("live figures: cannot export to http://127.0.0.1:" + port
          + "/v1/metrics"), logged.log().toString());
      assertEquals(1, logged.lines("live figures:") - 1, "the start line, then only the "
          + "warning: " + logged.log());
    }
  }

  @Test
  void headersFromTheEnvironmentReachTheCollectorAndNoLog() throws Exception {
    try (OtlpReceiver receiver = new OtlpReceiver(); Simulator sim = server()) {
      ForkedGatling.Result forked = ForkedGatling.run(BenchServe.class, results,
          List.of("-verbose:class"),
          Map.of(CommandLine.ARGS_PROPERTY, COMMON + "--num-prompts 6 --otlp-endpoint env"
              + " --base-url " + sim.baseUrl()),
          Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.baseUrl(),
              "OTEL_EXPORTER_OTLP_HEADERS", "Authorization=" + SECRET),
          results.resolve("console.txt"));
      assertEquals(0, forked.exitCode(), tail(forked.output()));
      assertFalse(receiver.exports().isEmpty(), tail(forked.output()));
      assertEquals(List.of("Bearer live-figures-s3cret"), receiver.exports().get(0).headers()
          .get("Authorization"));
      assertEquals(6, number(receiver, "requests.completed"));
      // the detector of the next test sees the SDK when it is loaded
      assertTrue(forked.output().contains("io.opentelemetry.sdk.metrics.SdkMeterProvider"),
          "-verbose:class lists loaded classes");
      assertTrue(forked.output().contains("exporting over OTLP to " + receiver.baseUrl()
          + "/v1/metrics every 5.0 s with headers [Authorization]"), tail(forked.output()));
      for (Path file : files(results)) {
        String text = Files.readString(file, StandardCharsets.ISO_8859_1);
        assertFalse(text.contains("live-figures-s3cret"), "the header's value in " + file);
      }
    }
  }

  @Test
  void aRunWithoutTheFlagLoadsNoClassOfOpenTelemetry() throws Exception {
    try (Simulator sim = server()) {
      ForkedGatling.Result forked = ForkedGatling.run(BenchServe.class, results,
          List.of("-verbose:class"),
          Map.of(CommandLine.ARGS_PROPERTY, COMMON + "--num-prompts 6 --base-url "
              + sim.baseUrl()),
          Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:9"),
          results.resolve("console.txt"));
      assertEquals(0, forked.exitCode(), tail(forked.output()));
      assertTrue(forked.output().contains("dev.gatlingllm.internal.protocol.RunMeasures"),
          "-verbose:class lists loaded classes");
      List<String> loaded = forked.output().lines()
          .filter(l -> l.contains("io.opentelemetry")).toList();
      assertEquals(List.of(), loaded, "a variable alone does not turn the export on");
    }
  }

  private static long number(OtlpReceiver receiver, String name) {
    return receiver.lastNumber("gatling_llm." + name).orElseThrow(
        () -> new AssertionError(name + " was not exported")).getAsInt();
  }

  private static List<Path> files(Path root) throws IOException {
    try (Stream<Path> all = Files.walk(root)) {
      return all.filter(Files::isRegularFile).toList();
    }
  }

  private static String tail(String output) {
    List<String> lines = output.lines().filter(l -> !l.startsWith("[")).toList();
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
  }
}
