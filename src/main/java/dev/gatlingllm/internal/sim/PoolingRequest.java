package dev.gatlingllm.internal.sim;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatlingllm.sim.SimulatorConfig;
import io.netty.buffer.ByteBuf;

/**
 * The parts of an embeddings, pooling or rerank body the simulator acts on: how many prompt
 * tokens (by the simulator's tokenizer, {@link SimTokenizer}) and, for rerank, how many documents.
 */
record PoolingRequest(int promptTokens, int documents) {

  /** {@code /v1/embeddings}, {@code /embeddings} (Infinity) and {@code /pooling}. */
  static PoolingRequest embeddings(ByteBuf body, SimulatorConfig config, SimTokenizer tokens)
      throws ApiError {
    JsonNode root = read(body, config);
    JsonNode input = root.get("input");
    JsonNode messages = root.get("messages");
    if (input != null && !input.isNull()) {
      return new PoolingRequest(inputTokens(input, tokens), 0);
    }
    if (messages != null && messages.isArray() && !messages.isEmpty()) {
      int total = 0;
      for (JsonNode m : messages) {
        total += contentTokens(m.get("content"), tokens);
      }
      return new PoolingRequest(total, 0);
    }
    throw ApiError.badRequest("input or messages is required");
  }

  /** {@code /v1/rerank} and {@code /rerank}. */
  static PoolingRequest rerank(ByteBuf body, SimulatorConfig config, SimTokenizer tokens)
      throws ApiError {
    JsonNode root = read(body, config);
    JsonNode query = root.get("query");
    JsonNode documents = root.get("documents");
    if (query == null || !query.isTextual()) {
      throw ApiError.badRequest("query must be a string");
    }
    if (documents == null || !documents.isArray() || documents.isEmpty()) {
      throw ApiError.badRequest("documents must be a non-empty list");
    }
    int total = 0;
    for (JsonNode d : documents) {
      if (!d.isTextual()) {
        throw ApiError.badRequest("documents must be strings");
      }
      // a cross-encoder sees the query once per document
      total += tokens.count(query.textValue()) + tokens.count(d.textValue());
    }
    return new PoolingRequest(total, documents.size());
  }

  private static JsonNode read(ByteBuf body, SimulatorConfig config) throws ApiError {
    JsonNode root = RequestJson.object(body);
    JsonNode requested = root.get("model");
    if (requested != null && requested.isTextual() && !config.serves(requested.textValue())) {
      throw ApiError.modelNotFound(requested.textValue());
    }
    return root;
  }

  private static int inputTokens(JsonNode input, SimTokenizer tokens) throws ApiError {
    if (input.isTextual()) {
      return tokens.count(input.textValue());
    }
    if (input.isArray()) {
      int total = 0;
      for (JsonNode e : input) {
        total += e.isTextual() ? tokens.count(e.textValue()) : 1;
      }
      return total;
    }
    throw ApiError.badRequest("input must be a string or a list");
  }

  private static int contentTokens(JsonNode content, SimTokenizer tokens) {
    if (content == null || content.isNull()) {
      return 0;
    }
    if (content.isTextual()) {
      return tokens.count(content.textValue());
    }
    int total = 0;
    for (JsonNode part : content) {
      if ("text".equals(part.path("type").asText())) {
        total += tokens.count(part.path("text").asText());
      } else {
        total += 1; // an image or other media counts as one placeholder token here
      }
    }
    return total;
  }
}
