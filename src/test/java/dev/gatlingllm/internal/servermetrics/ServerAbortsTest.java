package dev.gatlingllm.internal.servermetrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** vLLM's count of aborted requests, read apart from the other finish reasons. */
class ServerAbortsTest {

  private static final String V1 = """
      # HELP vllm:request_success_total Count of successfully processed requests.
      # TYPE vllm:request_success_total counter
      vllm:request_success_total{engine="0",finished_reason="stop",model_name="m"} 12.0
      vllm:request_success_total{engine="0",finished_reason="length",model_name="m"} 30.0
      vllm:request_success_total{engine="0",finished_reason="abort",model_name="m"} 4.0
      vllm:request_success_total{engine="1",finished_reason="abort",model_name="m"} 3.0
      vllm:num_requests_running{model_name="m"} 2.0
      """;

  @Test
  void theAbortsOfEveryEngineAreSummedApart() {
    ServerSample s = ServerSample.of(1, V1);
    assertEquals(7.0, s.aborted());
    assertEquals(2.0, s.running());
  }

  @Test
  void aServerWithoutTheCounterHasNoAbortSeries() {
    ServerSample s = ServerSample.of(1, "vllm:num_requests_running 1\n");
    assertTrue(Double.isNaN(s.aborted()));
    Map<String, Object> json = new ServerSeries("e", 1, List.of(s), 0, "ok").toJson(0);
    assertFalse(json.containsKey("requests_aborted"));
  }

  /** vLLM writes every reason's sample from the start; one without "abort" yet counts 0. */
  @Test
  void aCounterWithoutAnAbortSampleCountsNone() {
    ServerSample s = ServerSample.of(1,
        "vllm:request_success_total{finished_reason=\"length\"} 5\n");
    assertEquals(0.0, s.aborted());
    Map<String, Object> json = new ServerSeries("e", 1, List.of(s), 0, "ok").toJson(0);
    assertEquals(List.of(0.0), json.get("requests_aborted"));
  }
}
