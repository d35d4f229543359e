package dev.gatlingllm.launcher;

import dev.gatlingllm.testing.StrictServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.internal.protocol.RunResults;
import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import dev.gatlingllm.testing.TeeOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The drop-in's modes that send nothing ({@code --dry-run}, {@code --compare}) and
 * {@code --plot-dataset-stats} of a real run, through {@code gatling-llm bench serve} against
 * the simulator.
 */
class OfflineModesLauncherTest {

  /** Where a page keeps its data (HtmlPage). */
  private static final Pattern DATA =
      Pattern.compile("<script type=\"application/json\" id=\"llm-data\">(.*?)</script>",
          Pattern.DOTALL);

  @TempDir
  Path dir;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private final ByteArrayOutputStream runConsole = new ByteArrayOutputStream();

  private int run(String... args) {
    out.reset();
    err.reset();
    System.setProperty(RunResults.RESULTS_FOLDER_PROPERTY, dir.resolve("results").toString());
    try {
      return GatlingLlm.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
          new PrintStream(err, true, StandardCharsets.UTF_8));
    } finally {
      System.clearProperty(RunResults.RESULTS_FOLDER_PROPERTY);
    }
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void dryRunPrintsTheSampleAndSendsNothing() throws Exception {
    try (Simulator sim = Simulator.start(StrictServer.builder().recordRequests(true)
        .build())) {
      int status = run("bench", "serve", "--base-url", sim.baseUrl(), "--model", "served-llm",
          "--tokenizer", "gpt2", "--dataset-name", "random", "--random-input-len", "32",
          "--random-output-len", "4", "--num-prompts", "5", "--seed", "3",
          "--ready-check-timeout-sec", "5", "--dry-run", "--result-dir", dir.toString());
      assertEquals(0, status, err());
      assertEquals(List.of(), sim.recordedRequests(), "the simulator saw no request");
      assertEquals(0, sim.connectionsAccepted(), "nor a connection");
    }
    List<String> lines = out().lines().toList();
    // random: every prompt exactly 32 tokens, every output 4
    assertTrue(lines.contains("Requests:" + " ".repeat(32) + "5"), out());
    assertEquals(List.of("160", "32", "32.00", "32.00", "32.00", "32"), after(lines,
        "Input tokens", 6));
    assertEquals(List.of("20", "4", "4.00", "4.00", "4.00", "4"), after(lines,
        "Output tokens", 6));
    assertTrue(out().contains("Nothing was sent (--dry-run)."), out());
    assertTrue(!out().contains("Prefix Sharing"), "random prompts share no prefix: " + out());
    Path chart = dir.resolve("dataset-stats.svg");
    assertTrue(out().contains(chart.toUri().toString()), out());
    String svg = Files.readString(chart);
    assertTrue(svg.startsWith("<svg") && svg.contains("random, 5 requests"), svg);
  }

  @Test
  void dryRunOfSharedPrefixesCountsThem() {
    // 6 prompts over 2 prefixes of 32 tokens: 4 prompts begin as an earlier one did
    int status = run("bench", "serve", "--model", "m", "--tokenizer", "gpt2",
        "--dataset-name", "prefix_repetition", "--prefix-repetition-prefix-len", "32",
        "--prefix-repetition-suffix-len", "16", "--prefix-repetition-num-prefixes", "2",
        "--prefix-repetition-output-len", "8", "--num-prompts", "6", "--dry-run",
        "--result-dir", dir.toString());
    assertEquals(0, status, err());
    List<String> lines = out().lines().toList();
    assertEquals(List.of("4"), after(lines, "Prefix Sharing", 1), out());
    // each of the 4 shares one or two 16-token blocks (the prefix's last token may merge
    // with the suffix's first when the whole prompt is tokenized)
    String shared = lines.stream().filter(l -> l.startsWith("Shared prefix tokens:"))
        .findFirst().orElseThrow();
    long tokens = Long.parseLong(shared.substring(40).trim().split(" ")[0]);
    assertTrue(tokens >= 4 * 16 && tokens <= 4 * 32, shared);
  }

  @Test
  void dryRunOfConversationsCountsEveryTurn() {
    // 4 conversations of 3 turns: 12 turns of 24 prompt tokens and 6 output tokens each
    int status = run("bench", "serve", "--model", "m", "--tokenizer", "gpt2",
        "--backend", "openai-chat", "--dataset-name", "random", "--multi-turn",
        "--multi-turn-num-turns", "3", "--per-turn-input-len", "24", "--random-output-len", "6",
        "--num-prompts", "4", "--dry-run", "--result-dir", dir.toString());
    assertEquals(0, status, err());
    List<String> lines = out().lines().toList();
    assertTrue(out().contains("Conversations (--multi-turn): 4, turns: 12;"), out());
    assertTrue(lines.contains("Requests:" + " ".repeat(32) + "12"), out());
    assertEquals(List.of("288", "24", "24.00", "24.00", "24.00", "24"), after(lines,
        "Input tokens", 6));
    assertEquals(List.of("72", "6", "6.00", "6.00", "6.00", "6"), after(lines,
        "Output tokens", 6));
  }

  @Test
  void dryRunWithoutModelIsRefusedSinceItWouldAskTheServer() {
    assertEquals(1, run("bench", "serve", "--tokenizer", "gpt2", "--dry-run"));
    assertTrue(err().contains("--dry-run needs --model"), err());
  }

