package dev.gatlingllm.internal.sim;

import dev.gatlingllm.sim.Fault;
import dev.gatlingllm.sim.SimulatorConfig;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Everything shared between connections: the admission of requests into at most
 * {@code maxRunning} running slots with a FIFO queue for the rest, and the counters behind
 * the statistics. Connections live on different event loops, so one lock guards it all;
 * each request takes it only a handful of times, never per token.
 */
public final class ServerState {

  private final int slots;
  /** Insertion-ordered for FIFO admission, and O(1) removal when a queued client leaves. */
  private final LinkedHashSet<Generation> waiting = new LinkedHashSet<>();
  private long received;
  private int inFlight;
  private int maxInFlight;
  private int running;
  private int maxRunning;
  private final long[] faults = new long[Fault.values().length];
  /** Generation requests over, by vLLM's {@code finished_reason} ({@link Finished}). */
  private final long[] finished = new long[Finished.values().length];
  private final PrefixCache prefixCache = new PrefixCache();
  private final SessionCache sessionCache = new SessionCache();
  private final SpecDecoding specDecoding = new SpecDecoding();
  /** Tokens reserved by running requests (prompt + max output), for the KV-cache gauge. */
  private long kvTokens;

  /** Paths of the profiler calls received, in order. */
  private final List<String> profilerCalls = new ArrayList<>();

  /** The simulated GPUs; null when none are served. */
  private final GpuPower gpus;

  public ServerState(int slots) {
    this(slots, null);
  }

  ServerState(int slots, GpuPower gpus) {
    this.slots = slots;
    this.gpus = gpus;
  }

  /** The server state of {@code config}, with its simulated GPUs when it has any. */
  public static ServerState of(dev.gatlingllm.sim.SimulatorConfig config) {
    return new ServerState(config.maxRunning(), config.gpus() == 0 ? null
        : new GpuPower(config.gpus(), config.gpuIdleWatts(), config.gpuWattsPerRequest(),
            config.gpuMaxWatts(), System.nanoTime()));
  }

  /** DCGM's exposition of the simulated GPUs now; null when there are none. */
  synchronized String gpuExposition() {
    return gpus == null ? null : gpus.exposition(System.nanoTime());
  }

  synchronized void profilerCall(String path) {
    profilerCalls.add(path);
  }

  public synchronized List<String> profilerCalls() {
    return List.copyOf(profilerCalls);
  }

  /** A valid generation request arrived: returns its 0-based arrival number. */
  synchronized long arrive() {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    return received++;
  }

  /** A request that never entered admission (answered with an injected error) is over. */
  synchronized void depart() {
    inFlight--;
  }

  /** Takes a running slot for {@code g} if one is free (true) or queues it (false). */
  synchronized boolean submit(Generation g) {
    if (running < slots) {
      takeSlot(g);
      return true;
    }
    waiting.add(g);
    return false;
  }

  /**
   * {@code g} is over, finished or abandoned, queued or running. Frees its slot and hands
   * it to the oldest waiting request, which is returned (the caller must start it on its
   * own event loop), or null.
   */
  synchronized Generation finish(Generation g) {
    inFlight--;
    if (!g.holdsSlot) {
      waiting.remove(g);
      return null;
    }
    g.holdsSlot = false;
    kvTokens -= g.kvTokens();
    running--;
    if (gpus != null) {
      gpus.running(running, System.nanoTime());
    }
    Iterator<Generation> it = waiting.iterator();
    if (!it.hasNext()) {
      return null;
    }
    Generation next = it.next();
    it.remove();
    takeSlot(next);
    return next;
  }

  private void takeSlot(Generation g) {
    g.holdsSlot = true;
    kvTokens += g.kvTokens();
    running++;
    maxRunning = Math.max(maxRunning, running);
    if (gpus != null) {
      gpus.running(running, System.nanoTime());
    }
  }

  /** {@code POST /reset_prefix_cache}: the prefix cache starts empty; other resets have none. */
  synchronized void resetCache(String path) {
    if (path.equals("/reset_prefix_cache")) {
      prefixCache.reset();
    }
  }

  /**
   * The prefix cache sees a prompt that was admitted for generation: returns its prompt
   * tokens the cache held.
   */
  synchronized long lookUpPrefix(GenerationRequest request) {
    return prefixCache.lookup(request.promptText(), request.promptTokens());
  }

  /**
   * A generation wrote its {@code outputTokens}: with speculative decoding simulated, its
   * drafts count in vLLM's counters (see {@link SpecDecoding}).
   */
  synchronized void decoded(int outputTokens, SimulatorConfig config) {
    specDecoding.count(outputTokens, config.specDecodeTokens(), config.specDecodeAccepted());
  }

  /**
   * The session cache sees a conversation's turn: returns its prompt tokens computed before
   * (see {@link SessionCache}).
   */
  synchronized int lookUpSession(String session, GenerationRequest request) {
    return sessionCache.cachedTokens(session, request);
  }

  synchronized void countFault(Fault kind) {
    faults[kind.ordinal()]++;
  }

  /**
   * Why a generation request was over, as vLLM's {@code vllm:request_success_total} labels it
   * ({@code finished_reason}): the simulator always generates {@code max_tokens}, so a whole
   * answer is {@code length}; {@code abort} is a client that went away before its end, which
   * vLLM counts there too (the engine aborts the request when its stream is closed).
   */
  public enum Finished {
    STOP("stop"), LENGTH("length"), ABORT("abort");

    private final String label;

    Finished(String label) {
      this.label = label;
    }

    /** vLLM's label value. */
    public String label() {
      return label;
    }
  }

  synchronized void countFinished(Finished reason) {
    finished[reason.ordinal()]++;
  }

  /**
   * Restarts the arrival numbering (so fault injection starts over), zeroes the counters
   * and sets the maxima to what is open right now.
   */
  public synchronized void reset() {
    received = 0;
    maxInFlight = inFlight;
    maxRunning = running;
    Arrays.fill(faults, 0);
    Arrays.fill(finished, 0);
  }

  public synchronized Snapshot snapshot() {
    return new Snapshot(received, inFlight, maxInFlight, running, maxRunning, waiting.size(),
        faults.clone(), Math.min(1.0, (double) kvTokens / KV_CACHE_TOKENS),
        prefixCache.queries(), prefixCache.hits(), specDecoding.snapshot(), finished.clone());
  }

  /**
   * The simulated KV cache's size in tokens: the usage gauge is the prompt and output tokens
   * reserved by running requests over this (a GPU of a few tens of GB holds about this much
   * for an 8B model).
   */
  public static final long KV_CACHE_TOKENS = 131_072;

  /** A consistent copy of the counters. */
  public record Snapshot(long received, int inFlight, int maxInFlight, int running, int maxRunning,
      int waiting, long[] faults, double kvCacheUsage, long prefixQueries, long prefixHits,
      SpecDecoding.Counts specDecoding, long[] finished) {

    public long faults(Fault kind) {
      return faults[kind.ordinal()];
    }

    /** Generation requests over for {@code reason}. */
    public long finished(Finished reason) {
      return finished[reason.ordinal()];
    }
  }
}
