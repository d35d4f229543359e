package dev.gatlingllm.internal.sim;

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
 *
 * <p>Token ids ({@code /tokenize}, {@code /detokenize}): the vocabulary has
 * {@value #VOCABULARY_SIZE} ids. Id {@code k < 10} is the word {@code " zero"} ... {@code " nine"}
 * (so the generated text's ids are its indexes mod 10); any other id {@code k} is the word
 * {@code " t<k>"}. A text's ids are one per whitespace-separated word: a digit word's, the
 * number of a {@code t<k>} word, else {@code 10 + (the word's String hash mod }
 * {@code VOCABULARY_SIZE - 10)}. So ids survive {@code detokenize} then {@code tokenize}, and a
 * text's id count is its prompt token count.
 */
public final class SimTokens {

  private static final String[] WORDS = {
    " zero", " one", " two", " three", " four", " five", " six", " seven", " eight", " nine"
  };

  /** Number of token ids of the simulator's vocabulary. */
  public static final int VOCABULARY_SIZE = 32_000;

  private SimTokens() {}

  /** The token ids of {@code text}, by the rule above. */
  public static int[] tokenIds(CharSequence text) {
    int[] ids = new int[countPromptTokens(text)];
    int n = 0;
    int i = 0;
    while (i < text.length()) {
      if (Character.isWhitespace(text.charAt(i))) {
        i++;
        continue;
      }
      int start = i;
      while (i < text.length() && !Character.isWhitespace(text.charAt(i))) {
        i++;
      }
      ids[n++] = wordId(text.subSequence(start, i).toString());
    }
    return ids;
  }

  /**
   * The text of token ids, by the rule above.
   *
   * @throws IllegalArgumentException for an id outside the vocabulary
   */
  public static String detokenize(int[] ids) {
    StringBuilder sb = new StringBuilder(ids.length * 6);
    for (int id : ids) {
      if (id < 0 || id >= VOCABULARY_SIZE) {
        throw new IllegalArgumentException("token id " + id + " is out of vocabulary (0.."
            + (VOCABULARY_SIZE - 1) + ")");
      }
      sb.append(id < WORDS.length ? WORDS[id] : " t" + id);
    }
    return sb.toString();
  }

  private static int wordId(String word) {
    for (int d = 0; d < WORDS.length; d++) {
      if (WORDS[d].regionMatches(1, word, 0, word.length()) && WORDS[d].length() == word.length() + 1) {
        return d;
      }
    }
    if (word.length() > 1 && word.length() <= 6 && word.charAt(0) == 't'
        && word.chars().skip(1).allMatch(c -> c >= '0' && c <= '9')) {
      int k = Integer.parseInt(word.substring(1));
      if (k >= WORDS.length && k < VOCABULARY_SIZE && !word.startsWith("t0")) {
        return k;
      }
    }
    return WORDS.length + Math.floorMod(word.hashCode(), VOCABULARY_SIZE - WORDS.length);
  }

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
