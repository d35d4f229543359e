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

  private ApiError(HttpResponseStatus status, String type, String message) {
    this(status, type, message, null);
  }

  private ApiError(HttpResponseStatus status, String type, String message, String param) {
    super(message, null, false, false);
    this.status = status;
    this.type = type;
    this.param = param;
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
        "The model `" + model + "` does not exist.", "model");
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
