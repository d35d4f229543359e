package dev.gatlingllm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.arrival.RampUpStrategy;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The traffic lines {@code bench serve} prints before the measured run, as vLLM's
 * {@code benchmark()} prints them: Python's {@code str()} of its float, int and None values.
 */
class BenchServeTrafficTest {

  private static final ArrivalProfile.Builder BASE = ArrivalProfile.builder();

  /** What {@link BenchServe#printTraffic} wrote to {@code System.out}, line by line. */
  private static List<String> printed(ArrivalProfile profile) {
    PrintStream original = System.out;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    try {
      BenchServe.printTraffic(profile);
    } finally {
      System.setOut(original);
    }
    return bytes.toString(StandardCharsets.UTF_8).lines().toList();
  }

  @Test
  void vllmsDefaultsAnUnboundedPoissonRunWithoutACap() {
    // --request-rate defaults to float("inf"), --burstiness to 1.0, --max-concurrency to None
    assertEquals(List.of("Traffic request rate: inf", "Burstiness factor: 1.0 (Poisson process)",
        "Maximum request concurrency: None"), printed(BASE.build()));
  }

  @Test
  void aRateIsAPythonFloatAndOtherBurstinessIsAGammaDistribution() {
    assertEquals(List.of("Traffic request rate: 20.0",
            "Burstiness factor: 0.5 (Gamma distribution)", "Maximum request concurrency: 4"),
        printed(BASE.requestRate(20).burstiness(0.5).maxConcurrency(4).build()));
  }

  @Test
  void smallAndLargeValuesReadAsPythonPrintsThem() {
    // Python: str(0.0001) == '0.0001', str(1e-05) == '1e-05', str(1e16) == '1e+16', where
    // Java's Double.toString gives 1.0E-4, 1.0E-5 and 1.0E16
    assertEquals(List.of("Traffic request rate: 0.0001",
            "Burstiness factor: 1e-05 (Gamma distribution)", "Maximum request concurrency: None"),
        printed(BASE.requestRate(0.0001).burstiness(1e-5).build()));
    assertEquals("Traffic request rate: 1e+16", printed(BASE.requestRate(1e16).build()).get(0));
  }

  @Test
  void aRampNamesItsStrategyAndItsIntegerRatesInsteadOfTheRate() {
    // vLLM's --ramp-up-start-rps / --ramp-up-end-rps are ints: no ".0"
    assertEquals(List.of("Traffic ramp-up strategy: linear.",
            "Will increase RPS from 1 to 9 RPS over the duration of the benchmark.",
            "Burstiness factor: 2.0 (Gamma distribution)", "Maximum request concurrency: 16"),
        printed(BASE.rampUp(RampUpStrategy.LINEAR, 1, 9).burstiness(2).maxConcurrency(16)
            .build()));
    assertEquals(List.of("Traffic ramp-up strategy: exponential.",
            "Will increase RPS from 2 to 40 RPS over the duration of the benchmark.",
            "Burstiness factor: 1.0 (Poisson process)", "Maximum request concurrency: None"),
        printed(BASE.rampUp(RampUpStrategy.EXPONENTIAL, 2, 40).build()));
  }
}
