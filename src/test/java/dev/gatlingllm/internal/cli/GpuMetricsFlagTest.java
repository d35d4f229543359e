package dev.gatlingllm.internal.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code --gpu-metrics-url} from the command line to the run's protocol, repeatable. */
class GpuMetricsFlagTest {

  private static final ServerModel.Lookup SERVER =
      (url, headers, insecure) -> new ServerModel("m", "m");

  private static BenchPlan plan(String line) {
    return BenchPlan.of(BenchArgs.parse(CommandLine.split("--model m --tokenizer gpt2 " + line)),
        SERVER);
  }

  @Test
  void eachUrlGivenIsScrapedInTheOrderGiven() {
    assertEquals(List.of(URI.create("http://node-a:9400/metrics"),
            URI.create("http://node-b:9400/metrics")),
        plan("--gpu-metrics-url http://node-a:9400 --gpu-metrics-url http://node-b:9400/metrics")
            .protocol().protocol().gpuMetrics());
    assertTrue(plan("").protocol().protocol().gpuMetrics().isEmpty());
  }

  @Test
  void aValueThatIsNoUrlIsRefusedNamingTheFlag() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> plan("--gpu-metrics-url node-a:9400").protocol());
    assertTrue(e.getMessage().contains("--gpu-metrics-url"), e.getMessage());
  }
}
