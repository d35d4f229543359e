package dev.gatlingllm.internal.protocol;

import dev.gatlingllm.internal.metrics.TaskType;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The kinds of request a run sends ({@code completions}, {@code openai-chat}, ...), registered
 * by its request actions while the simulation is built, and the one metric set they share.
 */
final class RequestKinds {

  private final Set<String> endpointTypes = new LinkedHashSet<>();
  private final Set<TaskType> taskTypes = new LinkedHashSet<>();

  /**
   * Records a request kind and its metric set. One run has one metric set, as in vLLM:
   * generation and pooling requests (embeddings, rerank) cannot share a protocol.
   *
   * @throws IllegalStateException when the run already has requests of the other set
   */
  synchronized void register(String type, TaskType task) {
    if (!taskTypes.isEmpty() && !taskTypes.contains(task)) {
      throw new IllegalStateException("request kind '" + type + "' is a " + describe(task)
          + " request but this protocol already has " + describe(taskTypes.iterator().next())
          + " requests (" + String.join(", ", endpointTypes) + "); results have one metric "
          + "set per run, as in vLLM: give each its own simulation");
    }
    taskTypes.add(task);
    endpointTypes.add(type);
  }

  /** The endpoint types registered so far. */
  synchronized Set<String> endpointTypes() {
    return new LinkedHashSet<>(endpointTypes);
  }

  /** The run's metric set: embedding when pooling requests were registered. */
  synchronized TaskType taskType() {
    return taskTypes.contains(TaskType.EMBEDDING) ? TaskType.EMBEDDING : TaskType.GENERATION;
  }

  private static String describe(TaskType task) {
    return task == TaskType.GENERATION ? "generation" : "pooling (embeddings/rerank)";
  }
}
