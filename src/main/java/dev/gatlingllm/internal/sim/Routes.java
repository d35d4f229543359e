package dev.gatlingllm.internal.sim;

import dev.gatlingllm.sim.SimulatorConfig;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import java.util.Map;

/**
 * Every endpoint the simulator serves, in one table: its path, its method, and how it is
 * answered. An API is a row: a generation reads its body into a {@link GenerationRequest}
 * (whose shape, completion, chat, Responses or Messages, picks the answer's texts), a pooling
 * request into a {@link PoolingRequest} and the texts of its answer. Adding an API that answers
 * like one already served is a row here and the reader of its body; a new answer shape adds
 * its texts ({@link ResponseText}, or {@link TypedEvents} such as {@link ResponsesText}) as
 * well. The connection handler only follows the table ({@link ConnectionHandler}).
 */
public final class Routes {

  private Routes() {}

  /** Where the simulated GPUs' DCGM series are served (a DCGM exporter's own path is /metrics). */
  public static final String GPU_METRICS_PATH = "/dcgm/metrics";

  /** Reads a request's body into what its answer needs; an {@link ApiError} is answered. */
  @FunctionalInterface
  interface Reader<T> {
    T read(FullHttpRequest http, SimulatorConfig config, SimTokenizer tokens) throws ApiError;
  }

  /** The body of a pooling answer. */
  @FunctionalInterface
  interface PoolAnswer {
    String text(long number, String model, PoolingRequest request);
  }

  /** How an endpoint is answered. */
  sealed interface Route permits Generate, Pool, AtOnce, Served {}

  /** A generation: queued for a slot, timed, streamed or not, faults injected. */
  record Generate(Reader<GenerationRequest> reader) implements Route {}

  /** Embeddings or rerank: one JSON answer after the TTFT and the prefill, no slot. */
  record Pool(Reader<PoolingRequest> reader, PoolAnswer answer) implements Route {}

  /** Answered at once, with no slot and no delay, by the JSON its reader makes. */
  record AtOnce(Reader<String> reader) implements Route {}

  /** The server's own endpoints, answered from its state. */
  enum Served implements Route {
    MODELS, HEALTH, METRICS,
    /** vLLM's server answers 200 when started with a profiler directory; it is counted here. */
    PROFILER,
    /** Only when the chunk log is on; 404 otherwise. */
    CHUNK_LOG,
    /** The simulated GPUs' energy and power as NVIDIA's DCGM exporter writes them; 404 with none. */
    GPU_METRICS,
    /**
     * vLLM's cache resets, which its server has when started with {@code VLLM_SERVER_DEV_MODE=1}
     * (a sweep starts it so): the prefix cache forgets its prompts; there is no other cache.
     */
    CACHE_RESET
  }

  /** A path's method and answer. */
  record Endpoint(HttpMethod method, Route route) {}

  private static final Map<String, Endpoint> TABLE = Map.ofEntries(
      post("/v1/completions",
          new Generate((http, c, t) -> GenerationRequest.parse(false, http.content(), c, t))),
      post("/v1/chat/completions",
          new Generate((http, c, t) -> GenerationRequest.parse(true, http.content(), c, t))),
      post("/v1/responses",
          new Generate((http, c, t) -> GenerationRequest.parseResponses(http.content(), c, t))),
      post("/v1/messages",
          new Generate((http, c, t) -> GenerationRequest.parseMessages(http.content(), c, t))),
      post("/v1/audio/transcriptions", audio()),
      post("/v1/audio/translations", audio()),
      post("/v1/embeddings", embeddings()),
      post("/embeddings", embeddings()),   // Infinity's
      post("/pooling", embeddings()),      // vLLM's
      post("/v1/rerank", rerank()),
      post("/rerank", rerank()),
      post("/tokenize",
          new AtOnce((http, c, t) -> TokenizeAnswers.tokenize(http.content(), c, t))),
      post("/detokenize",
          new AtOnce((http, c, t) -> TokenizeAnswers.detokenize(http.content(), c, t))),
      get("/v1/models", Served.MODELS),
      get("/health", Served.HEALTH),
      get("/metrics", Served.METRICS),
      post("/start_profile", Served.PROFILER),
      post("/stop_profile", Served.PROFILER),
      get("/debug/chunk-log", Served.CHUNK_LOG),
      get(GPU_METRICS_PATH, Served.GPU_METRICS),
      post("/reset_prefix_cache", Served.CACHE_RESET),
      post("/reset_mm_cache", Served.CACHE_RESET));

  /** The endpoint at {@code path}; null when there is none (404). */
  static Endpoint find(String path) {
    return TABLE.get(path);
  }

  private static Generate audio() {
    return new Generate((http, c, t) -> AudioRequest.parse(http, c, c.defaultMaxTokens()));
  }

  private static Pool embeddings() {
    return new Pool((http, c, t) -> PoolingRequest.embeddings(http.content(), c, t),
        (number, model, request) -> ResponseText.embeddings(number, model,
            request.promptTokens()));
  }

  private static Pool rerank() {
    return new Pool((http, c, t) -> PoolingRequest.rerank(http.content(), c, t),
        (number, model, request) -> ResponseText.rerank(number, model, request.documents(),
            request.promptTokens()));
  }

  private static Map.Entry<String, Endpoint> post(String path, Route route) {
    return Map.entry(path, new Endpoint(HttpMethod.POST, route));
  }

  private static Map.Entry<String, Endpoint> get(String path, Route route) {
    return Map.entry(path, new Endpoint(HttpMethod.GET, route));
  }
}
