package dev.gatlingllm.internal.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * vLLM's pytorch export copies {@code tensor_parallel_size} from the result's metadata into
 * the arguments when the arguments have none, and never overrides one that is set.
 */
class PytorchTensorParallelTest {

  private static Map<String, Object> result() {
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("mean_ttft_ms", 12.5);
    result.put("tensor_parallel_size", "4");
    return result;
  }

  @Test
  void metadataFillsAMissingTensorParallelSize() {
    Map<String, Object> args = new LinkedHashMap<>();
    args.put("tensor_parallel_size", null);
    List<Object> records = PytorchFormat.records(result(), args, "m");
    assertEquals(1, records.size());
    assertEquals("4", args.get("tensor_parallel_size"));
  }

  @Test
  void aGivenTensorParallelSizeIsKept() {
    Map<String, Object> args = new LinkedHashMap<>();
    args.put("tensor_parallel_size", 2);
    PytorchFormat.records(result(), args, "m");
    assertEquals(2, args.get("tensor_parallel_size"));
  }
}
