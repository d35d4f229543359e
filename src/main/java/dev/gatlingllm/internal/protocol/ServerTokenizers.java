package dev.gatlingllm.internal.protocol;

import dev.gatlingllm.internal.client.Target;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The servers of this JVM whose prompt tokenizer is known: the embedded simulators a simulation
 * started with its own tokenizer ({@code LlmDsl.startSimulator}). The prompt-count check of
 * {@link ServerCompliance} is left off for the shipped GPT-2, which is not a real server's
 * tokenizer; against such a simulator it counts as the server does, and the check applies.
 */
public final class ServerTokenizers {

  /** Tokenizer id by {@code host:port}. */
  private static final Map<String, String> BY_ADDRESS = new ConcurrentHashMap<>();

  private ServerTokenizers() {}

  /** The server at {@code baseUrl} counts prompts with the tokenizer {@code tokenizerId}. */
  public static void note(String baseUrl, String tokenizerId) {
    BY_ADDRESS.put(address(Target.parse(baseUrl)), tokenizerId);
  }

  /** The server at {@code baseUrl} is gone (its port may serve another one next). */
  public static void forget(String baseUrl) {
    BY_ADDRESS.remove(address(Target.parse(baseUrl)));
  }

  /** The tokenizer id the server at {@code target} counts prompts with, when known. */
  static Optional<String> of(Target target) {
    return Optional.ofNullable(BY_ADDRESS.get(address(target)));
  }

  private static String address(Target target) {
    return target.host() + ":" + target.port();
  }
}
