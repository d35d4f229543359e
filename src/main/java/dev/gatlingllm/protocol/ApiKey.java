package dev.gatlingllm.protocol;

import java.util.Map;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bearer key a run sends, read from the environment when the protocol is built, and how it
 * meets a user's own {@code Authorization} header. Messages name the variable, never the value.
 */
final class ApiKey {

  private static final Logger LOG = LoggerFactory.getLogger(LlmProtocolBuilder.class);

  private ApiKey() {}

  /**
   * The key to send, or null.
   *
   * @param variable the environment variable holding it
   * @param explicit whether the user named the variable ({@code apiKeyFromEnv}): then it must
   *                 be set, and no Authorization header may be given too
   * @throws IllegalArgumentException when the key is unusable or the settings disagree
   */
  static String resolve(Function<String, String> environment, String variable,
      boolean explicit, Map<String, String> headers) {
    String key = environment.apply(variable);
    key = key == null || key.isBlank() ? null : key.strip();
    if (key != null && !key.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
      throw new IllegalArgumentException("llm protocol: the API key in " + variable
          + " contains spaces or non-printable characters");
    }
    if (key == null && explicit) {
      throw new IllegalArgumentException("llm protocol: apiKeyFromEnv(\"" + variable
          + "\") but the environment variable " + variable + " is not set");
    }
    boolean userAuthorization = headers.keySet().stream()
        .anyMatch(name -> name.equalsIgnoreCase("authorization"));
    if (userAuthorization && explicit) {
      throw new IllegalArgumentException("llm protocol: header(\"Authorization\") and "
          + "apiKeyFromEnv(\"" + variable + "\") both set the Authorization header; keep one");
    }
    if (userAuthorization && key != null) {
      LOG.warn("llm protocol: header(\"Authorization\") wins over the API key in {}, which is "
          + "not sent", variable);
      return null;
    }
    return key;
  }
}
