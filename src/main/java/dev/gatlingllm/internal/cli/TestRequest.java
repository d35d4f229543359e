package dev.gatlingllm.internal.cli;

import dev.gatlingllm.internal.action.RequestPreview;
import dev.gatlingllm.dataset.SampleRequest;
import java.util.HashMap;
import java.util.Map;

/**
 * vLLM's "initial test run" request: the first sampled prompt, sent the way the run sends
 * its requests (same model, fields and sampling values) but without a request id. The ready
 * check polls with it and {@code --profile} posts it to the profiler endpoints, as vLLM does.
 * It is built by the run's own request builder ({@link RequestPreview}), so the two cannot
 * differ; {@code BenchServeIntegrationTest} checks it against the run's first request.
 */
public final class TestRequest {

  private TestRequest() {}

  public static RequestPreview.Rendered of(BenchPlan plan, SampleRequest first) {
    Map<String, Object> record = new HashMap<>(first.toFeederRecord());
    // vLLM's test request names the served model even when LoRA modules are drawn
    record.put(BenchPlan.LORA_ATTRIBUTE, plan.requestModelName());
    return RequestPreview.render(plan.request(), record, plan.requestModelName());
  }
}
