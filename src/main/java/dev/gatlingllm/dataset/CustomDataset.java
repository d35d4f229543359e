package dev.gatlingllm.dataset;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatlingllm.internal.dataset.DatasetException;
import dev.gatlingllm.tokenizer.Tokenizer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Your own prompts from a JSON Lines file ({@code --dataset-name custom}), one object per line:
 *
 * <pre>
 * {"prompt": "What is the capital of India?"}
 * {"prompt": "Summarise this text: ...", "output_len": 512}
 * </pre>
 *
 * <p>The expected output length is {@link #outputLen} when set, else the line's optional
 * {@value #OUTPUT_LEN_FIELD}, else {@value #DEFAULT_OUTPUT_LEN}. Lines are shuffled with the
 * seed (unless {@link #disableShuffle}); {@link #allPrompts()} uses every line once. Prompt
 * lengths are counted with the tokenizer's special tokens, like vLLM.
 *
 * <p>Prompts are never rewritten with a chat template here (there is no Jinja renderer): they
 * are always sent as written, which is what vLLM's {@code --custom-skip-chat-template} asks
 * for, so that flag is accepted by {@link Datasets#fromArgs} and there is no option for it;
 * with a chat endpoint the server applies the model's template itself.
 */
public final class CustomDataset extends DatasetBuilder<CustomDataset> {

  public static final int DEFAULT_OUTPUT_LEN = 256;
  /** Optional per-line output length field. */
  public static final String OUTPUT_LEN_FIELD = "output_len";

  private final Path path;
  private final Integer outputLen;

  CustomDataset(Path path) {
    this(Common.DEFAULTS, path, null);
  }

  private CustomDataset(Common common, Path path, Integer outputLen) {
    super(common);
    this.path = path;
    this.outputLen = outputLen;
  }

  @Override
  CustomDataset with(Common common) {
    return new CustomDataset(common, path, outputLen);
  }

  /** Output length for every request, over any per-line value ({@code --custom-output-len}). */
  public CustomDataset outputLen(int tokens) {
    atLeast("custom-output-len", tokens, 1);
    return new CustomDataset(common, path, tokens);
  }

  /** Use every line of the file once ({@code --num-prompts 0} in vLLM). */
  public CustomDataset allPrompts() {
    return with(common.withNumPrompts(0));
  }

  /** The configured {@code path}. */
  public Path path() {
    return path;
  }


  @Override
  public String name() {
    return "custom";
  }

  /** One line of the file: the prompt and its own output length, or null. */
  private record Line(String prompt, Integer outputLen) {}

  @Override
  public Samples sample(Tokenizer tokenizer) {
    DataFiles.requireFile(path, "Custom dataset");
    List<Line> lines = new ArrayList<>();
    DataFiles.jsonLines(path, "Custom dataset", (number, node) -> lines.add(parse(node, number)));
    if (lines.isEmpty()) {
      throw new DatasetException("Custom dataset file " + path + " has no prompt (expected one "
          + "JSON object per line with a \"prompt\" field)");
    }
    int wanted = common.order(lines);
    List<SampleRequest> requests = new ArrayList<>(wanted);
    for (int i = 0; i < lines.size() && requests.size() < wanted; i++) {
      Line line = lines.get(i);
      int output = outputLen != null ? outputLen
          : line.outputLen() != null ? line.outputLen() : DEFAULT_OUTPUT_LEN;
      requests.add(new SampleRequest(line.prompt(), tokenizer.countWithSpecialTokens(
          line.prompt()), output, common.id(i)));
    }
    int copies = common.numPrompts() == 0 ? 0
        : Sampling.oversample(requests, common, "Custom dataset file " + path);
    return Sampling.done(name(), requests, lines.size() + " lines, " + copies
        + " repeated to reach " + wanted);
  }

  private Line parse(JsonNode node, int number) {
    String where = "Custom dataset file " + path + " line " + number;
    if (!node.isObject()) {
      throw new DatasetException(where + " is not a JSON object");
    }
    String prompt = DataFiles.text(node, "prompt");
    if (prompt == null) {
      throw new DatasetException(where + " has no string \"prompt\" field");
    }
    JsonNode output = node.get(OUTPUT_LEN_FIELD);
    if (output == null || output.isNull()) {
      return new Line(prompt, null);
    }
    if (!output.canConvertToExactIntegral() || output.asInt() < 1) {
      throw new DatasetException(where + ": \"" + OUTPUT_LEN_FIELD
          + "\" must be a whole number >= 1, got " + output);
    }
    return new Line(prompt, output.asInt());
  }

  @Override
  public String toString() {
    return "custom{path=" + path + ", outputLen=" + outputLen + ", " + common + "}";
  }
}
