package dev.gatlingllm.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The fast chunk scanner against the Jackson path it stands in for: it must take the chunks
 * servers send (or the speed-up is lost without anyone noticing), and whenever it accepts a
 * body, Jackson must read the very same fields from it.
 */
class ChunkScannerTest {

  /** The fields as one comparable string. */
  private static String describe(ChunkFields f) {
    return "choices=" + f.hasChoices + " text=" + quote(f.text) + " reasoning=" + f.reasoning
        + " finish=" + quote(f.finishReason) + " completion=" + f.completionTokens
        + " prompt=" + f.promptTokens + " error=" + quote(f.error)
        + " reasoningTokens=" + f.reasoningTokens + " toolCall=" + f.toolCall;
  }

  private static String quote(String s) {
    return s == null ? "null" : "'" + s + "'";
  }

  /** Jackson's reading, or "FAILED" when Jackson refuses the body. */
  private static String jackson(byte[] bytes, int length) {
    ChunkFields f = new ChunkFields();
    try {
      ChunkParser.parseWithJackson(bytes, length, f);
      return describe(f);
    } catch (Exception e) {
      return "FAILED";
    }
  }

  /** The scanner's reading, or null when it gives up. */
  private static String scanner(byte[] bytes, int length) {
    ChunkFields f = new ChunkFields();
    return ChunkScanner.scan(bytes, length, f) ? describe(f) : null;
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      // vLLM completions, a middle chunk and the last one with usage
      "{\"id\":\"cmpl-1\",\"object\":\"text_completion\",\"created\":1700000000,\"model\":\"m\","
          + "\"choices\":[{\"index\":0,\"text\":\" the\",\"logprobs\":null,\"finish_reason\":null,"
          + "\"stop_reason\":null}],\"usage\":null}",
      "{\"id\":\"cmpl-1\",\"object\":\"text_completion\",\"created\":1700000000,\"model\":\"m\","
          + "\"choices\":[],\"usage\":{\"prompt_tokens\":64,\"total_tokens\":192,"
          + "\"completion_tokens\":128}}",
      // chat: role chunk, content with escapes, finish reason
      "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\","
          + "\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},"
          + "\"logprobs\":null,\"finish_reason\":null}]}",
      "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"line\\nnext \\\"q\\\" \\u00e9\\\\\"},"
          + "\"finish_reason\":\"stop\"}]}",
      // reasoning, an in-band error, numbers of every shape, whitespace
      "{\"choices\":[{\"delta\":{\"reasoning_content\":\"think\",\"content\":null}}]}",
      "{\"error\":{\"message\":\"boom\",\"type\":\"server\",\"code\":500}}",
      " { \"choices\" : [ { \"text\" : \"a\" , \"logprobs\" : { \"x\" : [ -1.5e-3 , 0 , true ,"
          + " false , null ] } } ] , \"usage\" : { \"completion_tokens\" : 3.0 } }\n",
  })
  void takesTheChunksServersSendAndReadsThemAsJacksonDoes(String json) {
    byte[] bytes = utf8(json);
    String fast = scanner(bytes, bytes.length);
    assertTrue(fast != null, "the fast path must take: " + json);
    assertEquals(jackson(bytes, bytes.length), fast);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"choices\":[{\"text\":\"caf\u00e9\"}]}", // non-ASCII bytes in a string
      "{\"choices\":[{\"text\":\"a\u0001b\"}]}", // a raw control character
      "{\"usage\":{\"completion_tokens\":12345678901}}", // may not fit an int
      "{\"usage\":{\"completion_tokens\":007}}", // leading zeros
      "{\"choices\":[]} x", // trailing content
      "{\"choices\":[{\"text\":\"a\"}]", // truncated
      "\uFEFF{\"choices\":[]}", // a byte order mark
      "{\"ch\\u006fices\":[{\"text\":\"a\"}]}", // an escaped name
      "{\"choices\":[{\"text\":\"\\x\"}]}", // an invalid escape
      "{\"choices\":[{\"text\":\"a\"},]}", // a trailing comma
      "{\"a\":tru}", // a broken literal
      "{\"a\":1.}", // a broken number
      "",
  })
  void givesUpOnWhatItDoesNotHandle(String json) {
    byte[] bytes = utf8(json);
    assertEquals(null, scanner(bytes, bytes.length), json);
  }

  /**
   * A tool-call fragment and the usage's reasoning count are for the Jackson path, which
   * reads them; an empty or null one (some servers send {@code "tool_calls": []} on every
   * chunk) stays on the fast path, read as Jackson reads it.
   */
  @ParameterizedTest
  @ValueSource(strings = {
      "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":"
          + "{\"arguments\":\"{\\\"a\\\":\"}}]}}]}",
      "{\"choices\":[],\"usage\":{\"completion_tokens\":9,\"completion_tokens_details\":"
          + "{\"reasoning_tokens\":4}}}"})
  void leavesToolCallsAndReasoningCountsToJackson(String json) {
    byte[] bytes = utf8(json);
    assertEquals(null, scanner(bytes, bytes.length), json);
    assertTrue(jackson(bytes, bytes.length).contains(json.contains("usage")
        ? "reasoningTokens=4" : "toolCall=true"), jackson(bytes, bytes.length));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\",\"tool_calls\":[]}}]}",
      "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\",\"tool_calls\":null}}]}",
      "{\"choices\":[],\"usage\":{\"completion_tokens\":9,\"completion_tokens_details\":null}}",
      "{\"choices\":[],\"usage\":{\"completion_tokens\":9,\"completion_tokens_details\":{}}}"})
  void keepsEmptyToolCallsAndDetailsOnTheFastPath(String json) {
    byte[] bytes = utf8(json);
    assertEquals(jackson(bytes, bytes.length), scanner(bytes, bytes.length), json);
  }

  @Test
  void givesUpOnDeepNestingInsteadOfRecursingWithoutBound() {
    String deep = "[".repeat(10_000) + "]".repeat(10_000);
    byte[] bytes = utf8("{\"choices\":[{\"logprobs\":" + deep + "}]}");
    assertEquals(null, scanner(bytes, bytes.length));
  }

  @Test
  void readsOnlyTheGivenLengthOfALargerBuffer() {
    // The SSE decoder hands over a reused buffer: bytes past the length are stale.
    byte[] body = utf8("{\"choices\":[{\"text\":\"a\"}]}");
    byte[] buffer = new byte[body.length + 16];
    System.arraycopy(body, 0, buffer, 0, body.length);
    byte[] stale = utf8("\"}]} garbage");
    System.arraycopy(stale, 0, buffer, body.length, stale.length);
    assertEquals(jackson(body, body.length), scanner(buffer, body.length));
    // ... and a body cut short inside a name does not read on into the stale bytes.
    byte[] cut = utf8("{\"choi");
    byte[] buffer2 = utf8("{\"choices\":[]}");
    System.arraycopy(cut, 0, buffer2, 0, cut.length);
    assertEquals(null, scanner(buffer2, cut.length));
  }

  /**
   * Generated chunk-like bodies and mutations of them. Whenever the scanner accepts a body,
   * Jackson must read it the same way; and it must accept most well-formed ones, or the fast
   * path would silently be the slow one.
   */
  @Test
  void agreesWithJacksonOnGeneratedAndMutatedBodies() {
    Random random = new Random(20261123);
    int accepted = 0;
    int wellFormed = 0;
    for (int n = 0; n < 30_000; n++) {
      String json = new Generator(random).body();
      byte[] bytes = utf8(json);
      if (n % 3 != 0) {
        bytes = mutate(bytes, random);
      } else {
        wellFormed++;
      }
      String expected = jackson(bytes, bytes.length);
      String fast = scanner(bytes, bytes.length);
      if (fast != null) {
        if (n % 3 == 0) {
          accepted++;
        }
        if (!expected.equals(fast)) {
          fail("scanner and Jackson disagree on " + new String(bytes, StandardCharsets.UTF_8)
              + "\n  Jackson: " + expected + "\n  scanner: " + fast);
        }
      }
    }
    assertTrue(accepted > wellFormed / 2,
        "the scanner took only " + accepted + " of " + wellFormed + " well-formed bodies");
  }

  @Test
  void fallsBackToJacksonSoErrorsKeepTheirWording() {
    byte[] bytes = utf8("{\"choices\":[{\"text\":\"a\"}]} trailing");
    ChunkFields f = new ChunkFields();
    Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class,
        () -> ChunkParser.parse(bytes, bytes.length, f));
    assertFalse(e.getMessage().isEmpty());
  }

  private static final String PUNCTUATION = "{}[],:\"\\ 0-.eE\u007f";

  private static byte[] mutate(byte[] bytes, Random random) {
    if (bytes.length == 0) {
      return bytes;
    }
    byte[] out = bytes.clone();
    int kind = random.nextInt(5);
    int at = random.nextInt(out.length);
    switch (kind) {
      case 0 -> out[at] = (byte) random.nextInt(256);
      case 1 -> out[at] = (byte) PUNCTUATION.charAt(random.nextInt(PUNCTUATION.length()));
      case 2 -> out = java.util.Arrays.copyOf(out, at); // truncate
      case 3 -> { // duplicate a slice
        int len = Math.min(out.length - at, 1 + random.nextInt(8));
        byte[] grown = new byte[out.length + len];
        System.arraycopy(out, 0, grown, 0, at + len);
        System.arraycopy(out, at, grown, at + len, out.length - at);
        out = grown;
      }
      default -> { // delete a byte
        byte[] shrunk = new byte[out.length - 1];
        System.arraycopy(out, 0, shrunk, 0, at);
        System.arraycopy(out, at + 1, shrunk, at, out.length - at - 1);
        out = shrunk;
      }
    }
    return out;
  }

  /** Random bodies shaped like completions, chat, usage and error chunks, with odd corners. */
  private static final class Generator {
    private static final List<String> TOP = List.of("choices", "usage", "error", "id", "model",
        "object", "created", "system_fingerprint", "prompt_logprobs");
    private static final List<String> CHOICE = List.of("text", "delta", "message",
        "finish_reason", "index", "logprobs", "stop_reason");
    private static final List<String> MESSAGE = List.of("content", "reasoning_content",
        "reasoning", "role", "tool_calls");
    private static final List<String> USAGE = List.of("completion_tokens", "prompt_tokens",
        "total_tokens", "prompt_tokens_details");
    private final Random r;

    Generator(Random r) {
      this.r = r;
    }

    String body() {
      StringBuilder sb = new StringBuilder("{");
      int fields = r.nextInt(5);
      for (int i = 0; i < fields; i++) {
        sep(sb, i);
        String name = pick(TOP);
        sb.append(ws()).append('"').append(name).append('"').append(ws()).append(':').append(ws());
        switch (name) {
          case "choices" -> choices(sb);
          case "usage" -> usage(sb);
          case "error" -> error(sb);
          default -> value(sb, 0);
        }
      }
      return sb.append(ws()).append('}').append(r.nextInt(10) == 0 ? "\n" : "").toString();
    }

    private void choices(StringBuilder sb) {
      if (r.nextInt(10) == 0) {
        value(sb, 1);
        return;
      }
      sb.append('[');
      int n = r.nextInt(3);
      for (int i = 0; i < n; i++) {
        sep(sb, i);
        if (r.nextInt(8) == 0) {
          value(sb, 2);
          continue;
        }
        object(sb, CHOICE, name -> {
          switch (name) {
            case "delta", "message" -> {
              if (r.nextInt(8) == 0) {
                value(sb, 3);
              } else {
                object(sb, MESSAGE, inner -> stringish(sb));
              }
            }
            case "text", "finish_reason" -> stringish(sb);
            default -> value(sb, 3);
          }
        });
      }
      sb.append(']');
    }

    private void usage(StringBuilder sb) {
      if (r.nextInt(6) == 0) {
        value(sb, 1);
        return;
      }
      object(sb, USAGE, name -> number(sb));
    }

    private void error(StringBuilder sb) {
      switch (r.nextInt(4)) {
        case 0 -> sb.append("null");
        case 1 -> string(sb);
        case 2 -> object(sb, List.of("message", "type", "code"), name -> {
          if (r.nextBoolean()) {
            string(sb);
          } else {
            value(sb, 2);
          }
        });
        default -> value(sb, 1);
      }
    }

    private void object(StringBuilder sb, List<String> names,
        java.util.function.Consumer<String> member) {
      sb.append('{');
      int n = r.nextInt(4);
      for (int i = 0; i < n; i++) {
        sep(sb, i);
        String name = r.nextInt(10) == 0 ? "x" + r.nextInt(3) : pick(names);
        sb.append(ws()).append('"').append(name).append('"').append(ws()).append(':').append(ws());
        member.accept(name);
      }
      sb.append(ws()).append('}');
    }

    private void value(StringBuilder sb, int depth) {
      int kind = depth > 3 ? r.nextInt(4) : r.nextInt(6);
      switch (kind) {
        case 0 -> string(sb);
        case 1 -> number(sb);
        case 2 -> sb.append(pick(List.of("true", "false", "null")));
        case 3 -> sb.append("null");
        case 4 -> {
          sb.append('[');
          int n = r.nextInt(3);
          for (int i = 0; i < n; i++) {
            sep(sb, i);
            value(sb, depth + 1);
          }
          sb.append(']');
        }
        default -> object(sb, List.of("a", "b", "text", "content"), name -> value(sb, depth + 1));
      }
    }

    private void stringish(StringBuilder sb) {
      if (r.nextInt(5) == 0) {
        value(sb, 3);
      } else {
        string(sb);
      }
    }

    private void string(StringBuilder sb) {
      sb.append('"');
      int n = r.nextInt(6);
      for (int i = 0; i < n; i++) {
        switch (r.nextInt(12)) {
          case 0 -> sb.append("\\n");
          case 1 -> sb.append("\\\"");
          case 2 -> sb.append("\\u00").append(Integer.toHexString(16 + r.nextInt(200)));
          case 3 -> sb.append("\\ud83d\\ude00");
          case 4 -> sb.append('\u00e9');
          case 5 -> sb.append("\\\\");
          default -> sb.append((char) ('a' + r.nextInt(26)));
        }
      }
      sb.append('"');
    }

    private void number(StringBuilder sb) {
      switch (r.nextInt(6)) {
        case 0 -> sb.append(r.nextInt(1000));
        case 1 -> sb.append(-r.nextInt(1000));
        case 2 -> sb.append(r.nextInt(100)).append('.').append(r.nextInt(100));
        case 3 -> sb.append(r.nextInt(9) + 1).append("e").append(r.nextInt(5));
        case 4 -> sb.append(Long.toString(Math.abs(r.nextLong())));
        default -> sb.append(r.nextInt(Integer.MAX_VALUE));
      }
    }

    private String ws() {
      return r.nextInt(6) == 0 ? pick(List.of(" ", "\n", "\t", "\r\n ")) : "";
    }

    private void sep(StringBuilder sb, int i) {
      if (i > 0) {
        sb.append(',');
      }
    }

    private String pick(List<String> from) {
      return from.get(r.nextInt(from.size()));
    }
  }
}
