package dev.gatlingllm.sim;

import java.util.ArrayList;
import java.util.List;

/**
 * The simulator's text rules, public so that tests can work out exactly what a response
 * must contain.
 *
 * <p>Generated text: token {@code k} (0-based, counted over the whole completion) is a
 * space followed by the English word for the digit {@code k % 10}: {@code " zero"},
 * {@code " one"}, ... {@code " nine"}, then {@code " zero"} again. Each of these words is
 * a single token in GPT-2-style BPE vocabularies, so re-tokenizing the text gives back
 * the token count. A completion of {@code n} tokens is their concatenation, and with
 * {@code k} tokens per chunk, chunk {@code j} carries tokens {@code j*k} up to
 * {@code min((j+1)*k, n) - 1}.
 *
 * <p>Prompt tokens: the number of maximal runs of non-whitespace characters
 * ({@link Character#isWhitespace}), i.e. whitespace-separated words. For chat, the sum
 * over all messages of their content (string content, or the {@code text} of each
 * {@code {"type":"text"}} part); roles and any chat template are not counted. A prompt
 * given as a list of token ids counts one per id.
 */
public final class SimTokens {

  private static final String[] WORDS = {
    " zero", " one", " two", " three", " four", " five", " six", " seven", " eight", " nine"
  };

  private SimTokens() {}

  /** Text of the generated token with 0-based index {@code index}. */
  public static String token(int index) {
    if (index < 0) {
      throw new IllegalArgumentException("token index must be >= 0, got " + index);
    }
    return WORDS[index % WORDS.length];
  }

  /** Whole generated text of a completion of {@code tokenCount} tokens. */
  public static String text(int tokenCount) {
    return range(0, tokenCount);
  }

  /**
   * Text of every content chunk of a streamed completion, in order.
   *
   * @param tokenCount     completion length in tokens (the request's max tokens)
   * @param tokensPerChunk tokens carried by each chunk except possibly the last
   */
  public static List<String> chunks(int tokenCount, int tokensPerChunk) {
    if (tokenCount < 1 || tokensPerChunk < 1) {
      throw new IllegalArgumentException("tokenCount and tokensPerChunk must be >= 1, got "
          + tokenCount + " and " + tokensPerChunk);
    }
    List<String> out = new ArrayList<>(chunkCount(tokenCount, tokensPerChunk));
    for (int from = 0; from < tokenCount; from += tokensPerChunk) {
      out.add(range(from, Math.min(from + tokensPerChunk, tokenCount)));
    }
    return out;
  }

  /** Number of content chunks a streamed completion of {@code tokenCount} tokens has. */
  public static int chunkCount(int tokenCount, int tokensPerChunk) {
    return (int) (((long) tokenCount + tokensPerChunk - 1) / tokensPerChunk);
  }

  /** Prompt token estimate of one text: its count of whitespace-separated words. */
  public static int countPromptTokens(CharSequence text) {
    int count = 0;
    boolean inWord = false;
    for (int i = 0; i < text.length(); i++) {
      boolean space = Character.isWhitespace(text.charAt(i));
      if (!space && !inWord) {
        count++;
      }
      inWord = !space;
    }
    return count;
  }

  /** Concatenated text of tokens {@code from} (inclusive) to {@code to} (exclusive). */
  static String range(int from, int to) {
    StringBuilder sb = new StringBuilder((to - from) * 6);
    for (int k = from; k < to; k++) {
      sb.append(WORDS[k % WORDS.length]);
    }
    return sb.toString();
  }
}
