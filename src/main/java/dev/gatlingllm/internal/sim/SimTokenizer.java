package dev.gatlingllm.internal.sim;

import dev.gatlingllm.sim.SimulatorConfig;
import dev.gatlingllm.tokenizer.Tokenizer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/**
 * How the simulator counts prompt tokens and maps text to token ids: by the word rule of
 * {@link SimTokens} (the default: free, so the simulator stays cheap under any load), or with a
 * real tokenizer ({@link SimulatorConfig#tokenizer()}), so that {@code usage.prompt_tokens},
 * {@code /tokenize} and {@code /detokenize} agree with a client counting with that tokenizer.
 * Special tokens are never added: a prompt's count is its text's tokens, as the client's
 * datasets count them, and {@code /tokenize} gives the same count.
 *
 * <p>The generated text stays the one of {@link SimTokens}; a tokenizer is only taken when each
 * of its words is one token of it, so the output's count is the one {@code usage} reports.
 * Thread-safe.
 */
public final class SimTokenizer implements AutoCloseable {

  /** The word rule of {@link SimTokens}. */
  public static final SimTokenizer WORDS = new SimTokenizer(null);

  /** Hub ids of the GPT-2 tokenizer that ships with the plugin: loaded without a download. */
  private static final Set<String> SHIPPED_GPT2 = Set.of(Tokenizer.GPT2_ID,
      "openai-community/gpt2");
  /** Output tokens whose count is checked when a tokenizer is loaded. */
  private static final int CHECKED_OUTPUT = 100;

  /** Null for the word rule. */
  private final Tokenizer tokenizer;
  /** Highest id {@link #text} accepts. */
  private final int maxId;

  private SimTokenizer(Tokenizer tokenizer) {
    this.tokenizer = tokenizer;
    if (tokenizer == null) {
      maxId = SimTokens.VOCABULARY_SIZE - 1;
    } else {
      int max = tokenizer.vocabSize() - 1;
      for (int id : tokenizer.specialTokenIds()) {
        max = Math.max(max, id);
      }
      maxId = max;
    }
  }

  /**
   * Loads {@code pathOrModelId} ({@code gpt2} for the shipped GPT-2, a {@code tokenizer.json} or
   * its folder, or a Hugging Face model id), checking that the simulator's output words are one
   * token each in it.
   *
   * @throws IllegalArgumentException when it cannot be loaded, or counts the output otherwise
   */
  public static SimTokenizer load(String pathOrModelId) {
    Tokenizer tokenizer;
    try {
      tokenizer = SHIPPED_GPT2.contains(pathOrModelId) && !Files.exists(Path.of(pathOrModelId))
          ? Tokenizer.gpt2() : Tokenizer.resolve(pathOrModelId);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("simulator tokenizer '" + pathOrModelId
          + "' cannot be loaded: " + e.getMessage() + "; give gpt2, a tokenizer.json, its "
          + "folder or a Hugging Face model id", e);
    }
    String text = SimTokens.text(CHECKED_OUTPUT);
    int counted = tokenizer.count(text);
    if (counted != CHECKED_OUTPUT) {
      tokenizer.close();
      throw new IllegalArgumentException("simulator tokenizer '" + pathOrModelId + "' counts "
          + counted + " tokens in the simulator's output of " + CHECKED_OUTPUT + " (the words"
          + " \" zero\" to \" nine\"): usage.completion_tokens would not be the output's count;"
          + " use a tokenizer in which each of these words is one token (GPT-2's is)");
    }
    return new SimTokenizer(tokenizer);
  }

  /** Whether counting costs enough to be kept off the event loops (a real tokenizer). */
  public boolean costly() {
    return tokenizer != null;
  }

  /** Prompt tokens of one text. */
  int count(String text) {
    return tokenizer == null ? SimTokens.countPromptTokens(text) : tokenizer.count(text);
  }

  /** Token ids of one text; as many as {@link #count}. */
  int[] ids(String text) {
    return tokenizer == null ? SimTokens.tokenIds(text) : tokenizer.encode(text);
  }

  /**
   * The text of token ids.
   *
   * @throws IllegalArgumentException for an id outside the vocabulary
   */
  String text(int[] ids) {
    if (tokenizer == null) {
      return SimTokens.detokenize(ids);
    }
    for (int id : ids) {
      if (id < 0 || id > maxId) {
        throw new IllegalArgumentException("token id " + id + " is out of vocabulary (0.."
            + maxId + ")");
      }
    }
    return tokenizer.decode(ids);
  }

  @Override
  public void close() {
    if (tokenizer != null) {
      tokenizer.close();
    }
  }

  @Override
  public String toString() {
    return tokenizer == null ? "whitespace-separated words" : tokenizer.id();
  }
}
