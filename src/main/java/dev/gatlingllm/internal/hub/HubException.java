package dev.gatlingllm.internal.hub;

import dev.gatlingllm.internal.logging.UsersProblem;
/** A file could not be had from the Hugging Face Hub or its cache; the message says why. */
public final class HubException extends RuntimeException implements UsersProblem {

  private static final long serialVersionUID = 1L;

  public HubException(String message) {
    super(message);
  }

  public HubException(String message, Throwable cause) {
    super(message, cause);
  }
}
