package dev.gatlingllm.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.sim.SimCommand;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class SimulatorConfigTest {

  @Test
  void defaultsAreTheHandWrittenTableEveryComponentOfIt() {
    assertEquals(ExpectedConfig.config(), SimulatorConfig.defaults());
    assertEquals(ExpectedConfig.config(), SimulatorConfig.builder().build());
    assertEquals(null, SimulatorConfig.defaults().tokenizer());
  }

  @Test
  void eachSetterSetsItsOwnComponentAndTheBuilderKeepsEveryEarlierOne() {
    // every component away from its default, through the builder, then compared whole: a
    // setter writing another component, or a copy dropping one, leaves a difference
    SimulatorConfig built = SimulatorConfig.builder()
        .host("0.0.0.0").port(8000).models(List.of("m", "n")).ttft(Duration.ofMillis(7))
        .prefillPerToken(Duration.ofNanos(3000)).itl(Duration.ofMillis(2)).jitter(0.5)
        .tokensPerChunk(4).maxRunning(9).defaultMaxTokens(33).seed(-8).errorRate(0.125)
        .disconnectRate(0.25).inBandErrorRate(0.375).stallRate(0.625)
        .stallDuration(Duration.ofMillis(300)).startupDelay(Duration.ofMillis(40)).ioThreads(3)
        .transport(SimulatorConfig.Transport.NIO).chunkLog(true).reasoningTokens(5)
        .reasoningField("reasoning").recordRequests(true).keepAliveMax(6)
        .usageInFinishChunk(true).mergedTokenRate(0.03).nullRoleContent(true)
        .missingRoleRate(0.07).ignoreMaxCompletionTokens(true).contextTokens(77)
        .cutLongPrompts(true).anyModel(true).sessionCache(true).invalidJsonAs500(true)
        .tokenizer("gpt2").gpus(4).gpuIdleWatts(55.5).gpuWattsPerRequest(12.25)
        .gpuMaxWatts(400).promptTokensDetails(true).specDecode(4, 3).build();
    assertEquals(ExpectedConfig.config("host", "0.0.0.0", "port", 8000, "model", "m",
        "otherModels", List.of("n"), "ttft", Duration.ofMillis(7),
        "prefillPerToken", Duration.ofNanos(3000), "itl", Duration.ofMillis(2), "jitter", 0.5,
        "tokensPerChunk", 4, "maxRunning", 9, "defaultMaxTokens", 33, "seed", -8L,
        "errorRate", 0.125, "disconnectRate", 0.25, "inBandErrorRate", 0.375,
        "stallRate", 0.625, "stallDuration", Duration.ofMillis(300),
        "startupDelay", Duration.ofMillis(40), "ioThreads", 3,
        "transport", SimulatorConfig.Transport.NIO, "chunkLog", true, "reasoningTokens", 5,
        "reasoningField", "reasoning", "recordRequests", true, "keepAliveMax", 6,
        "usageInFinishChunk", true, "mergedTokenRate", 0.03, "nullRoleContent", true,
        "missingRoleRate", 0.07, "ignoreMaxCompletionTokens", true, "contextTokens", 77,
        "cutLongPrompts", true, "anyModel", true, "sessionCache", true,
        "invalidJsonAs500", true, "tokenizer", "gpt2", "gpus", 4, "gpuIdleWatts", 55.5,
        "gpuWattsPerRequest", 12.25, "gpuMaxWatts", 400.0, "promptTokensDetails", true,
        "specDecodeTokens", 4, "specDecodeAccepted", 3), built);
    assertEquals(built, built.toBuilder().build(), "toBuilder keeps every component");
    assertEquals(ExpectedConfig.config("connectionPolicy",
            SimulatorConfig.ConnectionPolicy.CONNECTION_CLOSE),
        SimulatorConfig.builder()
            .connectionPolicy(SimulatorConfig.ConnectionPolicy.CONNECTION_CLOSE).build());
  }

  @Test
  void aModelNamedTwiceIsServedOnceAndTheFirstIsTheOneAnswersCarry() {
    SimulatorConfig c = SimulatorConfig.builder().models(List.of("a", "b", "a", "b", "c"))
        .build();
    assertEquals(ExpectedConfig.config("model", "a", "otherModels", List.of("b", "c")), c);
    assertEquals(List.of("a", "b", "c"), c.models());
    assertTrue(c.serves("c"));
    assertFalse(c.serves("d"));
  }

  @Test
  void connectionFlagsSetThePolicyAndTheLimit() {
    assertEquals(SimulatorConfig.ConnectionPolicy.CLOSE_AFTER_RESPONSE,
        SimCommand.parse("--connection", "close-after-response").connectionPolicy());
    assertEquals(SimulatorConfig.ConnectionPolicy.CONNECTION_CLOSE,
        SimCommand.parse("--connection=close").connectionPolicy());
    SimulatorConfig limited = SimCommand.parse("--connection", "keep-alive",
        "--keep-alive-max", "3");
    assertEquals(SimulatorConfig.ConnectionPolicy.KEEP_ALIVE, limited.connectionPolicy());
    assertEquals(3, limited.keepAliveMax());
    assertArgs("--connection must be one of keep-alive, close-after-response, close, got 'never'",
        "--connection", "never");
    assertArgs("keepAliveMax must be in 0..1000000 (0 = no limit), got -1",
        "--keep-alive-max", "-1");
    assertArgs("keepAliveMax limits kept-alive connections: it needs connectionPolicy KEEP_ALIVE,"
        + " got CONNECTION_CLOSE", "--connection", "close", "--keep-alive-max", "2");
  }

  @Test
  void builderCallsReturnNewBuildersAndLeaveTheOldOneAlone() {
    SimulatorConfig.Builder base = SimulatorConfig.builder().model("a");
    SimulatorConfig.Builder other = base.model("b");
    assertNotSame(base, other);
    assertEquals("a", base.build().model());
    assertEquals("b", other.build().model());
    SimulatorConfig c = other.itl(Duration.ofMillis(3)).build();
    assertEquals("b", c.toBuilder().build().model());
    assertEquals(Duration.ofMillis(3), c.toBuilder().build().itl());
  }

  @Test
  void badValuesAreRejectedAtBuildWithTheNameAndTheAllowedRange() {
    assertMessage(SimulatorConfig.builder().port(70000), "port must be in 0..65535 (0 = any free port), got 70000");
    assertMessage(SimulatorConfig.builder().model(" "), "model must be a non-blank name, got ' '");
    assertMessage(SimulatorConfig.builder().host(""), "host must be a non-blank host name or address, got ''");
    assertMessage(SimulatorConfig.builder().ttft(Duration.ofMillis(-1)), "ttft must be between 0 and PT1H, got PT-0.001S");
    assertMessage(SimulatorConfig.builder().itl(null), "itl must be a duration, got null");
    assertMessage(SimulatorConfig.builder().prefillPerToken(Duration.ofSeconds(2)), "prefillPerToken must be between 0 and PT1S, got PT2S");
    assertMessage(SimulatorConfig.builder().jitter(1.5), "jitter must be a fraction in 0..1, got 1.5");
    assertMessage(SimulatorConfig.builder().tokensPerChunk(0), "tokensPerChunk must be in 1..1000000, got 0");
    assertMessage(SimulatorConfig.builder().maxRunning(0), "maxRunning must be >= 1, got 0");
    assertMessage(SimulatorConfig.builder().defaultMaxTokens(0), "defaultMaxTokens must be in 1..1000000, got 0");
    assertMessage(SimulatorConfig.builder().errorRate(-0.1), "errorRate must be a fraction in 0..1, got -0.1");
    assertMessage(SimulatorConfig.builder().stallRate(Double.NaN), "stallRate must be a fraction in 0..1, got NaN");
    assertMessage(SimulatorConfig.builder().ioThreads(0), "ioThreads must be in 1..64, got 0");
    assertMessage(SimulatorConfig.builder().gpus(65), "gpus must be in 0..64 (0 = none), got 65");
    assertMessage(SimulatorConfig.builder().gpuIdleWatts(-1), "gpuIdleWatts must be >= 0, got -1.0");
    assertMessage(SimulatorConfig.builder().gpuWattsPerRequest(Double.NaN), "gpuWattsPerRequest must be >= 0, got NaN");
    assertMessage(SimulatorConfig.builder().gpuMaxWatts(50), "gpuMaxWatts must be at least gpuIdleWatts (70.0), got 50.0");
  }

  private static void assertMessage(SimulatorConfig.Builder builder, String message) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, builder::build);
    assertEquals(message, e.getMessage());
  }

  @Test
  void fiftyRequestsAtRateOneFifthHoldExactlyTenFaultsAtEveryFifthRequest() {
    SimulatorConfig c = SimulatorConfig.builder().errorRate(0.2).build();
    List<Long> hit = new ArrayList<>();
    for (long i = 0; i < 50; i++) {
      if (c.faultsFor(i).contains(Fault.HTTP_ERROR)) {
        hit.add(i);
      }
    }
    assertEquals(List.of(4L, 9L, 14L, 19L, 24L, 29L, 34L, 39L, 44L, 49L), hit);
  }

  @Test
  void everyPrefixHoldsFloorOfNTimesRateEvenWhereDoublesRoundDown() {
    // 100 * 0.29 is 28.999999999999996 in doubles; the count must still be 29.
    SimulatorConfig c = SimulatorConfig.builder().stallRate(0.29).build();
    int count = 0;
    for (int n = 1; n <= 1000; n++) {
      if (c.faultsFor(n - 1).contains(Fault.STALL)) {
        count++;
      }
      assertEquals(n * 29 / 100, count, "after " + n + " requests");
    }
  }

  @Test
  void kindsAreDecidedIndependently() {
    SimulatorConfig c = SimulatorConfig.builder()
        .errorRate(0.5).disconnectRate(0.5).inBandErrorRate(0.25).stallRate(1).build();
    assertEquals(EnumSet.of(Fault.STALL), c.faultsFor(0));
    assertEquals(EnumSet.of(Fault.HTTP_ERROR, Fault.DISCONNECT, Fault.STALL), c.faultsFor(1));
    assertEquals(EnumSet.of(Fault.HTTP_ERROR, Fault.DISCONNECT, Fault.IN_BAND_ERROR, Fault.STALL), c.faultsFor(3));
    assertEquals(Set.of(), SimulatorConfig.defaults().faultsFor(123));
    assertThrows(IllegalArgumentException.class, () -> c.faultsFor(-1));
  }

  @Test
  void fromArgsReadsEveryFlagInBothSpellings() {
    SimulatorConfig c = SimCommand.parse("--host", "0.0.0.0", "--port=8000", "--model", "m",
        "--ttft-ms", "12.5", "--prefill-us-per-token", "40", "--itl-ms=7", "--jitter", "0.1",
        "--tokens-per-chunk", "3", "--max-running", "9", "--max-tokens", "64", "--seed", "-5",
        "--error-rate", "0.01", "--disconnect-rate", "0.02", "--inband-error-rate", "0.03",
        "--stall-rate", "0.04", "--stall-ms", "250", "--io-threads", "2", "--transport", "nio");
    assertEquals(ExpectedConfig.config("host", "0.0.0.0", "port", 8000, "model", "m",
        "ttft", Duration.ofNanos(12_500_000), "prefillPerToken", Duration.ofNanos(40_000),
        "itl", Duration.ofMillis(7), "jitter", 0.1, "tokensPerChunk", 3, "maxRunning", 9,
        "defaultMaxTokens", 64, "seed", -5L, "errorRate", 0.01, "disconnectRate", 0.02,
        "inBandErrorRate", 0.03, "stallRate", 0.04, "stallDuration", Duration.ofMillis(250),
        "ioThreads", 2, "transport", SimulatorConfig.Transport.NIO), c);
    assertEquals(ExpectedConfig.config(), SimCommand.parse());
  }

  @Test
  void theOtherFlagsSetTheirComponentsEachAndNothingElse() {
    SimulatorConfig c = SimCommand.parse("--served-model-name", "a,b", "--tokenizer", "gpt2",
        "--startup-delay-ms", "1.5", "--reasoning-tokens", "4", "--reasoning-field",
        "reasoning", "--session-cache", "--connection", "keep-alive", "--keep-alive-max", "5",
        "--context-tokens", "99", "--merged-token-rate", "0.2", "--missing-role-rate", "0.3",
        "--chunk-log", "--transport", " EPOLL ", "--gpus", "2", "--gpu-idle-watts", "60",
        "--gpu-watts-per-request", "30.5", "--gpu-max-watts", "350",
        "--enable-prompt-tokens-details", "--spec-decode-accepted", "2",
        "--spec-decode-tokens", "5");
    assertEquals(ExpectedConfig.config("model", "a", "otherModels", List.of("b"),
        "tokenizer", "gpt2", "startupDelay", Duration.ofNanos(1_500_000),
        "reasoningTokens", 4, "reasoningField", "reasoning", "sessionCache", true,
        "keepAliveMax", 5, "contextTokens", 99, "mergedTokenRate", 0.2,
        "missingRoleRate", 0.3, "chunkLog", true,
        "transport", SimulatorConfig.Transport.EPOLL, "gpus", 2, "gpuIdleWatts", 60.0,
        "gpuWattsPerRequest", 30.5, "gpuMaxWatts", 350.0, "promptTokensDetails", true,
        "specDecodeTokens", 5, "specDecodeAccepted", 2), c);
  }

  @Test
  void theDefaultEachFlagsHelpStatesIsTheDefault() {
    // giving a flag the default its help states changes nothing; each help line says it
    String usage = SimCommand.usage().replaceAll("\\s+", " ");
    String options = usage.substring(usage.indexOf("-h, --help"));
    Map<String, String> stated = new LinkedHashMap<>();
    stated.put("--host", "127.0.0.1");
    stated.put("--port", "0");
    stated.put("--model", "sim-model");
    stated.put("--ttft-ms", "50");
    stated.put("--prefill-us-per-token", "0");
    stated.put("--itl-ms", "10");
    stated.put("--jitter", "0");
    stated.put("--seed", "0");
    stated.put("--tokens-per-chunk", "1");
    stated.put("--max-running", "256");
    stated.put("--max-tokens", "16");
    stated.put("--reasoning-tokens", "0");
    stated.put("--error-rate", "0");
    stated.put("--disconnect-rate", "0");
    stated.put("--inband-error-rate", "0");
    stated.put("--stall-rate", "0");
    stated.put("--stall-ms", "1000");
    stated.put("--startup-delay-ms", "0");
    stated.put("--io-threads", "1");
    stated.put("--transport", "auto");
    stated.put("--keep-alive-max", "0");
    stated.put("--context-tokens", "1024");
    stated.put("--merged-token-rate", "0");
    stated.put("--missing-role-rate", "0");
    stated.put("--gpus", "1");
    stated.put("--gpu-idle-watts", "70");
    stated.put("--gpu-watts-per-request", "25");
    stated.put("--gpu-max-watts", "700");
    stated.put("--spec-decode-tokens", "0");
    stated.put("--spec-decode-accepted", "0");
    stated.forEach((flag, value) -> {
      assertEquals(ExpectedConfig.config(), SimCommand.parse(flag, value), flag);
      Matcher help = Pattern.compile(Pattern.quote(flag) + "=\\S+ (.*?) --").matcher(options);
      boolean found = help.find();
      assertTrue(found && help.group(1).contains("(default " + value),
          flag + " says " + (found ? help.group(1) : "nothing"));
    });
    assertEquals(ExpectedConfig.config(), SimCommand.parse("--connection", "keep-alive",
        "--dialect", "vllm", "--reasoning-field", "reasoning_content"));
    assertTrue(usage.contains("keep-alive (default, as vLLM)"), usage);
    assertTrue(usage.contains("vllm (default)"), usage);
    assertTrue(usage.contains("reasoning_content (default)"), usage);
  }

  @Test
  void fromArgsNamesTheBadFlagOrValue() {
    assertArgs("unknown flag --nope; did you mean --host?", "--nope", "1");
    assertArgs("unexpected argument 'stray'", "stray");
    assertArgs("Missing required parameter for option '--port' (N)", "--port");
    assertArgs("--port must be an integer, got 'abc'", "--port", "abc");
    assertArgs("--jitter must be a number, got 'x'", "--jitter=x");
    assertArgs("--itl-ms must be >= 0, got '-1'", "--itl-ms", "-1");
    assertArgs("--ttft-ms must be a finite number, got 'Infinity'", "--ttft-ms", "Infinity");
    assertArgs("--transport must be one of auto, nio, epoll, got 'kqueue'", "--transport", "kqueue");
    // refused where the word is read, before anything is built
    assertArgs("--reasoning-field must be one of reasoning_content, reasoning, got 'thinking'",
        "--reasoning-field", "thinking");
    assertArgs("maxRunning must be >= 1, got 0", "--max-running", "0");
    assertArgs("errorRate must be a fraction in 0..1, got 2.0", "--error-rate", "2");
  }

  private static void assertArgs(String message, String... args) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SimCommand.parse(args));
    assertEquals(message, e.getMessage());
  }
}
