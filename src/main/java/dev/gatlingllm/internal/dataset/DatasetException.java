package dev.gatlingllm.internal.dataset;

import dev.gatlingllm.internal.logging.UsersProblem;
/**
 * The data behind a dataset cannot be used: a missing or malformed file, nothing left after
 * filtering, an unknown hub dataset. The message names the file or id and what is wrong.
 */
public final class DatasetException extends RuntimeException implements UsersProblem {

  private static final long serialVersionUID = 1L;

  public DatasetException(String message) {
    super(message);
  }

  public DatasetException(String message, Throwable cause) {
    super(message, cause);
  }
}
