package dev.gatlingllm.dataset;

import dev.gatlingllm.internal.dataset.DatasetException;
import dev.gatlingllm.tokenizer.Tokenizer;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * vllm-bench's {@code --max-model-len}: the requests whose prompt and output tokens together
 * exceed the model's context are dropped after sampling, so that none is sent to fail with
 * the server's 400. The run sends fewer requests then, and says how many were dropped.
 */
public final class MaxModelLen extends DatasetOver {

  private static final Logger LOG = LoggerFactory.getLogger(MaxModelLen.class);

  private final int maxModelLen;

  private MaxModelLen(DatasetSpec spec, int maxModelLen) {
    super(spec);
    this.maxModelLen = maxModelLen;
  }

  /**
   * The dataset without its requests longer than {@code tokens}.
   *
   * @throws IllegalArgumentException when {@code tokens} is below 2 (a prompt token and an
   *                                  output token)
   */
  public static DatasetSpec of(DatasetSpec spec, int tokens) {
    if (tokens < 2) {
      throw new IllegalArgumentException("--max-model-len must be at least 2 (one prompt and "
          + "one output token), got " + tokens);
    }
    return new MaxModelLen(spec, tokens);
  }

  /** Whether a request fits: prompt plus requested output within the context. */
  static boolean fits(SampleRequest r, int maxModelLen) {
    return (long) r.promptLen() + r.expectedOutputLen() <= maxModelLen;
  }

  @Override
  public Samples sample(Tokenizer tokenizer) {
    Samples all = spec.sample(tokenizer);
    List<SampleRequest> kept = new ArrayList<>(all.size());
    for (SampleRequest r : all.requests()) {
      if (fits(r, maxModelLen)) {
        kept.add(r);
      }
    }
    int dropped = all.size() - kept.size();
    if (kept.isEmpty()) {
      throw new DatasetException("--max-model-len " + maxModelLen + ": every one of the "
          + all.size() + " requests has more prompt + output tokens than that; raise it or "
          + "choose shorter lengths");
    }
    if (dropped == 0) {
      return all;
    }
    LOG.warn("--max-model-len {}: dropped {} of {} requests whose prompt + output tokens "
        + "exceed it; {} are sent", maxModelLen, dropped, all.size(), kept.size());
    return Sampling.done(all.dataset(), kept, dropped + " over max-model-len " + maxModelLen
        + " dropped");
  }

  @Override
  public String toString() {
    return spec + " within max-model-len " + maxModelLen;
  }
}
