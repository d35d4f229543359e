package dev.gatlingllm.dataset;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatlingllm.internal.dataset.DatasetException;
import dev.gatlingllm.tokenizer.Tokenizer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * NVIDIA's SPEED-Bench, the speculative-decoding benchmark ({@code --dataset-name
 * speed_bench}): a folder as its preparation script writes it, one JSON Lines file per subset
 * ({@code qualitative.jsonl}, {@code throughput_1k.jsonl}, ...), one question a line:
 *
 * <pre>
 * {"question_id": "q1", "category": "coding", "messages": [{"role": "user", "content": "..."}]}
 * </pre>
 *
 * <p>As in vLLM, {@link #subset} picks the file ({@code --speed-bench-dataset-subset}, default
 * {@value #DEFAULT_SUBSET}), {@link #category} keeps one category
 * ({@code --speed-bench-category}; all when unset), the prompt is the first message's
 * content, and every request asks for {@link #outputLen} tokens
 * ({@code --speed-bench-output-len}, default {@value #DEFAULT_OUTPUT_LEN}). Questions are
 * shuffled with the seed unless {@link #disableShuffle}; {@link #allPrompts()} uses each once.
 * Prompts are sent as written, like the custom dataset's.
 */
public final class SpeedBenchDataset extends DatasetBuilder<SpeedBenchDataset> {

  public static final String DEFAULT_SUBSET = "qualitative";
  public static final int DEFAULT_OUTPUT_LEN = 4096;
  /** Where the data comes from, for a message when the folder is missing. */
  static final String PREPARE = "prepare it with NVIDIA NeMo-Skills' "
      + "nemo_skills/dataset/speed-bench/prepare.py (it downloads "
      + "huggingface.co/datasets/nvidia/SPEED-Bench)";

  private final Path folder;
  private final String subset;
  private final String category;
  private final int outputLen;
  /** Prompts are cut to this many tokens; 0: kept whole. */
  private final int maxInputLen;

  SpeedBenchDataset(Path folder) {
    this(Common.DEFAULTS, folder, DEFAULT_SUBSET, null, DEFAULT_OUTPUT_LEN, 0);
  }

  private SpeedBenchDataset(Common common, Path folder, String subset, String category,
      int outputLen, int maxInputLen) {
    super(common);
    this.folder = Objects.requireNonNull(folder, "folder");
    this.subset = subset;
    this.category = category;
    this.outputLen = outputLen;
    this.maxInputLen = maxInputLen;
  }

  @Override
  SpeedBenchDataset with(Common common) {
    return new SpeedBenchDataset(common, folder, subset, category, outputLen, maxInputLen);
  }

  /** The subset file ({@code --speed-bench-dataset-subset}, default qualitative). */
  public SpeedBenchDataset subset(String name) {
    if (name == null || name.isBlank() || name.contains("/") || name.contains("\\")) {
      throw new IllegalArgumentException("speed-bench-dataset-subset must be a file name such "
          + "as qualitative or throughput_1k, got '" + name + "'");
    }
    return new SpeedBenchDataset(common, folder, name.trim(), category, outputLen, maxInputLen);
  }

  /** Only questions of this category ({@code --speed-bench-category}); null or blank: all. */
  public SpeedBenchDataset category(String name) {
    return new SpeedBenchDataset(common, folder, subset,
        name == null || name.isBlank() ? null : name.trim(), outputLen, maxInputLen);
  }

  /** Output length of every request ({@code --speed-bench-output-len}, default 4096). */
  public SpeedBenchDataset outputLen(int tokens) {
    atLeast("speed-bench-output-len", tokens, 1);
    return new SpeedBenchDataset(common, folder, subset, category, tokens, maxInputLen);
  }

  /**
   * Cut every prompt to its first {@code tokens} tokens (vllm-bench's
   * {@code --speed-bench-max-input-len}), to make a shorter input length out of a long subset
   * such as {@code throughput_16k}.
   */
  public SpeedBenchDataset maxInputLen(int tokens) {
    atLeast("speed-bench-max-input-len", tokens, 1);
    return new SpeedBenchDataset(common, folder, subset, category, outputLen, tokens);
  }

  /** Use every (matching) question once ({@code --num-prompts 0}). */
  public SpeedBenchDataset allPrompts() {
    return with(common.withNumPrompts(0));
  }

  /** The configured folder. */
  public Path path() {
    return folder;
  }

  @Override
  public String name() {
    return "speed_bench";
  }

  @Override
  public Samples sample(Tokenizer tokenizer) {
    if (!Files.isDirectory(folder)) {
      throw new DatasetException("SPEED-Bench --dataset-path " + folder + " is not a folder; "
          + PREPARE);
    }
    Path file = folder.resolve(subset + ".jsonl");
    if (!Files.isRegularFile(file)) {
      throw new DatasetException("SPEED-Bench folder " + folder + " has no " + subset
          + ".jsonl; its subsets are " + subsets());
    }
    List<String> prompts = new ArrayList<>();
    Set<String> categories = new TreeSet<>();
    DataFiles.jsonLines(file, "SPEED-Bench", (number, node) -> {
      String where = "SPEED-Bench file " + file + " line " + number;
      JsonNode messages = node.isObject() ? node.get("messages") : null;
      JsonNode first = messages != null && messages.isArray() && !messages.isEmpty()
          ? messages.get(0) : null;
      String content = DataFiles.text(first, "content");
      if (content == null) {
        throw new DatasetException(where + " has no \"messages\" list whose first message has "
            + "a string \"content\"");
      }
      String lineCategory = DataFiles.text(node, "category");
      if (lineCategory != null) {
        categories.add(lineCategory);
      }
      if (category == null || category.equals(lineCategory)) {
        prompts.add(content);
      }
    });
    if (prompts.isEmpty()) {
      throw new DatasetException(category == null
          ? "SPEED-Bench file " + file + " has no question"
          : "SPEED-Bench file " + file + " has no question in category '" + category
              + "'; its categories are " + categories);
    }
    if (!common.disableShuffle()) {
      Sampling.shuffle(prompts, common.seed());
    }
    int wanted = common.numPrompts() == 0 ? prompts.size() : common.numPrompts();
    List<SampleRequest> requests = new ArrayList<>(wanted);
    for (int i = 0; i < prompts.size() && requests.size() < wanted; i++) {
      String prompt = truncated(prompts.get(i), tokenizer);
      requests.add(new SampleRequest(prompt, tokenizer.countWithSpecialTokens(prompt), outputLen,
          common.id(i)));
    }
    int copies = common.numPrompts() == 0 ? 0
        : Sampling.oversample(requests, common, "SPEED-Bench file " + file);
    return Sampling.done(name(), requests, prompts.size() + " " + subset + " questions"
        + (category == null ? "" : " in category " + category)
        + (maxInputLen == 0 ? "" : ", truncated to " + maxInputLen + " tokens") + ", " + copies
        + " repeated to reach " + wanted);
  }

  /** The prompt's first {@link #maxInputLen} tokens (without special tokens), or all of it. */
  private String truncated(String prompt, Tokenizer tokenizer) {
    if (maxInputLen == 0) {
      return prompt;
    }
    int[] ids = tokenizer.encode(prompt);
    return ids.length <= maxInputLen ? prompt
        : tokenizer.decode(Arrays.copyOf(ids, maxInputLen));
  }

  /** The subset names the folder holds, for the message when one is missing. */
  private Set<String> subsets() {
    try (Stream<Path> files = Files.list(folder)) {
      Set<String> names = new TreeSet<>();
      files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".jsonl"))
          .forEach(n -> names.add(n.substring(0, n.length() - ".jsonl".length())));
      return names;
    } catch (IOException e) {
      throw new DatasetException("Cannot list SPEED-Bench folder " + folder + ": "
          + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return "speed_bench{path=" + folder + ", subset=" + subset + ", category=" + category
        + ", outputLen=" + outputLen + ", maxInputLen=" + maxInputLen + ", " + common + "}";
  }
}
