package dev.gatlingllm.internal.client;

import com.fasterxml.jackson.core.JsonProcessingException;

/** Short, stable descriptions of JSON errors: no source location, no newlines. */
final class JsonErrors {

  private JsonErrors() {}

  static String describe(Exception e) {
    String message = e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
    if (message == null) {
      return e.getClass().getSimpleName();
    }
    int cut = message.indexOf('\n');
    return (cut < 0 ? message : message.substring(0, cut)).strip();
  }
}