  @Test
  void compareTwoRealRunsAndPlotTheDatasetOfOne() throws Exception {
    Path a = benchmark("a.json", Duration.ofMillis(2), "--plot-dataset-stats");
    Path runA = a.getParent();
    // --plot-dataset-stats: the chart beside the result, its address on the console
    assertTrue(Files.isRegularFile(runA.resolve("dataset-stats.svg")), runA.toString());
    String console = runConsole.toString(StandardCharsets.UTF_8);
    assertTrue(console.contains("Dataset statistics chart (--plot-dataset-stats): "
        + runA.resolve("dataset-stats.svg").toUri()), console);
    Path b = benchmark("b.json", Duration.ofMillis(8));

    Path pages = dir.resolve("pages");
    assertEquals(0, run("bench", "serve", "--compare", a.toString(), b.toString(),
        "--result-dir", pages.toString()), err());
    List<String> lines = out().lines().toList();
    // B's tokens come 4 times slower: its TPOT is worse, its throughput too
    assertEquals("worse", last(lines, "Mean TPOT (ms)"));
    assertEquals("worse", last(lines, "Output token throughput (tok/s)"));
    assertEquals("worse", last(lines, "Benchmark duration (s)"));
    // the same workload: totals are not judged
    List<String> total = words(lines, "Total input tokens");
    assertEquals(total.get(0), total.get(1));
    assertEquals("0", total.get(2));
    JsonNode resultA = new ObjectMapper().readTree(a.toFile());
    assertEquals(resultA.get("mean_tpot_ms").asDouble(), Double.parseDouble(
        words(lines, "Mean TPOT (ms)").get(0)), 0.005);
    assertTrue(out().contains("Nothing was sent (--compare)."), out());
    Matcher data = DATA.matcher(Files.readString(pages.resolve("compare.html")));
    assertTrue(data.find(), "the page's data");
    JsonNode page = new ObjectMapper().readTree(data.group(1));
    assertEquals(2, page.get("runs").size());
    JsonNode tpot = null;
    for (JsonNode row : page.get("differences")) {
      if (row.get("key").asText().equals("mean_tpot_ms")) {
        tpot = row;
      }
    }
    assertEquals("worse", tpot.at("/differences/0/verdict").asText(), "the page's row too");
  }

  @Test
  void compareNamesTheFileThatIsNotAResult() throws Exception {
    Path notAResult = Files.writeString(dir.resolve("settings.json"), "{\"model\": \"m\"}");
    Path missing = dir.resolve("missing.json");
    assertEquals(1, run("bench", "serve", "--compare", missing.toString(),
        notAResult.toString()));
    assertTrue(err().contains("--compare: " + missing + " does not exist"), err());
    Path notJson = Files.writeString(dir.resolve("notes.json"), "hello");
    assertEquals(1, run("bench", "serve", "--compare", notJson.toString(),
        notAResult.toString()));
    assertTrue(err().contains("--compare: " + notJson + " is not a vLLM result JSON"), err());
    assertEquals(1, run("bench", "serve", "--compare", notAResult.toString()));
    assertTrue(err().contains("--compare takes two result files"), err());
  }

  /** One real run against a simulator with this ITL; its result file. */
  private Path benchmark(String file, Duration itl, String... more) throws Exception {
    try (Simulator sim = Simulator.start(StrictServer.builder()
        .ttft(Duration.ofMillis(10)).itl(itl).build())) {
      List<String> args = new ArrayList<>(List.of("bench", "serve", "--base-url",
          sim.baseUrl(), "--model", "served-llm", "--tokenizer", "gpt2", "--dataset-name",
          "random", "--random-input-len", "32", "--random-output-len", "16", "--num-prompts",
          "8", "--seed", "5", "--max-concurrency", "2", "--save-result", "--result-filename",
          file, "--disable-tqdm"));
      args.addAll(Arrays.asList(more));
      // the simulation prints to the JVM's console, as Gatling does
      PrintStream console = System.out;
      System.setOut(new PrintStream(new TeeOutputStream(console, runConsole), true,
          StandardCharsets.UTF_8));
      try {
        assertEquals(0, run(args.toArray(String[]::new)), err());
      } finally {
        System.setOut(console);
      }
    }
    try (Stream<Path> found = Files.walk(dir.resolve("results"))) {
      return found.filter(p -> p.getFileName().toString().equals(file)).findFirst()
          .orElseThrow();
    }
  }

  /** The values of the {@code count} lines after the block titled {@code title}. */
  private static List<String> after(List<String> lines, String title, int count) {
    int at = 0;
    while (!lines.get(at).contains(title)) {
      at++;
    }
    return lines.subList(at + 1, at + 1 + count).stream()
        .map(l -> l.substring(40).trim()).toList();
  }

  /** The values after a label of the comparison table: A, B, delta, %, verdict. */
  private static List<String> words(List<String> lines, String label) {
    String line = lines.stream().filter(l -> l.startsWith(label)).findFirst()
        .orElseThrow(() -> new AssertionError(label + " not in " + lines));
    return Arrays.asList(line.substring(label.length()).trim().split("\\s+"));
  }

  private static String last(List<String> lines, String label) {
    List<String> w = words(lines, label);
    return w.get(w.size() - 1);
  }
}
