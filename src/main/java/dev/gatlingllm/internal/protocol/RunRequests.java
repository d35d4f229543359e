package dev.gatlingllm.internal.protocol;

import dev.gatlingllm.internal.client.CancelAfter;
import dev.gatlingllm.internal.metrics.RecordStore;
import dev.gatlingllm.internal.metrics.TaskType;
import io.netty.handler.codec.http.HttpHeaders;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The requests of one copy of the run (the run's, or a rehearsal's) as its actions see them:
 * the kinds registered while the simulation is built, what each request is given before it
 * goes out (its headers and {@code x-request-id}, whether the client cancels it), and where
 * it goes once it is back (the record store, the server compliance check). Each copy numbers,
 * stores and checks its own requests: nothing a rehearsal sends reaches the run's.
 */
public final class RunRequests {

  private final RequestKinds kinds = new RequestKinds();
  private final RequestHeaders headers;
  /** The run's cancel choice; {@link Cancellation#NONE} for a rehearsal's requests. */
  private final Cancellation cancellation;
  /** Numbers the unpaced requests for the cancel choice, in the order they are built. */
  private final AtomicLong unpacedRequests = new AtomicLong();
  private final RecordStore store;
  /** The server checked against each request; a rehearsal's own, thrown away. */
  private final ServerCompliance compliance;
  private final boolean rehearsal;

  private RunRequests(RunSetup setup, RecordStore store, boolean rehearsal) {
    LlmProtocol protocol = setup.protocol();
    this.headers = new RequestHeaders(setup.baseHeaders(), rehearsal ? "warmup-action-"
        : protocol.requestIdPrefix(), setup.share(), !rehearsal && setup.injector() != null);
    this.cancellation = rehearsal ? Cancellation.NONE : protocol.cancellation();
    this.store = store;
    this.compliance = new ServerCompliance(promptCheckOff(protocol));
    this.rehearsal = rehearsal;
  }

  /** The run's own requests, recorded into {@code store}. */
  static RunRequests ofRun(RunSetup setup, RecordStore store) {
    return new RunRequests(setup, store, false);
  }

  /**
   * A rehearsal's requests: a store, compliance check and request ids ({@code
   * warmup-action-<n>}) of their own, never cancelled.
   */
  static RunRequests ofRehearsal(RunSetup setup) {
    return new RunRequests(setup, new RecordStore(), true);
  }

  /**
   * Prompts counted with the shipped GPT-2 fallback are counted with another tokenizer than
   * the server's (unless it serves a GPT-2, or is an embedded simulator counting with it):
   * their counts differ from its by design, and comparing them would only say so.
   */
  private static String promptCheckOff(LlmProtocol protocol) {
    boolean fallback = OutputTokens.FALLBACK_ID.equals(protocol.tokenizerId());
    boolean serverCountsAlike = ServerTokenizers.of(protocol.target())
        .filter(protocol.tokenizerId()::equals).isPresent();
    return fallback && !serverCountsAlike && !protocol.requestModelName()
        .toLowerCase(Locale.ROOT).contains("gpt2")
        ? "prompts counted with the shipped GPT-2 tokenizer, not the server's: give the"
            + " server's tokenizer to compare them" : null;
  }

  /**
   * Records a request kind and its metric set. One run has one metric set, as in vLLM:
   * generation and pooling requests (embeddings, rerank) cannot share a protocol.
   *
   * @throws IllegalStateException when the run already has requests of the other set
   */
  public void register(String type, TaskType task) {
    kinds.register(type, task);
  }

  /** The kinds registered so far, for the run's parameters. */
  RequestKinds kinds() {
    return kinds;
  }

  /**
   * Fresh headers for one request: user headers, authorization, and {@code x-request-id}
   * (the given id, else the protocol's prefix followed by a run-wide counter from 0).
   */
  public HttpHeaders headers(String requestId) {
    return headers(requestId, -1);
  }

  /**
   * {@link #headers(String)}; on an injector of a scaled-out benchmark the id without a
   * given one is the prefix and {@code slotIndex}, the benchmark's index of the request (its
   * arrival slot), so that ids are unique over all injectors and name the same request in
   * every run of the benchmark.
   *
   * @param slotIndex the request's index in the benchmark; -1 when it was not paced
   */
  public HttpHeaders headers(String requestId, long slotIndex) {
    return headers.forRequest(requestId, slotIndex);
  }

  /**
   * When the client cancels the request of index {@code slotIndex} (its arrival slot; -1 when
   * it was not paced, then the order requests are built in numbers it): usually never. A
   * rehearsal's requests (the warm-up) are never cancelled.
   */
  public CancelAfter cancelFor(long slotIndex) {
    if (!cancellation.cancels()) {
      return CancelAfter.NEVER;
    }
    return cancellation.forRequest(slotIndex >= 0 ? slotIndex
        : unpacedRequests.getAndIncrement());
  }

  /** Where the requests' records go. */
  public RecordStore store() {
    return store;
  }

  /** The server checked against what each request asked. */
  public ServerCompliance compliance() {
    return compliance;
  }

  /** Whether these are a rehearsal's requests, not the run's. */
  public boolean rehearsal() {
    return rehearsal;
  }
}
