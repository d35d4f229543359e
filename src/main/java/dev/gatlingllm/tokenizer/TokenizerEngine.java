package dev.gatlingllm.tokenizer;

/**
 * What differs between the ways {@link Tokenizer} can tokenize: a Hugging Face
 * {@code tokenizer.json} read by DJL, a tiktoken rank file, or the server's own
 * {@code /tokenize} and {@code /detokenize}. Every method may be called from any number of
 * threads at once; {@link #close()} may be called more than once.
 */
interface TokenizerEngine extends AutoCloseable {

  /** Token ids of {@code text}, without special tokens. */
  int[] encode(String text);

  /** Number of tokens of {@code text}, without special tokens. */
  default int count(String text) {
    return encode(text).length;
  }

  /** Number of tokens of {@code text} with the special tokens added around a sequence. */
  int countWithSpecialTokens(String text);

  /** Text of the token ids; special tokens are kept as text. */
  String decode(int[] ids);

  /** Size of the model vocabulary without added tokens. */
  int vocabSize();

  /** Ids of the special tokens, ascending (the engine's own array: callers copy it). */
  int[] specialTokenIds();

  /** Ids a synthetic prompt may be built from, ascending (the engine's own array). */
  int[] regularTokenIds();

  /** How many special tokens encoding adds to a single sequence. */
  int numSpecialTokensToAdd();

  @Override
  void close();
}
