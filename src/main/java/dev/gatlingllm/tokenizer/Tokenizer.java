package dev.gatlingllm.tokenizer;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import dev.gatlingllm.hub.HubClient;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * A Hugging Face tokenizer ({@code tokenizer.json}) used to count prompt and output tokens
 * the way the served model does.
 *
 * <p>It wraps DJL's {@link HuggingFaceTokenizer} with truncation and padding switched off
 * (DJL otherwise truncates every encoding to 512 tokens without saying so), and encodes
 * without special tokens unless a method says otherwise.
 *
 * <p>Thread safety: once loaded, {@link #count}, {@link #encode}, {@link #decode} and the other
 * read methods may be called from any number of threads at once; the native tokenizer is
 * immutable after loading. {@link #close()} frees the native memory and must not race with
 * those calls. Loading takes a few hundred milliseconds: do it once per run, before the run,
 * never on a Gatling event loop.
 *
 * <pre>{@code
 * Tokenizer gpt2 = Tokenizer.gpt2();                        // shipped default
 * Tokenizer local = Tokenizer.load(Path.of("models/llama")); // folder or tokenizer.json
 * Tokenizer hub = Tokenizer.fromHub("Qwen/Qwen2.5-0.5B");   // downloaded once, then cached
 * int n = gpt2.count("Hello world");                        // 2
 * }</pre>
 */
public final class Tokenizer implements AutoCloseable {

  /** Where the shipped GPT-2 tokenizer lives, relative to the project directory. */
  public static final Path GPT2_PATH = Path.of("datasets", "tokenizers", "gpt2", "tokenizer.json");

  /** The id of the shipped GPT-2 tokenizer, as the result file names it. */
  public static final String GPT2_ID = "gpt2";

  /** Classpath fallback for the GPT-2 tokenizer when the plugin is used from a jar. */
  static final String GPT2_RESOURCE = "tokenizers/gpt2/tokenizer.json";

  private final HuggingFaceTokenizer delegate;
  private final TokenizerJson vocabulary;
  private final String source;
  private final String id;
  private final int specialTokensAdded;

  private Tokenizer(HuggingFaceTokenizer delegate, TokenizerJson vocabulary, String source,
      String id) {
    this.delegate = delegate;
    this.vocabulary = vocabulary;
    this.source = source;
    this.id = id;
    this.specialTokensAdded = delegate.encode("", true, false).getIds().length;
  }

  /**
   * Loads a {@code tokenizer.json}, given either as the file itself or as the folder that
   * contains it (a model snapshot folder, for example).
   *
   * @throws IllegalArgumentException when the path does not exist, holds no tokenizer.json,
   *     or the file is not a valid tokenizer
   */
  public static Tokenizer load(Path fileOrDirectory) {
    return load(fileOrDirectory, fileOrDirectory.toString());
  }

  private static Tokenizer load(Path fileOrDirectory, String id) {
    Path file = Files.isDirectory(fileOrDirectory)
        ? fileOrDirectory.resolve("tokenizer.json")
        : fileOrDirectory;
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException(Files.isDirectory(fileOrDirectory)
          ? "Tokenizer folder " + fileOrDirectory.toAbsolutePath() + " has no tokenizer.json"
          : "Tokenizer file " + fileOrDirectory.toAbsolutePath() + " does not exist");
    }
    try {
      return fromBytes(Files.readAllBytes(file), file.toAbsolutePath().toString(), id);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read tokenizer file " + file.toAbsolutePath(), e);
    }
  }

  /**
   * The GPT-2 tokenizer the project ships: {@value #GPT2_RESOURCE} under {@code datasets/}
   * in the working directory, else the same path on the classpath.
   */
  public static Tokenizer gpt2() {
    if (Files.isRegularFile(GPT2_PATH)) {
      return load(GPT2_PATH, GPT2_ID);
    }
    try (InputStream in = Tokenizer.class.getClassLoader().getResourceAsStream(GPT2_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("GPT-2 tokenizer not found: neither "
            + GPT2_PATH.toAbsolutePath() + " nor classpath resource " + GPT2_RESOURCE
            + " exists; pass a tokenizer path or Hugging Face model id instead");
      }
      return fromBytes(in.readAllBytes(), "classpath:" + GPT2_RESOURCE, GPT2_ID);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read classpath resource " + GPT2_RESOURCE, e);
    }
  }

  /**
   * Downloads (or takes from the cache) the {@code tokenizer.json} of a Hugging Face model,
   * using {@link HubClient#fromEnvironment()} (HF_ENDPOINT, HF_TOKEN, HF_HOME, HF_HUB_OFFLINE).
   */
  public static Tokenizer fromHub(String modelId) {
    return fromHub(HubClient.fromEnvironment(), modelId, "main");
  }

  /** Same as {@link #fromHub(String)} with an explicit client and revision. */
  public static Tokenizer fromHub(HubClient hub, String modelId, String revision) {
    return load(hub.modelFile(modelId, revision, "tokenizer.json"), modelId);
  }

  /**
   * Resolves a {@code --tokenizer} style value: {@code null} or empty means the shipped
   * GPT-2 tokenizer, an existing file or folder is loaded from disk, anything else is taken
   * as a Hugging Face model id.
   */
  public static Tokenizer resolve(String pathOrModelId) {
    if (pathOrModelId == null || pathOrModelId.isBlank()) {
      return gpt2();
    }
    Path path = Path.of(pathOrModelId);
    if (Files.exists(path)) {
      return load(path, pathOrModelId);
    }
    return fromHub(pathOrModelId);
  }

  private static Tokenizer fromBytes(byte[] json, String source, String id) {
    TokenizerJson vocabulary = TokenizerJson.parse(json, source);
    DjlQuiet.apply();
    try {
      HuggingFaceTokenizer djl = HuggingFaceTokenizer.newInstance(
          new ByteArrayInputStream(json),
          Map.of("addSpecialTokens", "false",
              "truncation", "false",
              "padding", "false"));
      return new Tokenizer(djl, vocabulary, source, id);
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(
          "Not a valid Hugging Face tokenizer.json: " + source + " (" + e.getMessage() + ")", e);
    }
  }

  /** Number of tokens of {@code text}, without special tokens. */
  public int count(String text) {
    return delegate.encode(text, false, false).getIds().length;
  }

  /**
   * Number of tokens of {@code text} with the special tokens the tokenizer adds around a
   * sequence (a BOS token for Llama-style tokenizers, nothing for GPT-2). This is what a
   * server reports as {@code usage.prompt_tokens} for a completions request.
   */
  public int countWithSpecialTokens(String text) {
    return delegate.encode(text, true, false).getIds().length;
  }

  /** Token ids of {@code text}, without special tokens. */
  public int[] encode(String text) {
    return toInts(delegate.encode(text, false, false).getIds());
  }

  /** Text of the token ids; special tokens are kept as text. */
  public String decode(int[] ids) {
    long[] wide = new long[ids.length];
    for (int i = 0; i < ids.length; i++) {
      wide[i] = ids[i];
    }
    return delegate.decode(wide, false);
  }

  /**
   * Size of the model vocabulary without added tokens, as Hugging Face's
   * {@code tokenizer.vocab_size} (50,257 for GPT-2).
   */
  public int vocabSize() {
    return vocabulary.vocabSize();
  }

  /** Ids of the special added tokens ({@code <|endoftext|>} for GPT-2), ascending. */
  public int[] specialTokenIds() {
    return vocabulary.specialIds().clone();
  }

  /**
   * Ids of the model vocabulary that are not special tokens, ascending: the ids a synthetic
   * prompt may be built from.
   */
  public int[] regularTokenIds() {
    return vocabulary.regularIds().clone();
  }

  /** How many special tokens encoding adds to a single sequence (0 for GPT-2). */
  public int numSpecialTokensToAdd() {
    return specialTokensAdded;
  }

  /** Where the tokenizer was loaded from (a path or a classpath resource). */
  public String source() {
    return source;
  }

  /**
   * The name it was asked for by: {@code gpt2} for the shipped one, the Hugging Face model id,
   * or the path as given. The result file's {@code tokenizer_id} when it counts the output.
   */
  public String id() {
    return id;
  }

  @Override
  public void close() {
    delegate.close();
  }

  @Override
  public String toString() {
    return "Tokenizer{" + source + ", vocab=" + vocabulary.vocabSize() + "}";
  }

  private static int[] toInts(long[] ids) {
    int[] out = new int[ids.length];
    for (int i = 0; i < ids.length; i++) {
      out[i] = (int) ids[i];
    }
    return out;
  }
}
