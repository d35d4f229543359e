package dev.gatlingllm.tokenizer;

import dev.gatlingllm.internal.hub.HubClient;
import dev.gatlingllm.internal.hub.HubException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tokenizer that counts prompt and output tokens the way the served model does, in one
 * of three forms, found as vLLM finds them:
 * <ul>
 *   <li>a Hugging Face {@code tokenizer.json}, read by DJL with truncation and padding off
 *       (DJL otherwise truncates every encoding to 512 tokens without saying so);</li>
 *   <li>a tiktoken rank file ({@code *.tiktoken}, {@code tiktoken.model}) for models that ship
 *       no {@code tokenizer.json}: byte-level BPE over its ranks, the split pattern chosen by
 *       the encoding the file name names ({@code r50k}/{@code p50k}: GPT-2's,
 *       {@code cl100k_base}, {@code o200k_base}), cl100k_base's for any other name; a model
 *       with a pattern of its own loads it with {@link #tiktoken(Path, String)};</li>
 *   <li>the server's own {@code /tokenize} and {@code /detokenize} ({@link #fromServer}), when
 *       no tokenizer file can be had.</li>
 * </ul>
 * Encoding is without special tokens unless a method says otherwise.
 *
 * <p>A tokenizer may also carry the server's, {@link #realignedBy(Tokenizer)}: the random and
 * prefix_repetition datasets then bring each prompt to its exact length in the server's
 * tokens too, as vLLM 0.29 does.
 *
 * <p>Thread safety: once loaded, {@link #count}, {@link #encode}, {@link #decode} and the other
 * read methods may be called from any number of threads at once. {@link #close()} frees the
 * native memory and must not race with those calls. Loading takes a few hundred milliseconds
 * and the server's form sends an HTTP request per call: load once per run, before the run,
 * and never call either on a Gatling event loop.
 *
 * <pre>{@code
 * Tokenizer gpt2 = Tokenizer.gpt2();                        // shipped default
 * Tokenizer local = Tokenizer.load(Path.of("models/llama")); // folder, tokenizer.json or .tiktoken
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

  /** The tiktoken file a hub model without {@code tokenizer.json} ships (Llama 3 style). */
  static final String TIKTOKEN_MODEL = "tiktoken.model";

  private static final Logger LOG = LoggerFactory.getLogger(Tokenizer.class);

  private final TokenizerEngine engine;
  private final String source;
  private final String id;
  /** The server's tokenizer that prompts are re-aligned with; null for none. */
  private final Tokenizer server;

  private Tokenizer(TokenizerEngine engine, String source, String id, Tokenizer server) {
    this.engine = engine;
    this.source = source;
    this.id = id;
    this.server = server;
  }

  /**
   * Loads a tokenizer from disk: a {@code tokenizer.json}, a tiktoken rank file
   * ({@code *.tiktoken} or {@code tiktoken.model}), or a folder holding either (the
   * {@code tokenizer.json} when it has both).
   *
   * @throws IllegalArgumentException when the path does not exist, holds no tokenizer file,
   *     or the file is not a valid tokenizer
   */
  public static Tokenizer load(Path fileOrDirectory) {
    return load(fileOrDirectory, fileOrDirectory.toString());
  }

  private static Tokenizer load(Path fileOrDirectory, String id) {
    Path file = Files.isDirectory(fileOrDirectory) ? fileIn(fileOrDirectory) : fileOrDirectory;
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException(Files.isDirectory(fileOrDirectory)
          ? "Tokenizer folder " + fileOrDirectory.toAbsolutePath() + " has no tokenizer.json "
              + "and no tiktoken file (*.tiktoken, " + TIKTOKEN_MODEL + ")"
          : "Tokenizer file " + fileOrDirectory.toAbsolutePath() + " does not exist");
    }
    String source = file.toAbsolutePath().toString();
    if (isTiktoken(file)) {
      return new Tokenizer(TiktokenEngine.load(file), source, id, null);
    }
    try {
      return new Tokenizer(DjlEngine.fromBytes(Files.readAllBytes(file), source), source, id,
          null);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read tokenizer file " + file.toAbsolutePath(), e);
    }
  }

  /** The folder's tokenizer.json, else its one tiktoken file; a missing path when neither. */
  private static Path fileIn(Path folder) {
    Path json = folder.resolve("tokenizer.json");
    if (Files.isRegularFile(json)) {
      return json;
    }
    try (Stream<Path> files = Files.list(folder)) {
      List<Path> tiktoken = files.filter(Files::isRegularFile).filter(Tokenizer::isTiktoken)
          .sorted().toList();
      if (tiktoken.size() > 1) {
        throw new IllegalArgumentException("Tokenizer folder " + folder.toAbsolutePath()
            + " has no tokenizer.json and several tiktoken files " + tiktoken.stream()
                .map(p -> p.getFileName().toString()).toList() + ": give the one to use");
      }
      return tiktoken.isEmpty() ? json : tiktoken.get(0);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list tokenizer folder " + folder.toAbsolutePath(),
          e);
    }
  }

  private static boolean isTiktoken(Path file) {
    String name = file.getFileName().toString();
    return name.endsWith(".tiktoken") || name.equals(TIKTOKEN_MODEL);
  }

  /**
   * A tiktoken rank file split with the given pattern instead of the one its file name
   * implies: for a model whose pre-tokenizer pattern is its own (the {@code pat_str} of its
   * tokenizer code). No special tokens are known; encoding never produces them anyway.
   *
   * @throws IllegalArgumentException when the file is malformed (naming file and line) or the
   *     pattern is not a Java regular expression
   */
  public static Tokenizer tiktoken(Path rankFile, String splitPattern) {
    if (!Files.isRegularFile(rankFile)) {
      throw new IllegalArgumentException("Tokenizer file " + rankFile.toAbsolutePath()
          + " does not exist");
    }
    return new Tokenizer(TiktokenEngine.load(rankFile, splitPattern, Map.of()),
        rankFile.toAbsolutePath().toString(), rankFile.toString(), null);
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
      String source = "classpath:" + GPT2_RESOURCE;
      return new Tokenizer(DjlEngine.fromBytes(in.readAllBytes(), source), source, GPT2_ID,
          null);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read classpath resource " + GPT2_RESOURCE, e);
    }
  }

  /**
   * Downloads (or takes from the cache) the tokenizer of a Hugging Face model, using
   * {@link HubClient#fromEnvironment()} (HF_ENDPOINT, HF_TOKEN, HF_HOME, HF_HUB_OFFLINE): its
   * {@code tokenizer.json}, else its {@code tiktoken.model}.
   */
  public static Tokenizer fromHub(String modelId) {
    return fromHub(HubClient.fromEnvironment(), modelId, "main");
  }

  /**
   * Same as {@link #fromHub(String)} with an explicit client and revision (package-private:
   * the hub client is internal; tests give their own).
   */
  static Tokenizer fromHub(HubClient hub, String modelId, String revision) {
    Path json;
    try {
      json = hub.modelFile(modelId, revision, "tokenizer.json");
    } catch (HubException noJson) {
      // models such as Kimi or some Llama 3 exports ship only a tiktoken rank file
      try {
        return load(hub.modelFile(modelId, revision, TIKTOKEN_MODEL), modelId);
      } catch (HubException noTiktoken) {
        noJson.addSuppressed(noTiktoken);
        // the tiktoken.model's own failure is most often the same; it stays in the trace
        throw new HubException(noJson.getMessage() + "; no " + TIKTOKEN_MODEL + " either",
            noJson);
      }
    }
    return load(json, modelId);
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

  /**
   * The served model's tokenizer through the server's {@code POST /tokenize} and
   * {@code POST /detokenize} (vLLM's), probed once here. Each call is an HTTP request, so
   * counting and encoding cost a round trip: fine before the run and on the output-counting
   * thread. The ids synthetic prompts are drawn from are those the server gives the shipped
   * sonnet (the server lists no vocabulary). Its {@link #id()} is {@code model}.
   *
   * @param baseUrl the server's root, such as {@code http://127.0.0.1:8000}
   * @param model the {@code model} field of each call
   * @param headers sent with each call (an API key among them; never logged)
   * @param insecureTls whether the server's TLS certificate goes unchecked
   * @throws IllegalStateException saying why the server has no usable {@code /tokenize} (an
   *     HTTP status, a refused connection, ...)
   */
  public static Tokenizer fromServer(String baseUrl, String model, Map<String, String> headers,
      boolean insecureTls) {
    ServerEngine engine = ServerEngine.connect(baseUrl, model, headers, insecureTls);
    return new Tokenizer(engine, engine.toString(), model, null);
  }

  /**
   * This tokenizer with the server's alongside: the random and prefix_repetition datasets
   * sampled with it build each prompt with this one, then bring it to its exact length in
   * the server's tokens (trimmed, or topped up with the prompt's own server tokens) so that
   * its {@code prompt_len} is what the server counts. Everything else is this tokenizer's.
   * The result shares this tokenizer's engine: close one of the two.
   */
  public Tokenizer realignedBy(Tokenizer serverTokenizer) {
    return new Tokenizer(engine, source, id, serverTokenizer);
  }

  /**
   * vLLM 0.29's re-alignment in one call: {@link #realignedBy} the server's tokenizer when
   * the server answers {@code /tokenize} and {@code /detokenize} for {@code model}, else this
   * tokenizer unchanged, saying why once in the log. The server must be up: call it where
   * the dataset is sampled, before the run.
   *
   * <pre>{@code
   * Tokenizer tokenizer = tokenizer("Qwen/Qwen2.5-0.5B")
   *     .realignedByServer("http://127.0.0.1:8000", "Qwen/Qwen2.5-0.5B", Map.of(), false);
   * Samples prompts = random().inputLen(512).numPrompts(100).sample(tokenizer);
   * }</pre>
   */
  public Tokenizer realignedByServer(String baseUrl, String model, Map<String, String> headers,
      boolean insecureTls) {
    try {
      return realignedBy(fromServer(baseUrl, model, headers, insecureTls));
    } catch (IllegalStateException | IllegalArgumentException e) {
      LOG.warn("The server has no usable /tokenize ({}): random and prefix_repetition prompts "
          + "keep the lengths of tokenizer {}", e.getMessage(), id);
      return this;
    }
  }

  /** The server's tokenizer prompts are re-aligned with ({@link #realignedBy}), if any. */
  public Optional<Tokenizer> serverAlignment() {
    return Optional.ofNullable(server);
  }

  /** Whether this is the server's tokenizer ({@link #fromServer}). */
  public boolean isServer() {
    return engine instanceof ServerEngine;
  }

  /** Number of tokens of {@code text}, without special tokens. */
  public int count(String text) {
    return engine.count(text);
  }

  /**
   * Number of tokens of {@code text} with the special tokens the tokenizer adds around a
   * sequence (a BOS token for Llama-style tokenizers, nothing for GPT-2). This is what a
   * server reports as {@code usage.prompt_tokens} for a completions request.
   */
  public int countWithSpecialTokens(String text) {
    return engine.countWithSpecialTokens(text);
  }

  /** Token ids of {@code text}, without special tokens. */
  public int[] encode(String text) {
    return engine.encode(text);
  }

  /** Text of the token ids; special tokens are kept as text. */
  public String decode(int[] ids) {
    return engine.decode(ids);
  }

  /**
   * Size of the model vocabulary without added tokens, as Hugging Face's
   * {@code tokenizer.vocab_size} (50,257 for GPT-2); for a tiktoken file its highest id plus
   * one, for the server's tokenizer the number of ids it draws prompts from.
   */
  public int vocabSize() {
    return engine.vocabSize();
  }

  /** Ids of the special added tokens ({@code <|endoftext|>} for GPT-2), ascending. */
  public int[] specialTokenIds() {
    return engine.specialTokenIds().clone();
  }

  /**
   * Ids of the model vocabulary that are not special tokens, ascending: the ids a synthetic
   * prompt may be built from.
   */
  public int[] regularTokenIds() {
    return engine.regularTokenIds().clone();
  }

  /** How many special tokens encoding adds to a single sequence (0 for GPT-2). */
  public int numSpecialTokensToAdd() {
    return engine.numSpecialTokensToAdd();
  }

  /** Where the tokenizer was loaded from (a path, a classpath resource or a server URL). */
  public String source() {
    return source;
  }

  /**
   * The name it was asked for by: {@code gpt2} for the shipped one, the Hugging Face model id,
   * the path as given, or the server's model. The result file's {@code tokenizer_id} when it
   * counts the output.
   */
  public String id() {
    return id;
  }

  @Override
  public void close() {
    engine.close();
    if (server != null) {
      server.close();
    }
  }

  @Override
  public String toString() {
    return "Tokenizer{" + source + (isServer() ? "" : ", vocab=" + engine.vocabSize())
        + (server == null ? "" : ", re-aligned by " + server.source) + "}";
  }
}
