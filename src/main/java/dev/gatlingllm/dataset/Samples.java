package dev.gatlingllm.dataset;

import dev.gatlingllm.internal.scale.ScaleOut;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The requests a dataset sampled, in order, and the Gatling feeders over them.
 *
 * <pre>{@code
 * Samples samples = Datasets.random().inputLen(512).numPrompts(200).sample(tokenizer);
 * scenario("bench").feed(samples.feeder())...;                  // each request once, in order
 * scenario("soak").feed(listFeeder(samples.records()).circular())...;  // Gatling strategies
 * }</pre>
 */
public final class Samples {

  private final String dataset;
  private final List<SampleRequest> requests;
  private final List<Map<String, Object>> records;

  Samples(String dataset, List<SampleRequest> requests) {
    this.dataset = dataset;
    this.requests = List.copyOf(requests);
    this.records = this.requests.stream().map(SampleRequest::toFeederRecord).toList();
  }

  /** The dataset name these came from ({@code random}, {@code sharegpt}, ...). */
  public String dataset() {
    return dataset;
  }

  /** The sampled requests in order: what the ready-made benchmark sends, one by one. */
  public List<SampleRequest> requests() {
    return requests;
  }

  /** Number of requests. */
  public int size() {
    return requests.size();
  }

  /**
   * The requests' own arrival times in seconds, in order, when the dataset carries them
   * ({@link Datasets#SELF_TIMED}: {@code timed_trace}); replay them with
   * {@code arrivals().replay(ArrivalTrace.ofSeconds(...))} ({@code LlmDsl.traceArrivals}).
   * Empty for every other dataset.
   */
  public Optional<double[]> arrivalSeconds() {
    if (!Datasets.SELF_TIMED.contains(dataset)) {
      return Optional.empty();
    }
    double[] seconds = new double[requests.size()];
    for (int i = 0; i < seconds.length; i++) {
      seconds[i] = ((Number) requests.get(i).extras().get(TimedTraceDataset.TIMESTAMP))
          .doubleValue();
    }
    return Optional.of(seconds);
  }

  /** Sum of the prompt lengths, in tokens. */
  public long totalPromptTokens() {
    return requests.stream().mapToLong(SampleRequest::promptLen).sum();
  }

  /**
   * Feeder records (see {@link SampleRequest#toFeederRecord()}) in order, for Gatling's
   * {@code listFeeder(...)} and its {@code queue()/circular()/random()/shuffle()} strategies.
   */
  public List<Map<String, Object>> records() {
    return records;
  }

  /**
   * A new feeder that gives each record once, in order. Inject at most {@link #size()}
   * users: like a {@code queue()} feeder, an exhausted feeder makes Gatling abort the run
   * (no HTML report, no results). Safe to share between virtual users.
   */
  public Iterator<Map<String, Object>> feeder() {
    return new Feeder(forThisInjector(), false);
  }

  /** A new feeder that starts over after the last record, for runs longer than the data. */
  public Iterator<Map<String, Object>> circularFeeder() {
    return new Feeder(forThisInjector(), true);
  }

  /**
   * The records this JVM sends: all of them, or on one injector of a scaled-out benchmark
   * ({@code -Dllm.injector=K/N}, see {@link ScaleOut}) the records {@code i} with
   * {@code i mod N == K}, the same requests its arrival slots are, after noting the whole
   * sample's {@link #digest()} for the merge's settings check.
   */
  public List<Map<String, Object>> forThisInjector() {
    return forThisInjector(records);
  }

  /**
   * {@link #forThisInjector()} of records made from these samples, one per request in the
   * same order (the feeder records with extra values, for example).
   */
  public <T> List<T> forThisInjector(List<T> perRequest) {
    if (perRequest.size() != requests.size()) {
      throw new IllegalArgumentException(perRequest.size() + " records for " + requests.size()
          + " sampled requests: give one per request, in order");
    }
    ScaleOut scale = ScaleOut.current();
    if (!scale.requested()) {
      return perRequest;
    }
    ScaleOut.noteDataset(digest());
    return scale.share().select(perRequest);
  }

  /**
   * SHA-256 over every request's prompt, lengths and id, in order: equal on two machines
   * exactly when they sampled the same requests.
   */
  public String digest() {
    List<String> parts = new ArrayList<>(4 * requests.size() + 1);
    parts.add(dataset);
    for (SampleRequest r : requests) {
      parts.add(r.requestId());
      parts.add(Integer.toString(r.promptLen()));
      parts.add(Integer.toString(r.expectedOutputLen()));
      parts.add(r.prompt());
    }
    return ScaleOut.digest(parts);
  }

  /** A supplier of fresh {@link #feeder()}s, for {@code feed(Supplier)}. */
  public Supplier<Iterator<Map<String, Object>>> feederSupplier() {
    return this::feeder;
  }

  @Override
  public String toString() {
    return "Samples{" + dataset + ", " + requests.size() + " requests, " + totalPromptTokens()
        + " prompt tokens}";
  }

  private static final class Feeder implements Iterator<Map<String, Object>> {
    private final List<Map<String, Object>> records;
    private final boolean circular;
    private int next;

    Feeder(List<Map<String, Object>> records, boolean circular) {
      this.records = records;
      this.circular = circular;
    }

    @Override
    public synchronized boolean hasNext() {
      return !records.isEmpty() && (circular || next < records.size());
    }

    @Override
    public synchronized Map<String, Object> next() {
      if (!hasNext()) {
        throw new NoSuchElementException("All " + records.size() + " dataset records were used");
      }
      Map<String, Object> record = records.get(next);
      next = circular ? (next + 1) % records.size() : next + 1;
      return record;
    }
  }
}
