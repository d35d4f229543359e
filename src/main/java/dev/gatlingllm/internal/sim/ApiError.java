package dev.gatlingllm.internal.sim;

import io.netty.handler.codec.http.HttpResponseStatus;

/**
 * A request the simulator refuses, with the status and vLLM error type to answer with.
 * Thrown for control flow only, so no stack trace is captured.
 */
final class ApiError extends Exception {

  private final HttpResponseStatus status;
  private final String type;
  /** The request field at fault, as vLLM names it in {@code error.param}; null when none. */
  private final String param;
  /** Answered in the Messages API's error shape rather than the OpenAI one. */
  private final boolean messagesShape;

  private ApiError(HttpResponseStatus status, String type, String message) {
    this(status, type, message, null, false);
  }

  private ApiError(HttpResponseStatus status, String type, String message, String param,
      boolean messagesShape) {
    super(message, null, false, false);
    this.status = status;
    this.type = type;
    this.param = param;
    this.messagesShape = messagesShape;
  }

  /**
   * This error as vLLM's Messages API route answers the errors of its own handler (an unknown
   * model): {@code {"type":"error","error":{"type":..., "message":...}}}, same status.
   */
  ApiError inMessagesShape() {
    return new ApiError(status, type, getMessage(), param, true);
  }

  /** The body to answer with. */
  String body() {
    if (messagesShape) {
      return "{\"type\":\"error\",\"error\":{\"type\":\"" + type + "\",\"message\":"
          + ResponseText.quote(getMessage()) + "}}";
    }
    return ResponseText.error(getMessage(), type, param, status.code());
  }

  static ApiError badRequest(String message) {
    return new ApiError(HttpResponseStatus.BAD_REQUEST, "BadRequestError", message);
  }

  /** A body that is not JSON, as a server that does not check before parsing answers it. */
  static ApiError serverError(String message) {
    return new ApiError(HttpResponseStatus.INTERNAL_SERVER_ERROR, "server_error", message);
  }

  static ApiError modelNotFound(String model) {
    return new ApiError(HttpResponseStatus.NOT_FOUND, "NotFoundError",
        "The model `" + model + "` does not exist.", "model", false);
  }

  HttpResponseStatus status() {
    return status;
  }

  String type() {
    return type;
  }

  String param() {
    return param;
  }
}
