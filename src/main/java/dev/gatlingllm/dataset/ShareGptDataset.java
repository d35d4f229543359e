package dev.gatlingllm.dataset;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatlingllm.internal.dataset.DatasetException;
import dev.gatlingllm.tokenizer.Tokenizer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Real conversations from a ShareGPT JSON file ({@code --dataset-name sharegpt}): a JSON
 * array of objects whose {@code conversations} list holds turns {@code {"from", "value"}}.
 *
 * <p>Entries with fewer than two turns are dropped; the rest are shuffled with the seed
 * (unless {@link #disableShuffle}). The first turn is the prompt and the second the reply
 * whose token count is the expected output length, unless {@link #outputLen} overrides it.
 * Pairs are pruned as vLLM does: prompt under 4 tokens, reply under 4 tokens (only when the
 * length comes from the reply), prompt over 1024 tokens, or prompt plus output over 2048.
 * Lengths are counted with the tokenizer's special tokens, like vLLM's {@code tokenizer(text)}.
 * When fewer pairs survive than requested, random ones are repeated (see
 * {@link #noOversample}).
 */
public final class ShareGptDataset extends DatasetBuilder<ShareGptDataset> {

  private final Path path;
  private final Integer outputLen;

  ShareGptDataset(Path path) {
    this(Common.DEFAULTS, path, null);
  }

  private ShareGptDataset(Common common, Path path, Integer outputLen) {
    super(common);
    this.path = path;
    this.outputLen = outputLen;
  }

  @Override
  ShareGptDataset with(Common common) {
    return new ShareGptDataset(common, path, outputLen);
  }

  /** Output length for every request instead of the reply's ({@code --sharegpt-output-len}). */
  public ShareGptDataset outputLen(int tokens) {
    atLeast("sharegpt-output-len", tokens, 1);
    return new ShareGptDataset(common, path, tokens);
  }

  /** The configured {@code path}. */
  public Path path() {
    return path;
  }

  @Override
  public String name() {
    return "sharegpt";
  }

  @Override
  public Samples sample(Tokenizer tokenizer) {
    common.requirePrompts(name());
    DataFiles.requireFile(path, "ShareGPT");
    List<String[]> pairs = new ArrayList<>();
    DataFiles.jsonArray(path, "ShareGPT", (index, entry) -> {
      String[] pair = firstTwoTurns(entry, index);
      if (pair != null) {
        pairs.add(pair);
      }
    });
    if (pairs.isEmpty()) {
      throw new DatasetException("ShareGPT file " + path + " has no conversation with at least "
          + "two turns (expected [{\"conversations\": [{\"from\": ..., \"value\": ...}, ...]}])");
    }
    if (!common.disableShuffle()) {
      Sampling.shuffle(pairs, common.seed());
    }
    List<SampleRequest> requests = new ArrayList<>();
    int pruned = 0;
    for (String[] pair : pairs) {
      if (requests.size() >= common.numPrompts()) {
        break;
      }
      int promptLen = tokenizer.countWithSpecialTokens(pair[0]);
      int output = outputLen != null ? outputLen : tokenizer.countWithSpecialTokens(pair[1]);
      if (!Sampling.isValidSequence(promptLen, output, outputLen != null)) {
        pruned++;
        continue;
      }
      requests.add(new SampleRequest(pair[0], promptLen, output, common.id(requests.size())));
    }
    if (requests.isEmpty()) {
      throw new DatasetException("ShareGPT file " + path + ": all " + pairs.size()
          + " conversations were pruned (prompt under 4 or over 1024 tokens, reply under 4, or "
          + "prompt plus output over 2048 tokens); nothing is left to sample");
    }
    int copies = Sampling.oversample(requests, common, "ShareGPT file " + path);
    return Sampling.done(name(), requests, pairs.size() + " conversations, " + pruned
        + " pruned, " + copies + " repeated to reach " + common.numPrompts());
  }

  private String[] firstTwoTurns(JsonNode entry, int index) {
    JsonNode turns = entry.get("conversations");
    if (turns == null || !turns.isArray() || turns.size() < 2) {
      return null;
    }
    String prompt = DataFiles.text(turns.get(0), "value");
    String reply = DataFiles.text(turns.get(1), "value");
    if (prompt == null || reply == null) {
      throw new DatasetException("ShareGPT file " + path + " entry " + index
          + ": the first two turns must have a string \"value\"");
    }
    return new String[] {prompt, reply};
  }

  @Override
  public String toString() {
    return "sharegpt{path=" + path + ", outputLen=" + outputLen + ", " + common + "}";
  }
}
