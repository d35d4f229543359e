package dev.gatlingllm.dataset;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatlingllm.internal.dataset.DatasetException;
import dev.gatlingllm.tokenizer.Tokenizer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Spec-Bench questions ({@code --dataset-name spec_bench}), the speculative-decoding benchmark
 * of <a href="https://github.com/hemingkx/Spec-Bench">hemingkx/Spec-Bench</a>: a JSON Lines
 * file ({@code data/spec_bench/question.jsonl}) of
 *
 * <pre>
 * {"question_id": 81, "category": "writing", "turns": ["first question", "follow-up"]}
 * </pre>
 *
 * <p>As in vLLM, the prompt is the first turn; {@link #category} keeps only one category
 * ({@code --spec-bench-category}, e.g. {@code summarization}; all when unset); every request
 * asks for {@link #outputLen} tokens ({@code --spec-bench-output-len}, default
 * {@value #DEFAULT_OUTPUT_LEN}). Lines are shuffled with the seed unless
 * {@link #disableShuffle}; {@link #allPrompts()} uses every question once. Like the custom
 * dataset, prompts are sent as written (no chat template is rendered here).
 */
public final class SpecBenchDataset extends DatasetBuilder<SpecBenchDataset> {

  public static final int DEFAULT_OUTPUT_LEN = 256;

  private final Path path;
  private final String category;
  private final int outputLen;

  SpecBenchDataset(Path path) {
    this(Common.DEFAULTS, path, null, DEFAULT_OUTPUT_LEN);
  }

  private SpecBenchDataset(Common common, Path path, String category, int outputLen) {
    super(common);
    this.path = path;
    this.category = category;
    this.outputLen = outputLen;
  }

  @Override
  SpecBenchDataset with(Common common) {
    return new SpecBenchDataset(common, path, category, outputLen);
  }

  /** Only questions of this category ({@code --spec-bench-category}); null or blank: all. */
  public SpecBenchDataset category(String name) {
    return new SpecBenchDataset(common, path, name == null || name.isBlank() ? null
        : name.trim(), outputLen);
  }

  /** Output length of every request ({@code --spec-bench-output-len}, default 256). */
  public SpecBenchDataset outputLen(int tokens) {
    atLeast("spec-bench-output-len", tokens, 1);
    return new SpecBenchDataset(common, path, category, tokens);
  }

  /** Use every (matching) question once ({@code --num-prompts 0} in vLLM). */
  public SpecBenchDataset allPrompts() {
    return with(common.withNumPrompts(0));
  }

  /** The configured {@code path}. */
  public Path path() {
    return path;
  }

  @Override
  public String name() {
    return "spec_bench";
  }

  @Override
  public Samples sample(Tokenizer tokenizer) {
    DataFiles.requireFile(path, "Spec-Bench dataset");
    List<String> prompts = new ArrayList<>();
    Set<String> categories = new TreeSet<>();
    int[] lines = {0};
    DataFiles.jsonLines(path, "Spec-Bench dataset", (number, node) -> {
      lines[0]++;
      String where = "Spec-Bench file " + path + " line " + number;
      if (!node.isObject()) {
        throw new DatasetException(where + " is not a JSON object");
      }
      JsonNode turns = node.get("turns");
      if (turns == null || !turns.isArray() || turns.isEmpty() || !turns.get(0).isTextual()) {
        throw new DatasetException(where + " has no \"turns\" list starting with a string");
      }
      String lineCategory = DataFiles.text(node, "category");
      if (lineCategory != null) {
        categories.add(lineCategory);
      }
      if (category == null || category.equals(lineCategory)) {
        prompts.add(turns.get(0).asText());
      }
    });
    if (lines[0] == 0) {
      throw new DatasetException("Spec-Bench file " + path + " has no question (expected one "
          + "JSON object per line with \"category\" and \"turns\")");
    }
    if (prompts.isEmpty()) {
      throw new DatasetException("Spec-Bench file " + path + " has no question in category '"
          + category + "'; its categories are " + categories);
    }
    if (!common.disableShuffle()) {
      Sampling.shuffle(prompts, common.seed());
    }
    int wanted = common.numPrompts() == 0 ? prompts.size() : common.numPrompts();
    List<SampleRequest> requests = new ArrayList<>(wanted);
    for (int i = 0; i < prompts.size() && requests.size() < wanted; i++) {
      String prompt = prompts.get(i);
      requests.add(new SampleRequest(prompt, tokenizer.countWithSpecialTokens(prompt), outputLen,
          common.id(i)));
    }
    int copies = common.numPrompts() == 0 ? 0
        : Sampling.oversample(requests, common, "Spec-Bench file " + path);
    return Sampling.done(name(), requests, prompts.size() + " questions"
        + (category == null ? "" : " in category " + category) + ", " + copies
        + " repeated to reach " + wanted);
  }

  @Override
  public String toString() {
    return "spec_bench{path=" + path + ", category=" + category + ", outputLen=" + outputLen
        + ", " + common + "}";
  }
}
