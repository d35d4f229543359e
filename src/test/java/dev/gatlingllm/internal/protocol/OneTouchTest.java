package dev.gatlingllm.internal.protocol;

import static dev.gatlingllm.LlmDsl.arrivals;
import static dev.gatlingllm.LlmDsl.completions;
import static dev.gatlingllm.LlmDsl.gpt2;
import static dev.gatlingllm.LlmDsl.llm;
import static dev.gatlingllm.LlmDsl.tokenizer;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.arrival.ArrivalProfile;
import io.gatling.javaapi.core.OpenInjectionStep;
import io.gatling.javaapi.core.Simulation;
import org.junit.jupiter.api.Test;

/**
 * Each concept is given once, as an argument: the profile to the protocol, which also injects
 * the users ({@code llm.injection()}); the tokenizer to the dataset and the protocol. Nothing
 * travels beside the arguments: what one simulation gave never reaches the next, and loading a
 * tokenizer does not change a protocol that was not given it. The simulations here are built
 * (constructed) as Gatling builds them, never run.
 */
class OneTouchTest {

  /** The protocol the last simulation built here gave to setUp. */
  static LlmProtocol built;
  /** The injection steps it gave. */
  static OpenInjectionStep[] steps;

  static ArrivalProfile poisson() {
    return arrivals().numPrompts(20).requestRate(10).seed(3).build();
  }

  public static class ProfileGivenOnce extends Simulation {
    {
      var protocol = llm().baseUrl("http://127.0.0.1:9").model("m").arrivals(poisson());
      steps = protocol.injection();
      setUp(scenario("s").exec(completions("c").prompt("p")).injectOpen(steps))
          .protocols(protocol);
      built = protocol.protocol();
    }
  }

  @Test
  void theProtocolsProfilePacesTheRunAndInjectsItsUsers() {
    built = null;
    steps = null;
    new ProfileGivenOnce();
    ArrivalProfile paced = built.arrivals().orElseThrow();
    assertEquals(poisson(), paced);
    assertEquals(20, paced.numPrompts());
    assertEquals(3, paced.seed());
    assertEquals(10.0, paced.resultRequestRate());
    // 20 arrivals at 10/s span about 2 s: one ramp step per second cell at least
    assertTrue(steps.length >= 1, "injection steps for the profile's users");
  }

  @Test
  void injectionWithoutAProfileSaysWhereToGiveIt() {
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> llm().baseUrl("http://127.0.0.1:9").model("m").injection());
    assertEquals("llm().injection() brings users in on the protocol's arrival profile, and it "
        + "has none: give it one first, llm().arrivals(profile)", e.getMessage());
  }

  public static class WithoutProfile extends Simulation {
    {
      built = llm().baseUrl("http://127.0.0.1:9").model("m").protocol();
    }
  }

  @Test
  void nothingOfOneSimulationReachesTheNext() {
    new ProfileGivenOnce();
    assertTrue(built.arrivals().isPresent());
    new WithoutProfile();
    assertTrue(built.arrivals().isEmpty(), "no profile travels beside the arguments");
  }

  public static class LoadsItsTokenizer extends Simulation {
    {
      gpt2();   // for its datasets: sample(gpt2())
      built = llm().baseUrl("http://127.0.0.1:9").model("m").protocol();
    }
  }

  @Test
  void loadingATokenizerDoesNotChangeAProtocolThatWasNotGivenIt() {
    new LoadsItsTokenizer();
    assertEquals("gpt2", built.tokenizerId());
    assertNull(built.tokenCounter(), "the protocol's own GPT-2 fallback, not a loaded one");
  }

  public static class GivesItsTokenizer extends Simulation {
    {
      var tokens = tokenizer("datasets/tokenizers/gpt2");
      built = llm().baseUrl("http://127.0.0.1:9").model("m").tokenizer(tokens).protocol();
    }
  }

  @Test
  void theTokenizerGivenToTheProtocolCountsTheOutputAndNamesTheResult() {
    new GivesItsTokenizer();
    assertEquals("datasets/tokenizers/gpt2", built.tokenizerId());
    assertNotNull(built.tokenCounter());
    assertEquals(2, built.tokenCounter().applyAsInt("Hello world"));
  }

  @Test
  void aMaxConcurrencyThatDiffersFromTheProfilesIsRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> llm().baseUrl("http://127.0.0.1:9").model("m").maxConcurrency(3)
            .arrivals(arrivals().numPrompts(20).requestRate(10).maxConcurrency(4).build())
            .protocol());
    assertEquals("llm protocol: maxConcurrency(3) conflicts with the arrival profile's max "
        + "concurrency 4", e.getMessage());
  }
}
