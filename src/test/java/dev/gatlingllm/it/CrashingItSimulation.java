package dev.gatlingllm.it;

import io.gatling.javaapi.core.Simulation;

/** A simulation with a bug: its constructor dereferences a property nobody set. */
public class CrashingItSimulation extends Simulation {

  {
    String never = System.getProperty("it.neverSet");
    if (never.isEmpty()) {
      throw new AssertionError("unreachable: the property is not set");
    }
  }
}
