package dev.gatlingllm.internal.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** A dotted key names a figure inside a result's objects, as plot's axes take it. */
class SweepDataDottedKeyTest {

  @Test
  void aDottedKeyReadsInsideObjectsAndAKeyWithADotOfItsOwnWins() {
    Map<String, Object> record = Map.of("gpu_energy",
        Map.of("output_tokens_per_joule", 2.5, "gpus", 3), "a.b", 7, "output_throughput", 9);
    assertEquals(2.5, SweepData.number(record, "gpu_energy.output_tokens_per_joule"));
    assertEquals("3", SweepData.text(record, "gpu_energy.gpus"));
    assertEquals(7, SweepData.number(record, "a.b"), "a key of the record itself first");
    assertTrue(Double.isNaN(SweepData.number(record, "gpu_energy.none")));
    assertTrue(Double.isNaN(SweepData.number(record, "output_throughput.x")));
    assertEquals("None", SweepData.text(record, "gpu_energy.none"));
  }
}
