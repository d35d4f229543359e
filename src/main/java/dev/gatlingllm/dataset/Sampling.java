package dev.gatlingllm.dataset;

import dev.gatlingllm.internal.dataset.DatasetException;
import java.util.ArrayList;
import java.util.IntSummaryStatistics;
import java.util.List;
import java.util.SplittableRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Sampling steps several datasets share. */
final class Sampling {

  private static final Logger LOG = LoggerFactory.getLogger("dev.gatlingllm.dataset");

  /** Streams of randomness used by one sampling, kept apart so one does not shift another. */
  enum Stream {
    SHUFFLE, LENGTHS, TOKENS, PICK, OVERSAMPLE
  }

  private Sampling() {}

  /** A generator for one purpose of one seed; the same seed always gives the same stream. */
  static SplittableRandom rng(long seed, Stream stream) {
    return new SplittableRandom(seed * 0x9E3779B97F4A7C15L + stream.ordinal() * 0xBF58476D1CE4E5B9L);
  }

  /**
   * A generator for one item (one prompt) of one purpose: items drawn from their own streams
   * can be generated in parallel and still come out the same for the same seed.
   */
  static SplittableRandom rng(long seed, Stream stream, long item) {
    return new SplittableRandom(rng(seed, stream).nextLong() + item * 0x94D049BB133111EBL);
  }

  /** Fisher-Yates shuffle driven by the seed. */
  static <T> void shuffle(List<T> list, long seed) {
    SplittableRandom rng = rng(seed, Stream.SHUFFLE);
    for (int i = list.size() - 1; i > 0; i--) {
      int j = rng.nextInt(i + 1);
      T tmp = list.get(i);
      list.set(i, list.get(j));
      list.set(j, tmp);
    }
  }

  /**
   * vLLM's pruning of real conversations: a prompt or an output under {@code minLen} tokens
   * is too short, a prompt over {@code maxPromptLen} or a pair over {@code maxTotalLen} too
   * long. The output check is skipped when the output length was set by the user.
   */
  static boolean isValidSequence(int promptLen, int outputLen, int minLen, int maxPromptLen,
      int maxTotalLen, boolean skipMinOutputCheck) {
    boolean promptTooShort = promptLen < minLen;
    boolean outputTooShort = !skipMinOutputCheck && outputLen < minLen;
    boolean promptTooLong = promptLen > maxPromptLen;
    boolean totalTooLong = promptLen + outputLen > maxTotalLen;
    return !(promptTooShort || outputTooShort || promptTooLong || totalTooLong);
  }

  static boolean isValidSequence(int promptLen, int outputLen, boolean skipMinOutputCheck) {
    return isValidSequence(promptLen, outputLen, 4, 1024, 2048, skipMinOutputCheck);
  }

  /**
   * Tops the list up to {@code wanted} with copies of randomly chosen entries under new ids,
   * as vLLM does when a dataset has fewer usable entries than asked for.
   *
   * @return how many copies were added
   */
  static int oversample(List<SampleRequest> requests, Common common, String what) {
    if (requests.isEmpty()) {
      throw new DatasetException(what + " gave no usable request");
    }
    int wanted = common.numPrompts();
    if (common.noOversample() || requests.size() >= wanted) {
      return 0;
    }
    SplittableRandom rng = rng(common.seed(), Stream.OVERSAMPLE);
    int have = requests.size();
    List<SampleRequest> copies = new ArrayList<>(wanted - have);
    for (int i = 0; i < wanted - have; i++) {
      copies.add(requests.get(rng.nextInt(have)).withRequestId(common.id(have + i)));
    }
    requests.addAll(copies);
    return copies.size();
  }

  /** Logs what was sampled: counts and token length ranges. */
  static Samples done(String dataset, List<SampleRequest> requests, String details) {
    Samples samples = new Samples(dataset, requests);
    if (LOG.isInfoEnabled()) {
      IntSummaryStatistics in = requests.stream().mapToInt(SampleRequest::promptLen)
          .summaryStatistics();
      IntSummaryStatistics out = requests.stream().mapToInt(SampleRequest::expectedOutputLen)
          .summaryStatistics();
      LOG.info("{}: {} requests{}; prompt tokens min {} mean {} max {}; output tokens min {} "
              + "mean {} max {}", dataset, requests.size(), details.isEmpty() ? "" : " (" + details
              + ")", in.getMin(), Math.round(in.getAverage()), in.getMax(), out.getMin(),
          Math.round(out.getAverage()), out.getMax());
    }
    return samples;
  }
}
