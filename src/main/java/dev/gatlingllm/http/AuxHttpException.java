package dev.gatlingllm.http;

import java.io.IOException;

/**
 * An auxiliary HTTP call got no usable answer. The message names the method or URL (without
 * user info or query) and the status or cause; it never holds a header value.
 */
public final class AuxHttpException extends IOException {

  private static final long serialVersionUID = 1L;

  private final String url;
  private final int status;

  AuxHttpException(String message, String url, int status, Throwable cause) {
    super(message, cause);
    this.url = url;
    this.status = status;
  }

  /** The URL called, without user info, query or fragment. */
  public String url() {
    return url;
  }

  /** The HTTP status answered, or -1 when there was no answer. */
  public int status() {
    return status;
  }
}
