package dev.gatlingllm.bench;

import static dev.gatlingllm.LlmDsl.arrivals;
import static dev.gatlingllm.LlmDsl.awaitArrival;
import static dev.gatlingllm.LlmDsl.completions;
import static dev.gatlingllm.LlmDsl.llm;
import static dev.gatlingllm.LlmDsl.results;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import dev.gatlingllm.LlmDsl;
import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.dataset.Datasets;
import dev.gatlingllm.dataset.Samples;
import dev.gatlingllm.internal.metrics.RecordSource;
import dev.gatlingllm.internal.metrics.RequestRecord;
import dev.gatlingllm.internal.protocol.LlmRun;
import dev.gatlingllm.tokenizer.Tokenizer;
import io.gatling.javaapi.core.Simulation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One rung of {@link ClientTruthBenchmark}, run by the benchmark through a plain
 * {@code ./mvnw gatling:test}, so that what is measured is what a user runs: the JVM the
 * Gatling plugin forks with the flags of this project's pom, and the plugin's defaults
 * (warm-up included). vLLM's random dataset (GPT-2 tokens), streamed completions with
 * {@code ignore_eos}, an arrival profile with an optional max concurrency.
 *
 * <p>Properties: {@code truth.baseUrl}, {@code truth.numPrompts}, {@code truth.rate}
 * ({@code inf} or req/s), {@code truth.burstiness}, {@code truth.maxConcurrency} (0 = none),
 * {@code truth.inputLen}, {@code truth.outputLen}, {@code truth.out} (path prefix: the
 * per-request CSV goes to {@code <out>-client.csv}, this JVM's pid to {@code <out>.pid}).
 *
 * <p>After the run it writes one CSV line per request, before the plugin's own results:
 * request id, scheduled and start times ({@link System#nanoTime()}), TTFT in ns, success, and
 * the content-chunk offsets in µs.
 */
public class ClientTruthSimulation extends Simulation {

  private final Path out = Path.of(System.getProperty("truth.out", "target/truth/rung"));

  {
    writePid();
    String rateText = System.getProperty("truth.rate", "inf");
    double rate = rateText.equals("inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(rateText);
    int numPrompts = Integer.getInteger("truth.numPrompts", 64);
    int maxConcurrency = Integer.getInteger("truth.maxConcurrency", 0);
    int outputLen = Integer.getInteger("truth.outputLen", 128);
    Samples prompts = Datasets.random()
        .inputLen(Integer.getInteger("truth.inputLen", 64))
        .outputLen(outputLen)
        .numPrompts(numPrompts)
        .seed(0)
        .sample(Tokenizer.gpt2());
    ArrivalProfile.Builder profile = arrivals()
        .numPrompts(numPrompts)
        .requestRate(rate)
        .burstiness(Double.parseDouble(System.getProperty("truth.burstiness", "1")))
        .seed(0);
    if (maxConcurrency > 0) {
      profile = profile.maxConcurrency(maxConcurrency);
    }
    ArrivalProfile arrivals = profile.build();
    var protocol = llm()
        .baseUrl(System.getProperty("truth.baseUrl", "http://127.0.0.1:8000"))
        .model(System.getProperty("truth.model", ClientTruthBenchmark.MODEL))
        .arrivals(arrivals)
        .results(results().label("truth"));
    setUp(scenario("truth")
            .feed(prompts.feeder())
            .exec(awaitArrival())
            .exec(completions("truth").fromDataset().ignoreEos(true))
            .injectOpen(protocol.injection()))
        .protocols(protocol);
  }

  @Override
  public void after() {
    LlmRun.current().ifPresent(run -> writeRecords(run.parts().requests().store().snapshot()));
    LlmDsl.writeResults(this);
  }

  private void writePid() {
    try {
      Files.createDirectories(out.toAbsolutePath().getParent());
      Files.writeString(Path.of(out + ".pid"), Long.toString(ProcessHandle.current().pid()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void writeRecords(RecordSource records) {
    try (Writer w = Files.newBufferedWriter(Path.of(out + "-client.csv"), StandardCharsets.UTF_8)) {
      for (int i = 0; i < records.size(); i++) {
        RequestRecord r = records.record(i);
        w.write(r.requestId() + "," + r.scheduledNanos() + "," + r.startNanos() + ","
            + r.ttftNanos() + "," + r.success() + ",");
        int[] chunks = r.chunkMicros();
        for (int j = 0; j < chunks.length; j++) {
          w.write(j == 0 ? "" : ";");
          w.write(Integer.toString(chunks[j]));
        }
        w.write('\n');
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
