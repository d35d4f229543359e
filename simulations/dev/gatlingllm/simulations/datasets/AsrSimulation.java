package dev.gatlingllm.simulations.datasets;

import static dev.gatlingllm.LlmDsl.*;
import static io.gatling.javaapi.core.CoreDsl.*;

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

  {
    var samples = hf("datasets/hf/asr_sample.parquet")
        .hfName("openslr/librispeech_asr")
        .numPrompts(6)
        .sample(tokenizer(ExampleTarget.tokenizerId()));
    setUp(scenario("asr")
            .feed(samples.feeder())
            .exec(audio("asr").fromDataset().ignoreEos(true))
            .injectOpen(rampUsers(samples.size()).during(Duration.ofSeconds(2))))
        .protocols(llm()
            .baseUrl(ExampleTarget.baseUrl())
            .model(ExampleTarget.model())
            .backend("openai-audio")
            .results(results().label("asr")))
        .assertions(
            details("asr").allRequests().count().is((long) samples.size()),
            global().failedRequests().count().is(0L));
  }
}
