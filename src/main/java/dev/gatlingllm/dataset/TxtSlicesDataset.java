package dev.gatlingllm.dataset;

import dev.gatlingllm.internal.dataset.DatasetException;
import dev.gatlingllm.internal.http.AuxHttp;
import dev.gatlingllm.internal.http.AuxHttpException;
import dev.gatlingllm.tokenizer.Tokenizer;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * Slices of a plain-text file ({@code --dataset-name txt-slices}): the file (or an
 * {@code http(s)} URL) is tokenized once, and each request is a run of consecutive tokens from
 * a random start, wrapping around at the end, decoded back to text. Its length is drawn as
 * the random dataset draws it: {@link #inputLen} ({@code --random-input-len}, 1024) and
 * {@link #outputLen} ({@code --random-output-len}, 128), each spread by its range ratio
 * ({@code --random-range-ratio}, a number or {@code {"input": r, "output": r}}). Real prose
 * instead of random tokens, at controlled lengths; {@code prompt_len} is the decoded text's
 * real token count.
 */
public final class TxtSlicesDataset extends DatasetBuilder<TxtSlicesDataset> {

  /** Largest text read from a URL: the sample is tokenized whole. */
  private static final int MAX_DOWNLOAD = 64 << 20;

  private final String source;
  private final int inputLen;
  private final int outputLen;
  private final double inputRatio;
  private final double outputRatio;

  TxtSlicesDataset(String source) {
    this(Common.DEFAULTS, source, RandomDataset.DEFAULT_INPUT_LEN,
        RandomDataset.DEFAULT_OUTPUT_LEN, 0.0, 0.0);
  }

  private TxtSlicesDataset(Common common, String source, int inputLen, int outputLen,
      double inputRatio, double outputRatio) {
    super(common);
    this.source = Objects.requireNonNull(source, "source");
    this.inputLen = inputLen;
    this.outputLen = outputLen;
    this.inputRatio = inputRatio;
    this.outputRatio = outputRatio;
  }

  @Override
  TxtSlicesDataset with(Common common) {
    return new TxtSlicesDataset(common, source, inputLen, outputLen, inputRatio, outputRatio);
  }

  /** Tokens per slice ({@code --random-input-len}, default 1024). */
  public TxtSlicesDataset inputLen(int tokens) {
    atLeast("random-input-len", tokens, 1);
    return new TxtSlicesDataset(common, source, tokens, outputLen, inputRatio, outputRatio);
  }

  /** Output tokens per request ({@code --random-output-len}, default 128). */
  public TxtSlicesDataset outputLen(int tokens) {
    atLeast("random-output-len", tokens, 1);
    return new TxtSlicesDataset(common, source, inputLen, tokens, inputRatio, outputRatio);
  }

  /** Spread of both lengths, in [0, 1) ({@code --random-range-ratio}). */
  public TxtSlicesDataset rangeRatio(double ratio) {
    return rangeRatio(ratio, ratio);
  }

  /** Spreads of the input and the output lengths apart, each in [0, 1). */
  public TxtSlicesDataset rangeRatio(double input, double output) {
    // the random dataset's check, so the message is the same
    Datasets.random().rangeRatio(input, output);
    return new TxtSlicesDataset(common, source, inputLen, outputLen, input, output);
  }

  /** The configured file or URL. */
  public String path() {
    return source;
  }

  @Override
  public String name() {
    return "txt-slices";
  }

  @Override
  public Samples sample(Tokenizer tokenizer) {
    common.requirePrompts(name());
    int[] text = tokenizer.encode(read());
    if (text.length == 0) {
      throw new DatasetException("txt-slices source " + source + " has no token to slice");
    }
    int n = common.numPrompts();
    int realInput = Math.max(1, inputLen - tokenizer.numSpecialTokensToAdd());
    int inLow = Math.max(1, (int) Math.floor(realInput * (1 - inputRatio)));
    int inHigh = Math.max(1, (int) Math.ceil(realInput * (1 + inputRatio)));
    int outLow = Math.max(1, (int) Math.floor(outputLen * (1 - outputRatio)));
    int outHigh = Math.max(1, (int) Math.ceil(outputLen * (1 + outputRatio)));
    SplittableRandom lengths = Sampling.rng(common.seed(), Sampling.Stream.LENGTHS);
    SplittableRandom starts = Sampling.rng(common.seed(), Sampling.Stream.PICK);
    List<SampleRequest> requests = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      int length = lengths.nextInt(inLow, inHigh + 1);
      int output = lengths.nextInt(outLow, outHigh + 1);
      int start = starts.nextInt(text.length);
      int[] slice = new int[length];
      for (int j = 0; j < length; j++) {
        slice[j] = text[(start + j) % text.length];
      }
      String prompt = tokenizer.decode(slice);
      requests.add(new SampleRequest(prompt, tokenizer.countWithSpecialTokens(prompt), output,
          common.id(i)));
    }
    return Sampling.done(name(), requests, "slices of " + inLow + ".." + inHigh + " of the "
        + text.length + " tokens of " + source);
  }

  /** The whole text: a local file, or an http(s) URL through the auxiliary HTTP stack. */
  private String read() {
    if (source.startsWith("http://") || source.startsWith("https://")) {
      try {
        return AuxHttp.get(URI.create(source)).timeout(Duration.ofSeconds(60))
            .maxBody(MAX_DOWNLOAD).send().requireOk().text();
      } catch (AuxHttpException e) {
        throw new DatasetException("Cannot download txt-slices text " + AuxHttp.redact(
            URI.create(source)) + ": " + e.getMessage(), e);
      }
    }
    Path file = DataFiles.requireFile(Path.of(source), "txt-slices text");
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new DatasetException("Cannot read txt-slices text " + file + ": " + e.getMessage(),
          e);
    }
  }

  @Override
  public String toString() {
    return "txt-slices{path=" + source + ", inputLen=" + inputLen + ", outputLen=" + outputLen
        + ", rangeRatio=" + inputRatio + "/" + outputRatio + ", " + common + "}";
  }
}
