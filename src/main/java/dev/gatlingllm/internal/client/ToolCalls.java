package dev.gatlingllm.internal.client;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The tool calls of one answer, put together from its chunks. A streamed call comes in
 * fragments: its first delta names it ({@code index}, {@code id}, {@code function.name}) and
 * the ones after it carry pieces of {@code function.arguments}, each under the same
 * {@code index}; several calls interleave by index. Only when the answer is over are the
 * arguments whole, so only then are they parsed.
 */
public final class ToolCalls {

  private static final JsonFactory JSON = new JsonFactory();

  /** The calls in order of their first fragment. */
  private final List<Call> calls = new ArrayList<>(2);

  private static final class Call {
    final int index;
    String name;
    final StringBuilder arguments = new StringBuilder();

    Call(int index) {
      this.index = index;
    }
  }

  /**
   * One fragment of the call at {@code index}: its name (null when this fragment does not
   * carry it) and a piece of its arguments (null for none).
   */
  public void fragment(int index, String name, String arguments) {
    Call call = find(index);
    if (call == null) {
      call = new Call(index);
      calls.add(call);
    }
    if (name != null && !name.isEmpty()) {
      call.name = name;
    }
    if (arguments != null) {
      call.arguments.append(arguments);
    }
  }

  private Call find(int index) {
    for (Call c : calls) {
      if (c.index == index) {
        return c;
      }
    }
    return null;
  }

  /** Calls seen: distinct indexes. */
  public int count() {
    return calls.size();
  }

  /** The function the {@code i}-th call names; null when no fragment named it. */
  public String name(int i) {
    return calls.get(i).name;
  }

  /** The {@code i}-th call's arguments, its fragments joined. */
  public String arguments(int i) {
    return calls.get(i).arguments.toString();
  }

  /** Calls whose joined arguments are one JSON value, as the tool they call will read them. */
  public int parsed() {
    int n = 0;
    for (Call c : calls) {
      n += isJson(c.arguments.toString()) ? 1 : 0;
    }
    return n;
  }

  /** Whether {@code text} is exactly one JSON value (whitespace around it allowed). */
  static boolean isJson(String text) {
    if (text.isBlank()) {
      return false;
    }
    try (JsonParser p = JSON.createParser(text)) {
      if (p.nextToken() == null) {
        return false;
      }
      p.skipChildren();
      return p.nextToken() == null;
    } catch (IOException e) {
      return false;
    }
  }
}
