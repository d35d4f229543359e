package dev.gatlingllm.internal.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The simulator's speculative decoding: counts worked out by hand per request length. */
class SpecDecodingTest {

  @Test
  void aRequestsDraftsFollowItsLength() {
    SpecDecoding spec = new SpecDecoding();
    // 9 tokens, 3 proposed and 2 accepted a draft: 1 from the prefill, then 3, 3 and 2
    spec.count(9, 3, 2);
    SpecDecoding.Counts c = spec.snapshot();
    assertEquals(3, c.drafts());
    assertEquals(9, c.draftTokens());
    assertEquals(5, c.accepted());
    assertArrayEquals(new long[] {3, 2, 0}, c.acceptedByPos());
    // 7 tokens: 1, then 3 and 3; 1 token: the prefill's only, no draft
    spec.count(7, 3, 2);
    spec.count(1, 3, 2);
    c = spec.snapshot();
    assertEquals(5, c.drafts());
    assertEquals(15, c.draftTokens());
    assertEquals(9, c.accepted());
    assertArrayEquals(new long[] {5, 4, 0}, c.acceptedByPos());
  }

  @Test
  void nothingIsAcceptedWhenEveryDraftIsRejected() {
    SpecDecoding spec = new SpecDecoding();
    // 5 tokens, nothing accepted: each of the 4 steps after the prefill writes 1 token
    spec.count(5, 2, 0);
    SpecDecoding.Counts c = spec.snapshot();
    assertEquals(4, c.drafts());
    assertEquals(8, c.draftTokens());
    assertEquals(0, c.accepted());
    assertArrayEquals(new long[] {0, 0}, c.acceptedByPos());
  }

  @Test
  void offWithoutProposedTokens() {
    SpecDecoding spec = new SpecDecoding();
    spec.count(100, 0, 0);
    assertEquals(0, spec.snapshot().drafts());
  }
}
