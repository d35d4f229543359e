package dev.gatlingllm.protocol;

import static dev.gatlingllm.LlmDsl.arrivals;
import static dev.gatlingllm.LlmDsl.completions;
import static dev.gatlingllm.LlmDsl.gpt2;
import static dev.gatlingllm.LlmDsl.injection;
import static dev.gatlingllm.LlmDsl.llm;
import static dev.gatlingllm.LlmDsl.tokenizer;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.arrival.ArrivalProfile;
import io.gatling.javaapi.core.Simulation;
import org.junit.jupiter.api.Test;

/**
 * Each concept is given once in a simulation: the profile its users are injected with is the
 * protocol's, the tokenizer it loads counts the output, and what contradicts itself is
 * refused while the simulation is built, with a message naming the fix. The simulations
 * here are built (constructed) as Gatling builds them, never run.
 */
class OneTouchTest {

  /** The protocol the last simulation built here gave to setUp. */
  static LlmProtocol built;

  static ArrivalProfile poisson() {
    return arrivals().numPrompts(20).requestRate(10).seed(3).build();
  }

  public static class ProfileGivenOnce extends Simulation {
    {
      // in setUp's order: the injection steps first, then the protocol
      var steps = injection(poisson());
      built = llm().baseUrl("http://127.0.0.1:9").model("m").protocol();
      setUp(scenario("s").exec(completions("c").prompt("p")).injectOpen(steps));
    }
  }

  @Test
  void theInjectedProfileIsTheProtocolsWithoutBeingGivenToIt() {
    new ProfileGivenOnce();
    assertEquals(poisson(), built.arrivals().orElseThrow());
  }

  public static class ProfileGivenTwiceAlike extends Simulation {
    {
      ArrivalProfile p = poisson();
      var steps = injection(p);
      // an equal profile, not the same object
      built = llm().baseUrl("http://127.0.0.1:9").model("m").arrivals(poisson()).protocol();
      setUp(scenario("s").exec(completions("c").prompt("p")).injectOpen(steps));
    }
  }

  @Test
  void theSameProfileGivenToTheProtocolTooIsAccepted() {
    built = null;
    new ProfileGivenTwiceAlike();
    // built, not refused, and paced on that one profile (its 20 prompts at 10/s, seed 3)
    ArrivalProfile paced = built.arrivals().orElseThrow();
    assertEquals(poisson(), paced);
    assertEquals(20, paced.numPrompts());
    assertEquals(3, paced.seed());
    assertEquals(10.0, paced.resultRequestRate());
  }

  public static class TwoInjectedProfiles extends Simulation {
    {
      setUp(scenario("a").exec(completions("c").prompt("p")).injectOpen(injection(poisson())),
          scenario("b").exec(completions("c").prompt("p"))
              .injectOpen(injection(arrivals().numPrompts(20).requestRate(5).build())))
          .protocols(llm().baseUrl("http://127.0.0.1:9").model("m"));
    }
  }

