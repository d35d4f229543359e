package dev.gatlingllm.simulations.datasets;

import static dev.gatlingllm.LlmDsl.audio;
import static dev.gatlingllm.LlmDsl.llm;
import static dev.gatlingllm.LlmDsl.results;
import static io.gatling.javaapi.core.CoreDsl.details;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.rampUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import dev.gatlingllm.LlmDsl;
import dev.gatlingllm.dataset.Datasets;
import dev.gatlingllm.dataset.HfDataset;
import dev.gatlingllm.dataset.Samples;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;

/**
 * Speech recognition: {@code vllm bench serve --backend openai-audio --endpoint
 * /v1/audio/transcriptions --dataset-name hf --dataset-path openslr/librispeech_asr
 * --hf-subset clean --hf-split test --num-prompts 6}, here from the shipped sample in the
 * hub's Parquet layout (WAV clips; the hub's LibriSpeech audio is FLAC, which has to be
 * converted to WAV first, see docs/datasets.md).
 *
 * <p>Each clip is uploaded as a WAV file from the feeder key {@code audio}; the prompt length
 * is that of Whisper's transcription preamble, as vLLM counts it.
 *
 * <pre>
 * ./mvnw -B gatling:test -Dgatling.simulationClass=dev.gatlingllm.simulations.datasets.AsrSimulation
 * </pre>
 * Add {@code -Dllm.baseUrl=... -Dllm.model=... -Dllm.tokenizer=...} for a real server
 * (see {@link ExampleTarget}).
 */
public class AsrSimulation extends Simulation {

  public static final HfDataset DATASET =
      Datasets.hf("datasets/hf/asr_sample.parquet")
          .hfName("openslr/librispeech_asr")
          .numPrompts(6);

  private final ExampleTarget target = ExampleTarget.fromSystemProperties();
  private final Samples samples = DATASET.sample(target.tokenizer());

  {
    setUp(scenario("asr")
            .feed(samples.feeder())
            .exec(audio("asr").fromDataset().ignoreEos(true))
            .injectOpen(rampUsers(samples.size()).during(Duration.ofSeconds(2))))
        .protocols(llm()
            .baseUrl(target.baseUrl())
            .model(target.model())
            .backend("openai-audio")
            .results(results().label("asr")))
        .assertions(
            details("asr").allRequests().count().is((long) samples.size()),
            global().failedRequests().count().is(0L));
  }

  @Override
  public void after() {
    LlmDsl.writeResults(this);
    target.close();
  }
}
