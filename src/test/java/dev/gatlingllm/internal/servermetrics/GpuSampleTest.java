package dev.gatlingllm.internal.servermetrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * DCGM exporter text as its documentation shows it (HELP and TYPE lines, one label set per
 * GPU with {@code gpu}, {@code UUID}, {@code pci_bus_id}, {@code device}, {@code modelName},
 * {@code Hostname}, and the pod labels Kubernetes adds), written by hand for two GPUs.
 */
class GpuSampleTest {

  static final String DCGM = """
      # HELP DCGM_FI_DEV_SM_CLOCK SM clock frequency (in MHz).
      # TYPE DCGM_FI_DEV_SM_CLOCK gauge
      DCGM_FI_DEV_SM_CLOCK{gpu="0",UUID="GPU-604ac76c-d9cf-fef3-62e9-d92044ab6e52",pci_bus_id="00000000:07:00.0",device="nvidia0",modelName="NVIDIA H100 80GB HBM3",Hostname="node-a",DCGM_FI_DRIVER_VERSION="550.54.15",container="",namespace="",pod=""} 1980
      DCGM_FI_DEV_SM_CLOCK{gpu="1",UUID="GPU-0f3b2c11-aa00-4b1d-9e27-5d2a0c1e7f90",pci_bus_id="00000000:0F:00.0",device="nvidia1",modelName="NVIDIA H100 80GB HBM3",Hostname="node-a",DCGM_FI_DRIVER_VERSION="550.54.15",container="",namespace="",pod=""} 1980
      # HELP DCGM_FI_DEV_POWER_USAGE Power draw (in W).
      # TYPE DCGM_FI_DEV_POWER_USAGE gauge
      DCGM_FI_DEV_POWER_USAGE{gpu="0",UUID="GPU-604ac76c-d9cf-fef3-62e9-d92044ab6e52",pci_bus_id="00000000:07:00.0",device="nvidia0",modelName="NVIDIA H100 80GB HBM3",Hostname="node-a",DCGM_FI_DRIVER_VERSION="550.54.15",container="vllm",namespace="llm",pod="vllm-0"} 512.345000
      DCGM_FI_DEV_POWER_USAGE{gpu="1",UUID="GPU-0f3b2c11-aa00-4b1d-9e27-5d2a0c1e7f90",pci_bus_id="00000000:0F:00.0",device="nvidia1",modelName="NVIDIA H100 80GB HBM3",Hostname="node-a",DCGM_FI_DRIVER_VERSION="550.54.15",container="vllm",namespace="llm",pod="vllm-0"} 498.1
      # HELP DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION Total energy consumption since boot (in mJ).
      # TYPE DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION counter
      DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION{gpu="0",UUID="GPU-604ac76c-d9cf-fef3-62e9-d92044ab6e52",pci_bus_id="00000000:07:00.0",device="nvidia0",modelName="NVIDIA H100 80GB HBM3",Hostname="node-a",DCGM_FI_DRIVER_VERSION="550.54.15",container="vllm",namespace="llm",pod="vllm-0"} 8123456789
      DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION{gpu="1",UUID="GPU-0f3b2c11-aa00-4b1d-9e27-5d2a0c1e7f90",pci_bus_id="00000000:0F:00.0",device="nvidia1",modelName="NVIDIA H100 80GB HBM3",Hostname="node-a",DCGM_FI_DRIVER_VERSION="550.54.15",container="vllm",namespace="llm",pod="vllm-0"} 7000000000
      """;

  @Test
  void eachGpuGetsItsEnergyAndPowerAndTheLabelsThatNameIt() {
    GpuSample s = GpuSample.of(42, DCGM);
    assertEquals(42, s.nanos());
    assertEquals(2, s.gpus().size());
    GpuSample.Gpu g0 = s.gpus().get(0);
    assertEquals("node-a/GPU-604ac76c-d9cf-fef3-62e9-d92044ab6e52", g0.id());
    assertEquals(8_123_456_789.0, g0.energyMj());
    assertEquals(512.345, g0.powerW());
    assertEquals(Map.of("gpu", "0", "UUID", "GPU-604ac76c-d9cf-fef3-62e9-d92044ab6e52",
        "Hostname", "node-a", "modelName", "NVIDIA H100 80GB HBM3", "device", "nvidia0"),
        g0.labels(), "the naming labels only, not the pod's");
    GpuSample.Gpu g1 = s.gpus().get(1);
    assertEquals("1", g1.labels().get("gpu"));
    assertEquals(7e9, g1.energyMj());
    assertEquals(498.1, g1.powerW());
  }

  @Test
  void aGpuWithoutTheEnergyFieldHasItAsNaNAndTextWithoutEitherIsNoSample() {
    // DCGM leaves the energy field out on GPUs before Volta
    GpuSample s = GpuSample.of(0, "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\", UUID=\"GPU-a\"} 61\n");
    assertEquals(1, s.gpus().size());
    assertTrue(Double.isNaN(s.gpus().get(0).energyMj()));
    assertEquals(61, s.gpus().get(0).powerW());
    assertNull(GpuSample.of(0, "vllm:num_requests_running{model_name=\"m\"} 3\n"));
  }

  @Test
  void theSameIndexOnTwoHostsIsTwoGpus() {
    GpuSample s = GpuSample.of(0, """
        DCGM_FI_DEV_POWER_USAGE{gpu="0",Hostname="a"} 100
        DCGM_FI_DEV_POWER_USAGE{gpu="0",Hostname="b"} 200
        """);
    assertEquals(List.of("a/gpu0", "b/gpu0"), s.gpus().stream().map(GpuSample.Gpu::id).toList());
  }

  @Test
  void labelValuesKeepSpacesCommasBracesAndEscapes() {
    List<PrometheusText.Series> series = PrometheusText.series(
        "x{a=\"1, 2\", b=\"{}\",c=\"say \\\"hi\\\"\\\\n\"} 7 1700000000000\nother 1\n",
        Set.of("x"));
    assertEquals(1, series.size());
    assertEquals(Map.of("a", "1, 2", "b", "{}", "c", "say \"hi\"\\n"), series.get(0).labels());
    assertEquals(7, series.get(0).value(), "the timestamp after the value is not the value");
  }
}
