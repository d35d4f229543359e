package dev.gatlingllm.dataset;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One request to send: the prompt text, its length in tokens, how many tokens to ask the
 * model for, and an id. Dataset-specific facts (a BurstGPT timestamp, a prefix group) are in
 * {@code extras}.
 *
 * @param prompt            the prompt text
 * @param promptLen         tokens of {@code prompt} as counted by the dataset's tokenizer
 * @param expectedOutputLen tokens to request ({@code max_tokens}); at least 1
 * @param requestId         the dataset's id for this request (prefix + index)
 * @param extras            further values for the feeder; keys must not be the reserved ones
 */
public record SampleRequest(
    String prompt,
    int promptLen,
    int expectedOutputLen,
    String requestId,
    Map<String, Object> extras) {

  /** Feeder key of the prompt text ({@code String}). */
  public static final String PROMPT = "prompt";
  /** Feeder key of the prompt length in tokens ({@code Integer}). */
  public static final String PROMPT_LEN = "prompt_len";
  /** Feeder key of the expected output length in tokens ({@code Integer}). */
  public static final String OUTPUT_LEN = "output_len";
  /** Feeder key of the dataset's request id ({@code String}). */
  public static final String REQUEST_ID = "request_id";

  private static final Set<String> RESERVED = Set.of(PROMPT, PROMPT_LEN, OUTPUT_LEN, REQUEST_ID);

  public SampleRequest {
    Objects.requireNonNull(prompt, "prompt");
    Objects.requireNonNull(requestId, "requestId");
    if (promptLen < 0) {
      throw new IllegalArgumentException("promptLen must be >= 0, got " + promptLen);
    }
    if (expectedOutputLen < 1) {
      throw new IllegalArgumentException("expectedOutputLen must be >= 1, got "
          + expectedOutputLen);
    }
    extras = extras == null ? Map.of() : Map.copyOf(extras);
    for (String key : extras.keySet()) {
      if (RESERVED.contains(key)) {
        throw new IllegalArgumentException("extras may not use the reserved feeder key '" + key
            + "'");
      }
    }
  }

  /** A request without extras. */
  public SampleRequest(String prompt, int promptLen, int expectedOutputLen, String requestId) {
    this(prompt, promptLen, expectedOutputLen, requestId, Map.of());
  }

  /** The same request under another id (used when oversampling). */
  public SampleRequest withRequestId(String id) {
    return new SampleRequest(prompt, promptLen, expectedOutputLen, id, extras);
  }

  /**
   * The Gatling feeder record: {@value #PROMPT}, {@value #PROMPT_LEN}, {@value #OUTPUT_LEN},
   * {@value #REQUEST_ID} and the extras. The map is unmodifiable.
   */
  public Map<String, Object> toFeederRecord() {
    Map<String, Object> record = new HashMap<>(extras);
    record.put(PROMPT, prompt);
    record.put(PROMPT_LEN, promptLen);
    record.put(OUTPUT_LEN, expectedOutputLen);
    record.put(REQUEST_ID, requestId);
    return Map.copyOf(record);
  }

  @Override
  public String toString() {
    String shown = prompt.length() <= 60 ? prompt : prompt.substring(0, 60) + "...";
    return "SampleRequest{" + requestId + ", promptLen=" + promptLen + ", outputLen="
        + expectedOutputLen + ", prompt=" + shown.replace("\n", "\\n") + extras + "}";
  }
}
