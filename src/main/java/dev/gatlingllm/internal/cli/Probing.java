package dev.gatlingllm.internal.cli;

import dev.gatlingllm.action.Backends.Backend;
import dev.gatlingllm.internal.action.RequestPreview;
import dev.gatlingllm.dataset.SampleRequest;
import dev.gatlingllm.dataset.Samples;
import dev.gatlingllm.internal.protocol.RunParts;
import dev.gatlingllm.internal.protocol.ProbeRequests;
import dev.gatlingllm.internal.scale.ScaleOut;
import io.gatling.javaapi.core.ActionBuilder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.IntFunction;

/**
 * {@code --probe-request-rate R} of the drop-in (vLLM 0.29): R single-token requests a second
 * beside the run, outside {@code --max-concurrency}, each the next prompt of the run's dataset
 * (round and round) asking one output token, sent the way the run sends its requests (same
 * builder, model and fields; the served model rather than a LoRA adapter, as the ready check's
 * test request). Their figures are the {@code probe} object of the result, apart from the
 * benchmark's (see {@link ProbeRequests}).
 */
public final class Probing {

  private static final String FLAG = "probe-request-rate";

  private Probing() {}

  /**
   * The probe rate; empty when no probe is asked (vLLM's default 0).
   *
   * @throws IllegalArgumentException for a negative or infinite rate, or a backend whose
   *     answers have no first token to time (embeddings, rerank)
   */
  static OptionalDouble rate(BenchArgs args, Backend backend) {
    double rate = args.decimal(FLAG).orElse(0.0);
    if (rate < 0 || Double.isInfinite(rate)) {
      throw new IllegalArgumentException("--" + FLAG + " must be a finite number of probes a "
          + "second, 0 or more (0: no probe), got " + args.value(FLAG).orElse(""));
    }
    if (rate == 0) {
      return OptionalDouble.empty();
    }
    if (backend.pooling()) {
      throw new IllegalArgumentException("--" + FLAG + " with --backend " + backend.name()
          + ": probes time a first token, which pooling answers do not stream; leave it out");
    }
    if (ScaleOut.current().share().isSplit()) {
      // each injector would send R a second and the merge keeps one injector's probe object
      throw new IllegalArgumentException("--" + FLAG + " on a scaled-out run (injector "
          + ScaleOut.current().share() + "): every injector would send its own probes and the "
          + "merged result could not add them up; probe from a separate single run, or leave "
          + "it out");
    }
    return OptionalDouble.of(rate);
  }

  /**
   * Starts the probes of {@code run} when the plan asks for them.
   *
   * @param runRequests how many requests this injector's run records: the probes stop then
   */
  public static void start(BenchPlan plan, Samples samples, int runRequests, RunParts run) {
    OptionalDouble rate = rate(plan.args(), plan.backend());
    if (rate.isEmpty()) {
      return;
    }
    String prefix = plan.datasetFlags().value("request-id-prefix").orElseThrow() + "probe-";
    new ProbeRequests(rate.getAsDouble(), bodies(plan, samples.requests()), prefix, runRequests)
        .start(run);
  }

  /** Probe {@code k}'s request: prompt {@code k} modulo the dataset's size, one token asked. */
  static IntFunction<ProbeRequests.Body> bodies(BenchPlan plan, List<SampleRequest> prompts) {
    ActionBuilder request = plan.request();
    String model = plan.requestModelName();
    return k -> {
      SampleRequest prompt = prompts.get(k % prompts.size());
      Map<String, Object> record = new HashMap<>(prompt.toFeederRecord());
      record.put(SampleRequest.OUTPUT_LEN, 1);
      record.put(BenchPlan.LORA_ATTRIBUTE, model);
      RequestPreview.Rendered r = RequestPreview.render(request, record, model);
      return new ProbeRequests.Body(r.path(), r.body(), r.contentType(), prompt.promptLen(),
          r.reader());
    };
  }
}
