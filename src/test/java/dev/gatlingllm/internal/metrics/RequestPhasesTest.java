package dev.gatlingllm.internal.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The phase maths on records whose stamps were worked out by hand. */
class RequestPhasesTest {

  private static final long MS = 1_000_000;
  private static final double[] P50 = {50};

  /** Opened its connection: DNS 1 ms, connect 2 ms, written at 4 ms, head at 10, token at 13. */
  private static RequestRecord opened() {
    return RequestRecord.builder("gen").startNanos(0).success(true).dnsNanos(1 * MS)
        .connectNanos(2 * MS).writtenNanos(4 * MS).headNanos(10 * MS).ttftNanos(13 * MS)
        .latencyNanos(20 * MS).chunkMicros(new int[] {13_000, 20_000}).build();
  }

  /** On a kept-alive connection: written at 1 ms, head at 31, token at 33. */
  private static RequestRecord reused() {
    return RequestRecord.builder("gen").startNanos(0).success(true).connectionReused(true)
        .writtenNanos(1 * MS).headNanos(31 * MS).ttftNanos(33 * MS).latencyNanos(40 * MS)
        .chunkMicros(new int[] {33_000, 40_000}).build();
  }

  @Test
  void theSplitAddsUpToTheTtft() {
    RequestPhases.Split s = RequestPhases.Split.of(opened());
    assertEquals(4 * MS, s.networkNanos());
    assertEquals(6 * MS, s.serverNanos());
    assertEquals(3 * MS, s.streamNanos());
    assertEquals(13 * MS, s.ttftNanos());
  }

  @Test
  void aHeadBeforeTheWriteEndsOrAMissingStampHasNoSplit() {
    assertNull(RequestPhases.Split.of(opened().toBuilder().headNanos(3 * MS).build()));
    assertNull(RequestPhases.Split.of(opened().toBuilder().writtenNanos(-1).build()));
    assertNull(RequestPhases.Split.of(opened().toBuilder().ttftNanos(-1).build()));
  }

  @Test
  void connectionPhasesCountOnlyTheRequestsThatOpenedOne() {
    RequestRecord failed = RequestRecord.builder("gen").startNanos(0).writtenNanos(MS)
        .connectionReused(true).build();
    RequestRecord old = RequestRecord.builder("gen").startNanos(0).success(true).build();
    RequestPhases p = RequestPhases.of(RecordSource.of(List.of(opened(), reused(), failed, old)),
        P50);
    assertEquals(3, p.requests(), "the record of an older log has no phases");
    assertEquals(1, p.newConnections());
    assertEquals(2, p.reusedConnections());
    assertEquals(1.0, p.dns().mean(), 1e-9);
    assertEquals(2.0, p.connect().mean(), 1e-9);
    assertEquals(0, p.tlsCount());
    assertEquals(2, p.split(), "the failed request's TTFT is not split");
    // network 4 and 1 ms, server 6 and 30, stream 3 and 2: means 2.5, 18, 2.5
    assertEquals(2.5, p.network().mean(), 1e-9);
    assertEquals(18.0, p.server().mean(), 1e-9);
    assertEquals(2.5, p.stream().mean(), 1e-9);
    assertEquals(18.0, p.server().percentile(50), 1e-9);
  }

  @Test
  void cancelledRequestsAreCountedApartWithTheTtftOfThoseThatHadOne() {
    RequestRecord early = RequestRecord.builder("gen").startNanos(0).cancelled(true)
        .writtenNanos(MS).build();
    RequestRecord late = reused().toBuilder().success(false).cancelled(true).build();
    Cancels c = Cancels.of(RecordSource.of(List.of(opened(), early, late)), P50);
    assertEquals(2, c.cancelled());
    assertEquals(1, c.withFirstToken());
    assertEquals(33.0, c.ttft().mean(), 1e-9);
  }
}
