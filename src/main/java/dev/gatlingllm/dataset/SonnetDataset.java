package dev.gatlingllm.dataset;

import dev.gatlingllm.internal.dataset.DatasetException;
import dev.gatlingllm.tokenizer.Tokenizer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Prompts made of poem lines ({@code --dataset-name sonnet}), for testing prefix caching with
 * a shared beginning and controlled lengths.
 *
 * <p>Every prompt is an instruction line, then the first lines of the file (as many as fit
 * in about {@code prefixLen} tokens, the same for every request), then lines drawn at random
 * (with repetition) until about {@code inputLen} tokens; the line counts come from the average
 * tokens per line. A draw longer than {@code inputLen} is discarded and drawn again. The
 * output length is {@code outputLen} for every request.
 *
 * <p>Unlike vLLM, no chat template is applied to the prompt (there is no Jinja renderer here),
 * so lengths are those of the raw text; use a chat endpoint to have the server apply the
 * model's template.
 */
public final class SonnetDataset extends DatasetBuilder<SonnetDataset> {

  public static final int DEFAULT_INPUT_LEN = 550;
  public static final int DEFAULT_OUTPUT_LEN = 150;
  public static final int DEFAULT_PREFIX_LEN = 200;

  /** The instruction every prompt starts with. */
  public static final String INSTRUCTION =
      "Repeat as many of the following poem lines as you can:\n";

  private static final int MAX_DRAWS_PER_PROMPT = 100;

  private final Path path;
  private final int inputLen;
  private final int outputLen;
  private final int prefixLen;

  SonnetDataset(Path path) {
    this(Common.DEFAULTS, path, DEFAULT_INPUT_LEN, DEFAULT_OUTPUT_LEN, DEFAULT_PREFIX_LEN);
  }

  private SonnetDataset(Common common, Path path, int inputLen, int outputLen, int prefixLen) {
    super(common);
    this.path = path;
    this.inputLen = inputLen;
    this.outputLen = outputLen;
    this.prefixLen = prefixLen;
  }

  @Override
  SonnetDataset with(Common common) {
    return new SonnetDataset(common, path, inputLen, outputLen, prefixLen);
  }

  /** Upper bound of prompt tokens ({@code --sonnet-input-len}, default 550). */
  public SonnetDataset inputLen(int tokens) {
    atLeast("sonnet-input-len", tokens, 1);
    return new SonnetDataset(common, path, tokens, outputLen, prefixLen);
  }

  /** Output tokens per request ({@code --sonnet-output-len}, default 150). */
  public SonnetDataset outputLen(int tokens) {
    atLeast("sonnet-output-len", tokens, 1);
    return new SonnetDataset(common, path, inputLen, tokens, prefixLen);
  }

  /** Tokens of the shared beginning ({@code --sonnet-prefix-len}, default 200). */
  public SonnetDataset prefixLen(int tokens) {
    atLeast("sonnet-prefix-len", tokens, 0);
    return new SonnetDataset(common, path, inputLen, outputLen, tokens);
  }

  /** The configured {@code path}. */
  public Path path() {
    return path;
  }

  @Override
  public String name() {
    return "sonnet";
  }

  @Override
  public Samples sample(Tokenizer tokenizer) {
    common.requirePrompts(name());
    if (prefixLen > inputLen) {
      throw new IllegalArgumentException("sonnet-prefix-len " + prefixLen
          + " is larger than sonnet-input-len " + inputLen + ": the prefix must fit in the prompt");
    }
    DataFiles.requireFile(path, "Sonnet");
    List<String> lines = DataFiles.linesWithTerminators(path, "Sonnet");
    if (lines.stream().allMatch(String::isBlank)) {
      throw new DatasetException("Sonnet file " + path + " has no non-blank line");
    }
    double avgLen = lines.stream().mapToInt(tokenizer::countWithSpecialTokens).average()
        .orElseThrow();
    int baseOffset = tokenizer.countWithSpecialTokens(INSTRUCTION);
    if (inputLen <= baseOffset) {
      throw new IllegalArgumentException("sonnet-input-len " + inputLen + " must be larger than "
          + "the " + baseOffset + " tokens of the instruction line");
    }
    // Python's round() rounds halves to even; Math.rint does the same.
    int inputLines = (int) Math.rint((inputLen - baseOffset) / avgLen);
    int prefixLines = Math.max(0, (int) Math.rint((prefixLen - baseOffset) / avgLen));
    StringBuilder prefix = new StringBuilder(INSTRUCTION);
    for (int i = 0; i < prefixLines; i++) {
      prefix.append(lines.get(i % lines.size()));
    }
    int drawn = Math.max(0, inputLines - prefixLines);

    SplittableRandom rng = Sampling.rng(common.seed(), Sampling.Stream.PICK);
    List<SampleRequest> requests = new ArrayList<>(common.numPrompts());
    int rejected = 0;
    int budget = MAX_DRAWS_PER_PROMPT * common.numPrompts();
    while (requests.size() < common.numPrompts()) {
      if (rejected >= budget) {
        throw new DatasetException("Sonnet file " + path + ": after " + rejected + " draws only "
            + requests.size() + " of " + common.numPrompts() + " prompts fit in sonnet-input-len "
            + inputLen + " (lines average " + Math.round(avgLen) + " tokens); raise "
            + "sonnet-input-len");
      }
      StringBuilder text = new StringBuilder(prefix);
      for (int i = 0; i < drawn; i++) {
        text.append(lines.get(rng.nextInt(lines.size())));
      }
      String prompt = text.toString();
      int promptLen = tokenizer.countWithSpecialTokens(prompt);
      if (promptLen <= inputLen) {
        requests.add(new SampleRequest(prompt, promptLen, outputLen,
            common.id(requests.size())));
      } else {
        rejected++;
      }
    }
    return Sampling.done(name(), requests, prefixLines + " prefix lines + " + drawn
        + " random lines, " + rejected + " draws over the limit");
  }

  @Override
  public String toString() {
    return "sonnet{path=" + path + ", inputLen=" + inputLen + ", outputLen=" + outputLen
        + ", prefixLen=" + prefixLen + ", " + common + "}";
  }
}
