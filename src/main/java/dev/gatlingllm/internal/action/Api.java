package dev.gatlingllm.internal.action;

import dev.gatlingllm.action.Backends;
import dev.gatlingllm.action.RequestFlags;
import dev.gatlingllm.internal.client.ChunkReader;
import dev.gatlingllm.internal.metrics.TaskType;
import io.gatling.javaapi.core.ActionBuilder;
import java.util.List;

/**
 * One server API (completions, chat, Responses, audio, embeddings, rerank): vLLM's request
 * function of a backend. It builds the request from the command line's flags and its body,
 * says how its answer is read, and carries the capabilities the rest of the plugin asks about
 * instead of comparing backend names. {@link Backends} registers each API under the vLLM
 * backend names that send it.
 *
 * <p>Adding an API: its class (body out, stream in, capabilities), its row in
 * {@link Backends}, and, when users call it by name, its factory in {@code LlmDsl}.
 */
public abstract class Api {

  private final String endpointType;
  private final String defaultPath;
  private final List<String> endpointEndings;
  private final boolean streams;
  private final TaskType metrics;
  private final boolean chatTemplate;

  /**
   * @param endpointType    the result file's {@code endpoint_type} of a run of this API only
   *                        ({@code completions}: the run's {@code --backend} name)
   * @param defaultPath     the path its requests go to by default (vLLM's own
   *                        {@code --endpoint} default is {@code /v1/completions} whatever the
   *                        backend, so its users pass {@code --endpoint} for the others)
   * @param endpointEndings how a given {@code --endpoint} must end, as vLLM checks the URL
   * @param streams         whether the answer streams (SSE) rather than being one JSON body
   * @param metrics         vLLM's metric set: generation, or the reduced pooling set
   * @param chatTemplate    whether its request is a chat message list the server renders with
   *                        its chat template: what conversations, BFCL's tools, the multimodal
   *                        chat message and {@code --chat-template-kwargs} need
   */
  Api(String endpointType, String defaultPath, List<String> endpointEndings, boolean streams,
      TaskType metrics, boolean chatTemplate) {
    this.endpointType = endpointType;
    this.defaultPath = defaultPath;
    this.endpointEndings = List.copyOf(endpointEndings);
    this.streams = streams;
    this.metrics = metrics;
    this.chatTemplate = chatTemplate;
  }

  /** The result file's {@code endpoint_type} for a run of this API only. */
  public final String endpointType() {
    return endpointType;
  }

  public final String defaultPath() {
    return defaultPath;
  }

  public final List<String> endpointEndings() {
    return endpointEndings;
  }

  public final boolean streams() {
    return streams;
  }

  public final TaskType metrics() {
    return metrics;
  }

  /** Whether results use vLLM's reduced (pooling) metric set. */
  public final boolean pooling() {
    return metrics == TaskType.EMBEDDING;
  }

  /** Whether the server renders its request's chat messages with its chat template. */
  public final boolean chatTemplate() {
    return chatTemplate;
  }

  /**
   * How its answer's chunks (or its one JSON body) are read; the OpenAI chunk reader, with
   * its allocation-free fast path, unless the API's answer is shaped otherwise.
   */
  public ChunkReader reader() {
    return ChunkReader.OPENAI;
  }

  /** The request every user sends, with the command line's part of it. */
  public abstract ActionBuilder request(RequestFlags flags);
}
