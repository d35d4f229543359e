package dev.gatlingllm.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SimulatorConfigTest {

  @Test
  void defaults() {
    SimulatorConfig c = SimulatorConfig.defaults();
    assertEquals("127.0.0.1", c.host());
    assertEquals(0, c.port());
    assertEquals("sim-model", c.model());
    assertEquals(Duration.ofMillis(50), c.ttft());
    assertEquals(Duration.ZERO, c.prefillPerToken());
    assertEquals(Duration.ofMillis(10), c.itl());
    assertEquals(1, c.tokensPerChunk());
    assertEquals(256, c.maxRunning());
    assertEquals(16, c.defaultMaxTokens());
    assertEquals(Duration.ofSeconds(1), c.stallDuration());
    assertEquals(SimulatorConfig.Transport.AUTO, c.transport());
    assertEquals(SimulatorConfig.ConnectionPolicy.KEEP_ALIVE, c.connectionPolicy());
    assertEquals(0, c.keepAliveMax());
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
    assertEquals("0.0.0.0", c.host());
    assertEquals(8000, c.port());
    assertEquals("m", c.model());
    assertEquals(Duration.ofNanos(12_500_000), c.ttft());
    assertEquals(Duration.ofNanos(40_000), c.prefillPerToken());
    assertEquals(Duration.ofMillis(7), c.itl());
    assertEquals(0.1, c.jitter());
    assertEquals(3, c.tokensPerChunk());
    assertEquals(9, c.maxRunning());
    assertEquals(64, c.defaultMaxTokens());
    assertEquals(-5, c.seed());
    assertEquals(0.01, c.errorRate());
    assertEquals(0.02, c.disconnectRate());
    assertEquals(0.03, c.inBandErrorRate());
    assertEquals(0.04, c.stallRate());
    assertEquals(Duration.ofMillis(250), c.stallDuration());
    assertEquals(2, c.ioThreads());
    assertEquals(SimulatorConfig.Transport.NIO, c.transport());
    assertEquals(SimulatorConfig.defaults().toString(), SimCommand.parse().toString());
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
    assertArgs("maxRunning must be >= 1, got 0", "--max-running", "0");
    assertArgs("errorRate must be a fraction in 0..1, got 2.0", "--error-rate", "2");
  }

  private static void assertArgs(String message, String... args) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SimCommand.parse(args));
    assertEquals(message, e.getMessage());
  }

  @Test
  void usageListsEveryFlag() {
    String usage = SimCommand.usage();
    for (String flag : List.of("--host", "--port", "--model", "--ttft-ms", "--prefill-us-per-token",
        "--itl-ms", "--jitter", "--tokens-per-chunk", "--max-running", "--max-tokens", "--seed",
        "--error-rate", "--disconnect-rate", "--inband-error-rate", "--stall-rate", "--stall-ms",
        "--io-threads", "--transport", "--connection", "--keep-alive-max", "--help")) {
      assertTrue(usage.contains(" " + flag + "=") || usage.contains(" " + flag + " "), flag);
    }
  }
}
