package dev.gatlingllm.bench;

import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import dev.gatlingllm.tokenizer.Tokenizer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * What the simulator's {@code --tokenizer} costs. First the count itself: a 1,024-token prompt
 * (random GPT-2 ids, decoded) counted with the shipped GPT-2 and by the default word rule.
 * Then what the streams see: 16 streams of 200 tokens at a 5 ms ITL on a one-thread simulator
 * while other clients send 1,024-token prompts ({@code bench.promptsPerSec}, default 50) whose
 * counting runs on the simulator's tokenizer thread; the streams' inter-chunk gaps, minus the
 * ITL, with the word rule and with GPT-2. Equal gaps mean the counting stays off the event
 * loop.
 *
 * <p>Measured on the shared 2-core host (other builds running): the count takes 2.1 ms median
 * (p99 2.6-3.5 ms) for 1,057 GPT-2 tokens (6,473 characters), the word rule 0.01-0.08 ms. The
 * streams' gap error has a median of 0.00 ms with either rule at 50 and 150 prompts/s, and p99
 * of 1.8-6.7 ms for both (the host's noise). Counted on the event loop instead (a throwaway
 * switch, same runs), the median gap error rose to 0.3-0.5 ms at 150 prompts/s: each count
 * holds every stream of the loop.
 *
 * <p>Run: {@code ./mvnw -B -q test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.gatlingllm.bench.SimulatorTokenizerBench}.
 */
public final class SimulatorTokenizerBench {

  private static final int PROMPT_TOKENS = 1_024;
  private static final int STREAMS = 16;
  private static final int OUTPUT = 200;
  private static final long ITL_MS = 5;
  private static final int PROMPTS_PER_SEC = Integer.getInteger("bench.promptsPerSec", 50);

  private SimulatorTokenizerBench() {}

  public static void main(String[] args) throws Exception {
    String prompt;
    try (Tokenizer gpt2 = Tokenizer.gpt2()) {
      int[] regular = gpt2.regularTokenIds();
      Random random = new Random(0);
      int[] ids = new int[PROMPT_TOKENS];
      for (int i = 0; i < ids.length; i++) {
        ids[i] = regular[random.nextInt(regular.length)];
      }
      prompt = gpt2.decode(ids);
      System.out.printf("prompt: %d GPT-2 tokens, %d characters, %d words%n", gpt2.count(prompt),
          prompt.length(), prompt.split("\\s+").length);
      for (int i = 0; i < 200; i++) {
        gpt2.count(prompt); // warm-up
      }
      double[] ms = new double[300];
      for (int i = 0; i < ms.length; i++) {
        long t0 = System.nanoTime();
        gpt2.count(prompt);
        ms[i] = (System.nanoTime() - t0) / 1e6;
      }
      Arrays.sort(ms);
      System.out.printf("GPT-2 count of the prompt: median %.2f ms, p99 %.2f ms%n",
          ms[ms.length / 2], ms[(int) (ms.length * 0.99)]);
    }
    double[] words = new double[300];
    for (int i = 0; i < words.length; i++) {
      long t0 = System.nanoTime();
      dev.gatlingllm.internal.sim.SimTokens.countPromptTokens(prompt);
      words[i] = (System.nanoTime() - t0) / 1e6;
    }
    Arrays.sort(words);
    System.out.printf("word count of the prompt: median %.3f ms%n", words[words.length / 2]);

    streams(null, prompt); // warm-up, not printed
    System.out.printf("%d streams x %d tokens, ITL %d ms, %d prompts/s of %d tokens beside them;"
        + " gap minus ITL, ms%n", STREAMS, OUTPUT, ITL_MS, PROMPTS_PER_SEC, PROMPT_TOKENS);
    System.out.printf("%-10s %8s %8s %8s %8s%n", "tokenizer", "p50", "p99", "p99.9", "max");
    for (String tokenizer : new String[] {null, "gpt2", null, "gpt2", null, "gpt2"}) {
      double[] gaps = streams(tokenizer, prompt);
      System.out.printf("%-10s %8.2f %8.2f %8.2f %8.2f%n", tokenizer == null ? "words" : tokenizer,
          gaps[gaps.length / 2], gaps[(int) (gaps.length * 0.99)],
          gaps[(int) (gaps.length * 0.999)], gaps[gaps.length - 1]);
    }
  }

  /** Sorted inter-chunk gaps minus the ITL of the streams, in ms. */
  private static double[] streams(String tokenizer, String prompt) throws Exception {
    SimulatorConfig config = SimulatorConfig.builder().ttft(Duration.ofMillis(5))
        .itl(Duration.ofMillis(ITL_MS)).tokenizer(tokenizer).build();
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    ScheduledExecutorService prompts = Executors.newSingleThreadScheduledExecutor();
    try (Simulator sim = Simulator.start(config)) {
      String body = "{\"prompt\":" + com.fasterxml.jackson.databind.json.JsonMapper.builder()
          .build().writeValueAsString(prompt) + ",\"max_tokens\":1}";
      HttpRequest promptRequest = HttpRequest.newBuilder(URI.create(sim.baseUrl()
              + "/v1/completions")).header("content-type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(body)).build();
      prompts.scheduleAtFixedRate(() -> client.sendAsync(promptRequest,
              HttpResponse.BodyHandlers.discarding()), 0, 1_000_000 / PROMPTS_PER_SEC,
          TimeUnit.MICROSECONDS);
      HttpRequest stream = HttpRequest.newBuilder(URI.create(sim.baseUrl() + "/v1/completions"))
          .header("content-type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString("{\"prompt\":\"hi\",\"max_tokens\":" + OUTPUT
              + ",\"stream\":true}")).build();
      List<CompletableFuture<List<Long>>> all = new ArrayList<>();
      for (int i = 0; i < STREAMS; i++) {
        all.add(client.sendAsync(stream, HttpResponse.BodyHandlers.ofLines())
            .thenApply(r -> r.body().filter(line -> line.startsWith("data: {"))
                .map(line -> System.nanoTime()).toList()));
      }
      List<Double> gaps = new ArrayList<>();
      for (CompletableFuture<List<Long>> f : all) {
        List<Long> times = f.get(60, TimeUnit.SECONDS);
        for (int i = 1; i < times.size(); i++) {
          gaps.add((times.get(i) - times.get(i - 1)) / 1e6 - ITL_MS);
        }
      }
      return gaps.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    } finally {
      prompts.shutdownNow();
    }
  }
}
