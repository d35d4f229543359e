package dev.gatlingllm.internal.sim;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import java.io.IOException;

/** A request body read as a JSON object, refused with vLLM's 400 messages otherwise. */
final class RequestJson {

  private static final ObjectMapper JSON = new ObjectMapper();

  private RequestJson() {}

  /** The body's JSON object; the buffer's reader index is left where it was. */
  static JsonNode object(ByteBuf body) throws ApiError {
    JsonNode root;
    try {
      root = JSON.readTree(new ByteBufInputStream(body.duplicate()));
    } catch (JacksonException e) {
      throw ApiError.badRequest("Invalid JSON in request body: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw ApiError.badRequest("Unreadable request body: " + e.getMessage());
    }
    if (root == null || !root.isObject()) {
      throw ApiError.badRequest("Request body must be a JSON object");
    }
    return root;
  }
}
