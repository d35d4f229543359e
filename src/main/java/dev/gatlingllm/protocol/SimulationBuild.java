package dev.gatlingllm.protocol;

import dev.gatlingllm.arrival.ArrivalProfile;
import dev.gatlingllm.tokenizer.Tokenizer;
import io.gatling.javaapi.core.Simulation;
import java.lang.StackWalker.StackFrame;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a simulation gives while it is being built, handed over to its {@code llm()}
 * protocol, so that each concept is given once: the arrival profile its users are injected
 * with ({@code injection(profile)}) and the tokenizers it loads ({@code tokenizer(...)},
 * {@code gpt2()}) for its datasets.
 *
 * <p>How: all of these are called from the simulation's constructor (or its field and static
 * initialisers), on one thread, and {@code setUp(...)}'s arguments are evaluated before
 * {@code .protocols(...)} builds the protocol. So what is given is kept per thread, for the
 * simulation class found on the stack, and the protocol takes it when it is built. Called
 * outside a simulation's construction (a unit test, a tool) nothing is kept or taken.
 */
public final class SimulationBuild {

  private static final ThreadLocal<Given> GIVEN = new ThreadLocal<>();

  private SimulationBuild() {}

  /** What one simulation gave; {@code taken} once a protocol was built from it. */
  private static final class Given {
    final Class<?> simulation;
    ArrivalProfile injected;
    final List<Tokenizer> tokenizers = new ArrayList<>();
    boolean taken;

    Given(Class<?> simulation) {
      this.simulation = simulation;
    }
  }

  /** What the protocol of the simulation being built receives. */
  record Handover(Optional<ArrivalProfile> injected, List<Tokenizer> tokenizers) { }

  /**
   * Notes that the simulation being built injects its users with {@code profile}.
   *
   * @throws IllegalArgumentException when it already injects users with a different profile
   */
  public static void injectedWith(ArrivalProfile profile) {
    Given given = given();
    if (given == null) {
      return;
    }
    if (given.injected != null && !given.injected.equals(profile)) {
      GIVEN.remove();
      throw new IllegalArgumentException("two different arrival profiles in one simulation: "
          + "injection(" + given.injected + ") and injection(" + profile
          + "); a run has one arrival schedule: build one profile and inject every paced "
          + "scenario with it");
    }
    given.injected = profile;
  }

  /** Notes that the simulation being built loaded {@code tokenizer} (for its datasets). */
  public static void loaded(Tokenizer tokenizer) {
    Given given = given();
    if (given != null && given.tokenizers.stream().noneMatch(t -> t.id().equals(tokenizer.id()))) {
      given.tokenizers.add(tokenizer);
    }
  }

  /**
   * The tokenizer the simulation being built loaded so far, when it loaded exactly one (the
   * one its protocol will count with); empty outside a simulation's construction.
   */
  public static Optional<Tokenizer> loadedTokenizer() {
    Class<?> simulation = simulationBeingBuilt();
    Given given = GIVEN.get();
    if (simulation == null || given == null || given.simulation != simulation || given.taken
        || given.tokenizers.size() != 1) {
      return Optional.empty();
    }
    return Optional.of(given.tokenizers.get(0));
  }

  /**
   * What the simulation being built gave so far, for its protocol; null when no simulation is
   * being built on this thread. A second protocol of the same build gets the same.
   */
  static Handover take() {
    Class<?> simulation = simulationBeingBuilt();
    if (simulation == null) {
      return null;
    }
    Given given = GIVEN.get();
    if (given == null || given.simulation != simulation) {
      return new Handover(Optional.empty(), List.of());
    }
    given.taken = true;
    return new Handover(Optional.ofNullable(given.injected), List.copyOf(given.tokenizers));
  }

  /**
   * The state of the simulation being built, fresh when another simulation (or another build
   * of the same one, whose protocol was already built) gave the current state; null outside a
   * simulation's construction.
   */
  private static Given given() {
    Class<?> simulation = simulationBeingBuilt();
    if (simulation == null) {
      return null;
    }
    Given given = GIVEN.get();
    if (given == null || given.simulation != simulation || given.taken) {
      given = new Given(simulation);
      GIVEN.set(given);
    }
    return given;
  }

  /**
   * The simulation class (Java or Scala DSL) whose constructor or initialiser is on this
   * thread's stack, or null.
   */
  private static Class<?> simulationBeingBuilt() {
    return StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE).walk(frames ->
        frames.filter(SimulationBuild::isInitialiser)
            .map(StackFrame::getDeclaringClass)
            .filter(SimulationBuild::isSimulation)
            .findFirst().orElse(null));
  }

  private static boolean isSimulation(Class<?> c) {
    return c != Simulation.class && c != io.gatling.core.scenario.Simulation.class
        && (Simulation.class.isAssignableFrom(c)
            || io.gatling.core.scenario.Simulation.class.isAssignableFrom(c));
  }

  private static boolean isInitialiser(StackFrame frame) {
    String method = frame.getMethodName();
    return method.equals("<init>") || method.equals("<clinit>");
  }
}
