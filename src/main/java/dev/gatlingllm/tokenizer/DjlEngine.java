package dev.gatlingllm.tokenizer;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A Hugging Face {@code tokenizer.json} through DJL's {@link HuggingFaceTokenizer}, with
 * truncation and padding switched off (DJL otherwise truncates every encoding to 512 tokens
 * without saying so). The native tokenizer is immutable once loaded.
 */
final class DjlEngine implements TokenizerEngine {

  private final HuggingFaceTokenizer delegate;
  private final TokenizerJson vocabulary;
  private final int specialTokensAdded;
  private final AtomicBoolean closed = new AtomicBoolean();

  private DjlEngine(HuggingFaceTokenizer delegate, TokenizerJson vocabulary) {
    this.delegate = delegate;
    this.vocabulary = vocabulary;
    this.specialTokensAdded = delegate.encode("", true, false).getIds().length;
  }

  /** @throws IllegalArgumentException when the bytes are not a valid tokenizer.json */
  static DjlEngine fromBytes(byte[] json, String source) {
    TokenizerJson vocabulary = TokenizerJson.parse(json, source);
    DjlQuiet.apply();
    try {
      HuggingFaceTokenizer djl = HuggingFaceTokenizer.newInstance(
          new ByteArrayInputStream(json),
          Map.of("addSpecialTokens", "false",
              "truncation", "false",
              "padding", "false"));
      return new DjlEngine(djl, vocabulary);
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(
          "Not a valid Hugging Face tokenizer.json: " + source + " (" + e.getMessage() + ")", e);
    }
  }

  @Override
  public int[] encode(String text) {
    return toInts(delegate.encode(text, false, false).getIds());
  }

  @Override
  public int count(String text) {
    return delegate.encode(text, false, false).getIds().length;
  }

  @Override
  public int countWithSpecialTokens(String text) {
    return delegate.encode(text, true, false).getIds().length;
  }

  @Override
  public String decode(int[] ids) {
    long[] wide = new long[ids.length];
    for (int i = 0; i < ids.length; i++) {
      wide[i] = ids[i];
    }
    return delegate.decode(wide, false);
  }

  @Override
  public int vocabSize() {
    return vocabulary.vocabSize();
  }

  @Override
  public int[] specialTokenIds() {
    return vocabulary.specialIds();
  }

  @Override
  public int[] regularTokenIds() {
    return vocabulary.regularIds();
  }

  @Override
  public int numSpecialTokensToAdd() {
    return specialTokensAdded;
  }

  @Override
  public void close() {
    // a tokenizer and its re-aligned view share this engine: the native memory is freed once
    if (closed.compareAndSet(false, true)) {
      delegate.close();
    }
  }

  private static int[] toInts(long[] ids) {
    int[] out = new int[ids.length];
    for (int i = 0; i < ids.length; i++) {
      out[i] = (int) ids[i];
    }
    return out;
  }
}
