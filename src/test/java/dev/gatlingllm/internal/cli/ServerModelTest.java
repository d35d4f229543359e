package dev.gatlingllm.internal.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.sim.Simulator;
import dev.gatlingllm.sim.SimulatorConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Without {@code --model}, the first model of the server's {@code GET /v1/models}. */
class ServerModelTest {

  @Test
  void theFirstModelOfTheServersListIsTaken() {
    try (Simulator sim = Simulator.start(SimulatorConfig.builder().build())) {
      // the simulator serves one model, sim-model, whose root is itself
      assertEquals(new ServerModel("sim-model", "sim-model"),
          ServerModel.first(sim.baseUrl(), Map.of(), false));
    }
  }

  @Test
  void noServerIsRefusedNamingTheUrlAndWhatToDo() {
    String why = assertThrows(IllegalArgumentException.class,
        () -> ServerModel.first("http://127.0.0.1:9", Map.of(), false)).getMessage();
    assertTrue(why.startsWith("--model was not given and the first model could not be "
        + "fetched from http://127.0.0.1:9/v1/models: "), why);
    assertTrue(why.endsWith("or give --model"), why);
  }
}
