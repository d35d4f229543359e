package dev.gatlingllm.internal.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SessionCacheTest {

  static GenerationRequest chat(String messages, int promptTokens, int maxTokens) {
    return new GenerationRequest(true, false, true, true, promptTokens, maxTokens, messages, null);
  }

  static final String TURN_1 = "[{\"role\":\"user\",\"content\":\"a b c\"}]";
  static final String TURN_2 = "[{\"role\":\"user\",\"content\":\"a b c\"},"
      + "{\"role\":\"assistant\",\"content\":\"x y\"},{\"role\":\"user\",\"content\":\"d\"}]";

  /** Turn 2 resends turn 1 (3 tokens) and its answer (2 generated): 5 of its 6 are cached. */
  @Test
  void aTurnContinuingItsSessionFindsTheHistoryAndTheAnswer() {
    SessionCache cache = new SessionCache();
    assertEquals(0, cache.cachedTokens("s1", chat(TURN_1, 3, 2)), "a new session");
    assertEquals(5, cache.cachedTokens("s1", chat(TURN_2, 6, 4)));
  }

  @Test
  void anotherSessionOrAnotherHistoryFindsNothing() {
    SessionCache cache = new SessionCache();
    cache.cachedTokens("s1", chat(TURN_1, 3, 2));
    assertEquals(0, cache.cachedTokens("s2", chat(TURN_2, 6, 4)), "another session");
    assertEquals(0, cache.cachedTokens(null, chat(TURN_2, 6, 4)), "no session header");
    String other = "[{\"role\":\"user\",\"content\":\"a b z\"},"
        + "{\"role\":\"assistant\",\"content\":\"x y\"},{\"role\":\"user\",\"content\":\"d\"}]";
    assertEquals(0, cache.cachedTokens("s1", chat(other, 6, 4)), "another history");
  }

  /** The same messages again (a retry) are not a continuation; nor is a completions prompt. */
  @Test
  void onlyALongerChatHistoryContinues() {
    SessionCache cache = new SessionCache();
    cache.cachedTokens("s1", chat(TURN_1, 3, 2));
    assertEquals(0, cache.cachedTokens("s1", chat(TURN_1, 3, 2)));
    GenerationRequest completion = new GenerationRequest(false, false, true, true, 3, 2, "a b c",
        null);
    assertEquals(0, cache.cachedTokens("s1", completion));
  }
}
