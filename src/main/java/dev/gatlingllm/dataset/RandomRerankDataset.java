package dev.gatlingllm.dataset;

import dev.gatlingllm.tokenizer.Tokenizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Synthetic rerank requests ({@code --dataset-name random-rerank}), as vLLM builds them: one
 * random query of about half the input length, and {@code numPrompts} random documents that
 * fill the rest, grouped {@code batchSize} per request. A request's prompt is the query, its
 * {@code documents} feeder attribute the list of documents, and its prompt length the query
 * once per document (plus one separator token each) plus the documents. With
 * {@link #reranker(boolean) reranker(false)} (vLLM's {@code --no-reranker}, for embedding models
 * serving {@code /v1/rerank}) the query counts once and is full length, and one document per
 * batch makes room for it.
 *
 * <p>Requests ask for one output token: rerank has no output, and a sample needs one.
 */
public final class RandomRerankDataset extends DatasetBuilder<RandomRerankDataset> {

  /** Feeder attribute of the documents ({@code List<String>}). */
  public static final String DOCUMENTS = "documents";

  private final int inputLen;
  private final double rangeRatio;
  private final int batchSize;
  private final boolean reranker;

  RandomRerankDataset() {
    this(Common.DEFAULTS, RandomDataset.DEFAULT_INPUT_LEN, RandomDataset.DEFAULT_RANGE_RATIO, 1,
        true);
  }

  private RandomRerankDataset(Common common, int inputLen, double rangeRatio, int batchSize,
      boolean reranker) {
    super(common);
    this.inputLen = inputLen;
    this.rangeRatio = rangeRatio;
    this.batchSize = batchSize;
    this.reranker = reranker;
  }

  @Override
  RandomRerankDataset with(Common common) {
    return new RandomRerankDataset(common, inputLen, rangeRatio, batchSize, reranker);
  }

  /** Tokens of a query and one document together ({@code --random-input-len}). */
  public RandomRerankDataset inputLen(int tokens) {
    if (tokens < 4) {
      throw new IllegalArgumentException("random-input-len must be >= 4 for random-rerank "
          + "(a query and a document), got " + tokens);
    }
    return new RandomRerankDataset(common, tokens, rangeRatio, batchSize, reranker);
  }

  /** Spread of the document lengths ({@code --random-range-ratio}), in [0, 1). */
  public RandomRerankDataset rangeRatio(double ratio) {
    if (!(ratio >= 0.0 && ratio < 1.0)) {
      throw new IllegalArgumentException("random-range-ratio must be in [0, 1), got " + ratio);
    }
    return new RandomRerankDataset(common, inputLen, ratio, batchSize, reranker);
  }

  /** Documents per request ({@code --random-batch-size}, default 1). */
  public RandomRerankDataset batchSize(int documents) {
    atLeast("random-batch-size", documents, 1);
    return new RandomRerankDataset(common, inputLen, rangeRatio, documents, reranker);
  }

  /** False for an embedding model behind {@code /v1/rerank} ({@code --no-reranker}). */
  public RandomRerankDataset reranker(boolean value) {
    return new RandomRerankDataset(common, inputLen, rangeRatio, batchSize, value);
  }

  @Override
  public String name() {
    return "random-rerank";
  }

  @Override
  public Samples sample(Tokenizer tokenizer) {
    common.requirePrompts(name());
    int separators = reranker ? 1 : 0;
    int queryTarget = reranker ? inputLen / 2 - separators : inputLen;
    int documents = common.numPrompts();
    int batch = batchSize;
    int docTarget = inputLen - queryTarget - separators;
    if (!reranker) {
      if (documents < 2 || batch < 2) {
        throw new IllegalArgumentException("random-rerank with --no-reranker needs "
            + "--num-prompts > 1 and --random-batch-size > 1: one document of each batch "
            + "makes room for the query");
      }
      documents--;
      batch--;
      docTarget = inputLen;
    }
    SampleRequest query = Datasets.random().inputLen(queryTarget).outputLen(1).numPrompts(1)
        .seed(common.seed()).sample(tokenizer).requests().get(0);
    // another seed than the query's, so the first document is not the query again
    List<SampleRequest> docs = Datasets.random().inputLen(docTarget).rangeRatio(rangeRatio)
        .outputLen(1).numPrompts(documents).seed(common.seed() + 1).sample(tokenizer)
        .requests();
    List<SampleRequest> requests = new ArrayList<>();
    for (int from = 0; from < documents; from += batch) {
      List<SampleRequest> group = docs.subList(from, Math.min(documents, from + batch));
      List<String> texts = new ArrayList<>(group.size());
      int len = reranker ? (query.promptLen() + separators) * group.size() : query.promptLen();
      for (SampleRequest d : group) {
        texts.add(d.prompt());
        len += d.promptLen();
      }
      requests.add(new SampleRequest(query.prompt(), len, 1, common.id(from / batch),
          Map.of(DOCUMENTS, List.copyOf(texts))));
    }
    return Sampling.done(name(), requests, requests.size() + " requests of up to " + batch
        + " documents");
  }

  @Override
  public String toString() {
    return "random-rerank{inputLen=" + inputLen + ", rangeRatio=" + rangeRatio + ", batchSize="
        + batchSize + ", reranker=" + reranker + ", " + common + "}";
  }
}
