package dev.gatlingllm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.cli.BenchServe;
import dev.gatlingllm.internal.cli.CommandLine;
import dev.gatlingllm.internal.flags.BenchFlags;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.report.RecordLog;
import dev.gatlingllm.internal.report.RecordLogReader;
import dev.gatlingllm.sim.RecordedRequest;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.testing.StrictServer;
import dev.gatlingllm.testing.TeeOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.sound.sampled.AudioFileFormat;
import javax.sound.sampled.AudioSystem;
import javax.sound.sampled.UnsupportedAudioFileException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a run reads from the answers' usage and the requests' audio, against the strict
 * simulator: {@code results().reportCachedTokens(true)} sums the prompt tokens its prefix
 * cache held (vLLM's {@code --report-cached-tokens}, a pull request still open, is refused), as
 * its own {@code vllm:prefix_cache_hits} counts them, and {@code rtfx} is the seconds of
 * audio sent per second of the run, the clips' lengths read here with the JDK's own audio
 * reader.
 */
@Timeout(180)
class UsageDetailsIntegrationTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  // no ready check: every request the server sees is one of the run's
  private static final String COMMON = "--model served-llm --tokenizer datasets/tokenizers/gpt2 "
      + "--save-result --seed 1 --ready-check-timeout-sec 0 --request-rate inf ";

  @TempDir
  Path results;

  private record Run(GatlingRunner.Result result, String console, JsonNode json) {}

  private Run bench(String args) throws IOException {
    PrintStream original = System.out;
    ByteArrayOutputStream copy = new ByteArrayOutputStream();
    System.setOut(new PrintStream(new TeeOutputStream(original, copy), true,
        StandardCharsets.UTF_8));
    GatlingRunner.Result result;
    try {
      result = GatlingRunner.run(BenchServe.class, results, Map.of(CommandLine.ARGS_PROPERTY,
          args, "llm.resultsFolder", results.toString()));
    } finally {
      Thread.interrupted();
      System.setOut(original);
    }
    assertEquals(0, result.exitCode());
    try (Stream<Path> files = Files.list(result.runFolder())) {
      List<Path> json = files.filter(p -> p.toString().endsWith(".json")
          && !p.toString().endsWith(".pytorch.json")).toList();
      assertEquals(1, json.size(), json.toString());
      return new Run(result, copy.toString(StandardCharsets.UTF_8),
          JSON.readTree(json.get(0).toFile()));
    }
  }

  private Run simulation(Class<? extends io.gatling.javaapi.core.Simulation> simulation,
      Map<String, String> properties) throws IOException {
    Map<String, String> all = new java.util.HashMap<>(properties);
    all.put("llm.resultsFolder", results.toString());
    PrintStream original = System.out;
    ByteArrayOutputStream copy = new ByteArrayOutputStream();
    System.setOut(new PrintStream(new TeeOutputStream(original, copy), true,
        StandardCharsets.UTF_8));
    GatlingRunner.Result result;
    try {
      result = GatlingRunner.run(simulation, results, all);
      // a simulation without after() has its results written when the run is over
      GatlingRunner.writeResults(simulation, results);
    } finally {
      Thread.interrupted();
      System.setOut(original);
    }
    assertEquals(0, result.exitCode());
    try (Stream<Path> files = Files.list(result.runFolder())) {
      List<Path> json = files.filter(p -> p.toString().endsWith(".json")
          && !p.toString().endsWith(".pytorch.json")).toList();
      assertEquals(1, json.size(), json.toString());
      return new Run(result, copy.toString(StandardCharsets.UTF_8),
          JSON.readTree(json.get(0).toFile()));
    }
  }

  /** The simulator's {@code vllm:prefix_cache_hits_total}, read as a scraper would. */
  private static long prefixHits(Simulator sim) throws IOException, InterruptedException {
    String text = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
            URI.create(sim.baseUrl() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString())
        .body();
    return text.lines().filter(l -> l.startsWith("vllm:prefix_cache_hits_total"))
        .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
        .sum();
  }

  @Test
  void cachedTokensAreTheServersPrefixCacheHits() throws Exception {
    try (Simulator sim = Simulator.start(StrictServer.builder().ttft(Duration.ofMillis(5))
        .itl(Duration.ofMillis(1)).jitter(0).promptTokensDetails(true).build())) {
      // a simulation asks for the figure: vLLM's flag is a pull request still open
      Run run = simulation(CachedTokensItSimulation.class, Map.of(
          CachedTokensItSimulation.BASE_URL, sim.baseUrl()));
      long cached = run.json().get("total_cached_tokens").asLong();
      assertEquals(prefixHits(sim), cached, run.json().toString());
      assertTrue(cached > 0, "the prompts after the first find the prefix cached");
      assertTrue(cached < run.json().get("total_input_tokens").asLong());
      assertTrue(run.console().contains(String.format("%-40s %-10d", "Total cached tokens:",
          cached)), run.console());
      // each request's own count travels in the record log
      List<RequestRecord> records =
          RecordLogReader.read(run.result().file(RecordLog.FILE_NAME)).records();
      assertEquals(12, records.size());
      assertEquals(cached, records.stream().mapToLong(RequestRecord::cachedTokens).sum());
      assertEquals(0, records.stream().filter(r -> r.cachedTokens() < 0).count());
    }
  }

  @Test
  void vllmsOpenPullRequestsFlagIsRefusedWithWhereTheFigureIs() {
    String why = BenchFlags.find("--report-cached-tokens").orElseThrow().note();
    assertTrue(why.contains("pull request 51155") && why.contains("reportCachedTokens(true)"),
        why);
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = dev.gatlingllm.launcher.GatlingLlm.run(new String[] {"bench", "serve",
        "--model", "served-llm", "--report-cached-tokens"}, new PrintStream(
            new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(2, status);
    assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("gatling-llm bench serve: "
        + "--report-cached-tokens is not supported: not in vLLM: its pull request 51155"),
        err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void withoutTheFlagNoCachedTokensAreReported() throws Exception {
    try (Simulator sim = Simulator.start(StrictServer.builder().ttft(Duration.ofMillis(5))
        .itl(Duration.ofMillis(1)).jitter(0).build())) {
      Run run = bench(COMMON + "--dataset-name random --random-input-len 40 "
          + "--random-output-len 4 --num-prompts 3 --base-url " + sim.baseUrl());
      assertFalse(run.json().has("total_cached_tokens"), run.json().toString());
      assertFalse(run.console().contains("Total cached tokens"));
      // no audio: no rtfx key (newest vLLM writes 0.0) and no RTFx line (as vLLM)
      assertFalse(run.json().has("rtfx"), run.json().toString());
      assertFalse(run.console().contains("RTFx"));
    }
  }

  @Test
  void rtfxIsTheAudioSentPerSecondOfTheRun() throws Exception {
    try (Simulator sim = Simulator.start(StrictServer.builder().ttft(Duration.ofMillis(5))
        .itl(Duration.ofMillis(1)).jitter(0).recordRequests(true).build())) {
      Run run = bench(COMMON + "--backend openai-audio --dataset-name hf --dataset-path "
          + "datasets/hf/asr_sample.parquet --hf-output-len 4 --num-prompts 3 --ignore-eos "
          + "--base-url " + sim.baseUrl());
      List<RecordedRequest> sent = StrictServer.runRequests(sim);
      assertEquals(3, sent.size());
      double audioSeconds = 0;
      for (RecordedRequest r : sent) {
        audioSeconds += seconds(wavPart(r.body()));
      }
      assertTrue(audioSeconds > 0);
      JsonNode doc = run.json();
      double expected = audioSeconds / doc.get("duration").asDouble();
      assertEquals(expected, doc.get("rtfx").asDouble(), expected * 1e-9, doc.toString());
      assertTrue(run.console().contains(String.format("%-40s %-10.2f",
          "RTFx (Inverse Real-Time Factor):", expected)), run.console());
    }
  }

  /** The uploaded file: from the first "RIFF" of the multipart body to its part's end. */
  private static byte[] wavPart(byte[] body) {
    String text = new String(body, StandardCharsets.ISO_8859_1);
    int from = text.indexOf("RIFF");
    int to = text.indexOf("\r\n--", from);
    return Arrays.copyOfRange(body, from, to);
  }

  private static double seconds(byte[] wav) throws IOException {
    try {
      AudioFileFormat format = AudioSystem.getAudioFileFormat(new ByteArrayInputStream(wav));
      return format.getFrameLength() / (double) format.getFormat().getFrameRate();
    } catch (UnsupportedAudioFileException e) {
      throw new AssertionError("not a WAV clip", e);
    }
  }
}
