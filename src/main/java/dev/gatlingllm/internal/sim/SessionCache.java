package dev.gatlingllm.internal.sim;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The prefix cache a conversation meets on a real server, per session: the last turn served
 * under each {@code X-Session-ID}. A turn whose messages begin with that turn's messages
 * (the next turn resends them, then the answer, then a new question) finds the history and
 * the answer already computed, as vLLM's prefix cache keeps both, and pays prefill for its
 * new tokens only. Bounded to the {@value #MAX_SESSIONS} sessions used last. Not thread-safe:
 * the caller holds {@link ServerState}'s lock.
 */
final class SessionCache {

  static final int MAX_SESSIONS = 10_000;

  /** What a session's last turn sent and generated. */
  private record Served(String messages, int promptTokens, int outputTokens) {}

  private final Map<String, Served> sessions = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Served> eldest) {
      return size() > MAX_SESSIONS;
    }
  };

  /**
   * Prompt tokens of {@code request} already computed for its session (0 for a new session or
   * another history), and remembers it as the session's last turn.
   */
  int cachedTokens(String session, GenerationRequest request) {
    if (session == null || !request.chat()) {
      return 0;
    }
    Served last = sessions.put(session, new Served(request.promptText(), request.promptTokens(),
        request.maxTokens()));
    if (last == null || !continues(request.promptText(), last.messages())) {
      return 0;
    }
    return Math.min(request.promptTokens(), last.promptTokens() + last.outputTokens());
  }

  /** {@code next}, a JSON array of messages, starts with all of {@code previous}'s. */
  private static boolean continues(String next, String previous) {
    int open = previous.length() - 1; // without previous's closing ']'
    return open > 1 && next.length() > previous.length() && next.startsWith(previous.substring(0, open))
        && next.charAt(open) == ',';
  }
}
