package dev.gatlingllm.dataset;

import dev.gatlingllm.internal.dataset.DatasetException;
import dev.gatlingllm.tokenizer.Tokenizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * vllm-bench's {@code --prompt-token-ids}: each sampled prompt also carries its token ids, as
 * the run's tokenizer encodes it, under {@value #FEEDER_KEY}, so that a completions request
 * can send {@code "prompt": [ids...]} instead of the text. The server then skips its own
 * tokenization and sees exactly these tokens: the prompt length becomes the number of ids
 * (vllm-bench's count), whatever special tokens a server would have added to the text.
 *
 * <pre>{@code
 * Samples samples = PromptTokenIds.of(Datasets.random().inputLen(512)).sample(tokenizer);
 * exec(LlmDsl.completions("ids").fromDataset().promptTokenIds("#{prompt_token_ids}"))
 * }</pre>
 */
public final class PromptTokenIds extends DatasetOver {

  /** Feeder key of a prompt's token ids (an unmodifiable {@code List<Integer>}). */
  public static final String FEEDER_KEY = "prompt_token_ids";

  private PromptTokenIds(DatasetSpec spec) {
    super(spec);
  }

  /** The dataset with each prompt's token ids. */
  public static PromptTokenIds of(DatasetSpec spec) {
    if (spec == null) {
      throw new IllegalArgumentException("dataset must not be null");
    }
    return new PromptTokenIds(spec);
  }

  @Override
  public Samples sample(Tokenizer tokenizer) {
    Samples sampled = spec.sample(tokenizer);
    List<SampleRequest> out = new ArrayList<>(sampled.size());
    for (SampleRequest r : sampled.requests()) {
      int[] ids = tokenizer.encode(r.prompt());
      if (ids.length == 0) {
        throw new DatasetException("--prompt-token-ids: request " + r.requestId() + " has an "
            + "empty prompt, which has no token id to send");
      }
      Map<String, Object> extras = new HashMap<>(r.extras());
      extras.put(FEEDER_KEY, Arrays.stream(ids).boxed().toList());
      out.add(new SampleRequest(r.prompt(), ids.length, r.expectedOutputLen(), r.requestId(),
          extras));
    }
    return new Samples(sampled.dataset(), out);
  }

  @Override
  public String toString() {
    return spec + " sent as token ids";
  }
}