  @Test
  void twoDifferentInjectedProfilesAreRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        TwoInjectedProfiles::new);
    assertTrue(e.getMessage().startsWith("two different arrival profiles in one simulation"),
        e.getMessage());
    assertTrue(e.getMessage().contains("build one profile and inject every paced scenario "
        + "with it"), e.getMessage());
  }

  public static class ProtocolProfileDiffers extends Simulation {
    {
      setUp(scenario("s").exec(completions("c").prompt("p")).injectOpen(injection(poisson())))
          .protocols(llm().baseUrl("http://127.0.0.1:9").model("m")
              .arrivals(arrivals().numPrompts(20).requestRate(10).seed(4).build()));
    }
  }

  @Test
  void aProtocolProfileThatIsNotTheInjectedOneIsRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        ProtocolProfileDiffers::new);
    assertTrue(e.getMessage().startsWith("two different arrival profiles: llm().arrivals("),
        e.getMessage());
    assertTrue(e.getMessage().endsWith("give the profile once, to injection(profile)"),
        e.getMessage());
  }

  public static class ProfileNotInjected extends Simulation {
    {
      setUp(scenario("s").exec(completions("c").prompt("p"))
          .injectOpen(constantUsersPerSec(10).during(2)))
          .protocols(llm().baseUrl("http://127.0.0.1:9").model("m").arrivals(poisson()));
    }
  }

  @Test
  void aProtocolProfileWhoseUsersAreInjectedAnotherWayIsRefused() {
    IllegalStateException e = assertThrows(IllegalStateException.class,
        ProfileNotInjected::new);
    assertTrue(e.getMessage().startsWith("llm().arrivals(profile) is set but no scenario is "
        + "injected with injection(profile)"), e.getMessage());
    assertTrue(e.getMessage().contains("inject the scenario with "
        + ".injectOpen(injection(profile))"), e.getMessage());
  }

  @Test
  void outsideASimulationNothingIsHandedOver() {
    injection(poisson());   // a tool or a test asking for the steps
    LlmProtocol protocol = llm().baseUrl("http://127.0.0.1:9").model("m").protocol();
    assertTrue(protocol.arrivals().isEmpty());
    // ... and nothing is left for the next simulation either
    new WithoutProfile();
    assertTrue(built.arrivals().isEmpty());
  }

  public static class WithoutProfile extends Simulation {
    {
      built = llm().baseUrl("http://127.0.0.1:9").model("m").protocol();
    }
  }

  public static class LoadsItsTokenizer extends Simulation {
    {
      gpt2();   // for its datasets: sample(gpt2())
      built = llm().baseUrl("http://127.0.0.1:9").model("m").protocol();
    }
  }

  @Test
  void theTokenizerLoadedForTheDatasetsCountsTheOutput() {
    new LoadsItsTokenizer();
    assertEquals("gpt2", built.tokenizerId());
    assertNotNull(built.tokenCounter(), "counted with the loaded tokenizer, not the fallback");
    assertEquals(2, built.tokenCounter().applyAsInt("Hello world"));
  }

  @Test
  void withoutATokenizerTheShippedFallbackCounts() {
    new WithoutProfile();
    assertEquals("gpt2", built.tokenizerId());
    assertNull(built.tokenCounter(), "the protocol's own fallback");
  }

  public static class TwoTokenizers extends Simulation {
    {
      gpt2();
      tokenizer("datasets/tokenizers/gpt2");
      built = llm().baseUrl("http://127.0.0.1:9").model("m").protocol();
    }
  }

  @Test
  void twoLoadedTokenizersWithoutTheProtocolNamingOneAreRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        TwoTokenizers::new);
    assertEquals("the simulation loaded 2 tokenizers [gpt2, datasets/tokenizers/gpt2] and the "
        + "output is counted with one: name it with llm().tokenizer(...)", e.getMessage());
  }

  public static class ProtocolCountsWithAnother extends Simulation {
    {
      gpt2();
      built = llm().baseUrl("http://127.0.0.1:9").model("m")
          .tokenCounter("meta-llama/Llama-3.1-8B", String::length).protocol();
    }
  }

  @Test
  void aProtocolCountingTheOutputWithAnotherTokenizerIsRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        ProtocolCountsWithAnother::new);
    assertTrue(e.getMessage().startsWith("the simulation's datasets are counted with the "
        + "tokenizer [gpt2] but the protocol counts the output with 'meta-llama/Llama-3.1-8B'"),
        e.getMessage());
  }

  public static class ProtocolNamesTheLoadedOne extends Simulation {
    {
      gpt2();
      built = llm().baseUrl("http://127.0.0.1:9").model("m")
          .tokenizer(tokenizer("datasets/tokenizers/gpt2")).protocol();
    }
  }

  @Test
  void aProtocolNamingOneOfTheLoadedTokenizersCountsWithIt() {
    new ProtocolNamesTheLoadedOne();
    assertEquals("datasets/tokenizers/gpt2", built.tokenizerId());
  }
}
