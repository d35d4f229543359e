package dev.gatlingllm.internal.client;

import java.nio.charset.StandardCharsets;

/**
 * The fast path of {@link ChunkParser}: a strict JSON reader over the bytes of one chunk that
 * fills {@link ChunkFields} exactly as the Jackson path does, for the chunks servers actually
 * send, and gives up on anything else.
 *
 * <p>Why: on a busy stream load, Jackson (a parser per chunk, interned field names, tokens)
 * was 11-14 % of the one-core client's CPU, more than any other part of a chunk's path but
 * the kernel's. Here field names are compared as bytes, nothing is allocated but the strings
 * that are kept, and values that are not read are skipped.
 *
 * <p>It accepts a subset of JSON and only says "done" when it is sure: {@link #scan} returns
 * false, leaving {@code out} in any state, for anything outside that subset (strings with
 * bytes above 0x7F or control characters, integers that may not fit an {@code int},
 * nesting deeper than {@value #MAX_DEPTH}) and for anything malformed. The caller then parses
 * with Jackson, which produces the same fields or the error message. So the scanner can only
 * be wrong by accepting something Jackson would read differently;
 * {@code ChunkScannerTest} checks that against Jackson on generated and mutated chunks.
 *
 * <p>Stateless; not instantiable.
 */
final class ChunkScanner {

  static final int MAX_DEPTH = 32;

  private static final byte[] CHOICES = ascii("choices");
  private static final byte[] USAGE = ascii("usage");
  private static final byte[] ERROR = ascii("error");
  private static final byte[] TEXT = ascii("text");
  private static final byte[] DELTA = ascii("delta");
  private static final byte[] MESSAGE = ascii("message");
  private static final byte[] FINISH_REASON = ascii("finish_reason");
  private static final byte[] CONTENT = ascii("content");
  private static final byte[] REASONING_CONTENT = ascii("reasoning_content");
  private static final byte[] REASONING = ascii("reasoning");
  private static final byte[] COMPLETION_TOKENS = ascii("completion_tokens");
  private static final byte[] PROMPT_TOKENS = ascii("prompt_tokens");
  private static final byte[] PROMPT_TOKENS_DETAILS = ascii("prompt_tokens_details");
  private static final byte[] CACHED_TOKENS = ascii("cached_tokens");
  /** Left to the Jackson path when they hold something: rare, and nested deeper. */
  private static final byte[] TOOL_CALLS = ascii("tool_calls");
  private static final byte[] COMPLETION_TOKENS_DETAILS = ascii("completion_tokens_details");
  /** Members only Responses API bodies have at the top: those go to the Jackson path. */
  private static final byte[] TYPE = ascii("type");
  private static final byte[] OUTPUT = ascii("output");

  /** Thrown to abandon the fast path; preallocated, no stack trace. */
  private static final class GiveUp extends RuntimeException {
    private static final GiveUp INSTANCE = new GiveUp();

    private GiveUp() {
      super(null, null, false, false);
    }
  }

  private ChunkScanner() {}

  /**
   * Reads {@code bytes[0, length)} into {@code out} (reset first) and returns true, or returns
   * false when the Jackson path must decide.
   */
  static boolean scan(byte[] bytes, int length, ChunkFields out) {
    out.reset();
    try {
      Cursor c = new Cursor(bytes, length);
      c.skipWhitespace();
      c.expect('{');
      if (!c.consumeIf('}')) {
        do {
          c.member();
          if (c.nameIs(CHOICES)) {
            readChoices(c, out);
          } else if (c.nameIs(USAGE)) {
            readUsage(c, out);
          } else if (c.nameIs(ERROR)) {
            out.error = readError(c);
          } else if (c.nameIs(TYPE) || c.nameIs(OUTPUT)) {
            throw GiveUp.INSTANCE; // a Responses API event or body (read by action.ResponsesApi)
          } else {
            c.skipValue(1);
          }
        } while (c.commaOr('}'));
      }
      c.skipWhitespace();
      if (c.pos != length) {
        throw GiveUp.INSTANCE; // trailing content: Jackson words the error
      }
      return true;
    } catch (GiveUp | ArrayIndexOutOfBoundsException e) {
      return false;
    }
  }

  private static void readChoices(Cursor c, ChunkFields out) {
    if (!c.enter('[', 1) || c.consumeIf(']')) {
      return;
    }
    boolean first = true;
    do {
      out.hasChoices = true;
      if (first && c.peekValue() == '{') {
        readChoice(c, out);
      } else {
        c.skipValue(2);
      }
      first = false;
    } while (c.commaOr(']'));
  }

  private static void readChoice(Cursor c, ChunkFields out) {
    if (!c.enter('{', 3) || c.consumeIf('}')) {
      return;
    }
    do {
      c.member();
      if (c.nameIs(TEXT)) {
        out.appendText(c.stringOrNull(3));
      } else if (c.nameIs(DELTA) || c.nameIs(MESSAGE)) {
        readMessage(c, out);
      } else if (c.nameIs(FINISH_REASON)) {
        out.finishReason = c.stringOrNull(3);
      } else {
        c.skipValue(3);
      }
    } while (c.commaOr('}'));
  }

  private static void readMessage(Cursor c, ChunkFields out) {
    if (!c.enter('{', 3) || c.consumeIf('}')) {
      return;
    }
    do {
      c.member();
      if (c.nameIs(CONTENT)) {
        out.appendText(c.stringOrNull(4));
      } else if (c.nameIs(REASONING_CONTENT) || c.nameIs(REASONING)) {
        String thought = c.stringOrNull(4);
        out.reasoning |= thought != null && !thought.isEmpty();
      } else if (c.nameIs(TOOL_CALLS)) {
        c.skipEmpty(4); // a tool-call fragment: the Jackson path reads it
      } else {
        c.skipValue(4);
      }
    } while (c.commaOr('}'));
  }

  private static void readUsage(Cursor c, ChunkFields out) {
    if (!c.enter('{', 2) || c.consumeIf('}')) {
      return;
    }
    do {
      c.member();
      boolean completion = c.nameIs(COMPLETION_TOKENS);
      if (completion || c.nameIs(PROMPT_TOKENS)) {
        int value = c.intOrMinValue();
        if (value != Integer.MIN_VALUE) {
          if (completion) {
            out.completionTokens = value;
          } else {
            out.promptTokens = value;
          }
        }
      } else if (c.nameIs(PROMPT_TOKENS_DETAILS) && c.peekValue() == '{') {
        readPromptDetails(c, out);
      } else if (c.nameIs(COMPLETION_TOKENS_DETAILS)) {
        c.skipEmpty(3); // the reasoning tokens: the Jackson path reads them
      } else {
        c.skipValue(3);
      }
    } while (c.commaOr('}'));
  }

  private static void readPromptDetails(Cursor c, ChunkFields out) {
    if (!c.enter('{', 3) || c.consumeIf('}')) {
      return;
    }
    do {
      c.member();
      if (c.nameIs(CACHED_TOKENS)) {
        int value = c.intOrMinValue();
        if (value != Integer.MIN_VALUE) {
          out.cachedTokens = value;
        }
      } else {
        c.skipValue(4);
      }
    } while (c.commaOr('}'));
  }

  /** Same rules as the Jackson path: a string, an object's {@code message}, else a default. */
  private static String readError(Cursor c) {
    byte first = c.peekValue();
    if (first == 'n') {
      c.skipValue(2);
      return null;
    }
    if (first == '"') {
      return c.stringOrNull(2);
    }
    if (first != '{') {
      c.skipValue(2);
      return "error event";
    }
    c.pos++;
    String message = null;
    if (!c.consumeIf('}')) {
      do {
        c.member();
        if (c.nameIs(MESSAGE) && c.peekValue() == '"') {
          message = c.stringOrNull(3);
        } else {
          c.skipValue(3);
        }
      } while (c.commaOr('}'));
    }
    return message == null ? "error event" : message;
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /** A position in the chunk; every method throws {@link GiveUp} on what it cannot read. */
  private static final class Cursor {
    final byte[] b;
    final int end;
    int pos;

    Cursor(byte[] b, int end) {
      this.b = b;
      this.end = end;
    }

    void skipWhitespace() {
      while (pos < end) {
        byte x = b[pos];
        if (x != ' ' && x != '\n' && x != '\r' && x != '\t') {
          return;
        }
        pos++;
      }
    }

    byte peekValue() {
      skipWhitespace();
      if (pos >= end) {
        throw GiveUp.INSTANCE;
      }
      return b[pos];
    }

    void expect(char ch) {
      if (peekValue() != ch) {
        throw GiveUp.INSTANCE;
      }
      pos++;
    }

    boolean consumeIf(char ch) {
      if (peekValue() == ch) {
        pos++;
        return true;
      }
      return false;
    }

    /** After a member or element: true on a comma, false on {@code close}. */
    boolean commaOr(char close) {
      byte x = peekValue();
      pos++;
      if (x == ',') {
        return true;
      }
      if (x == close) {
        return false;
      }
      throw GiveUp.INSTANCE;
    }

    void colon() {
      expect(':');
    }

    /**
     * Steps into the next value when it starts with {@code open} ('{' or '['); any other
     * value is skipped (at {@code depth}) and gives false. Kept under C1's inlining size
     * (35 bytes): it runs for every object of every chunk.
     */
    boolean enter(char open, int depth) {
      if (peekValue() != open) {
        skipValue(depth);
        return false;
      }
      pos++;
      return true;
    }

    /** Where the current member's name starts and ends; set by {@link #member()}. */
    int nameFrom;
    int nameTo;

    /** Reads a member's name and its colon; the value is next. */
    void member() {
      nameFrom = nameStart();
      nameTo = nameEnd(nameFrom);
      colon();
    }

    boolean nameIs(byte[] name) {
      return is(nameFrom, nameTo, name);
    }

    /** Position of a member name's first byte, after its opening quote. */
    int nameStart() {
      expect('"');
      return pos;
    }

    /** Scans a plain name (no escapes, ASCII) and returns its end; the cursor passes the quote. */
    int nameEnd(int start) {
      for (int i = start; i < end; i++) {
        byte x = b[i];
        if (x == '"') {
          pos = i + 1;
          return i;
        }
        if (x == '\\' || x < 0x20) { // escapes, controls and bytes >= 0x80 (negative)
          throw GiveUp.INSTANCE;
        }
      }
      throw GiveUp.INSTANCE;
    }

    boolean is(int start, int stop, byte[] name) {
      int n = stop - start;
      if (n != name.length) {
        return false;
      }
      for (int i = 0; i < n; i++) {
        if (b[start + i] != name[i]) {
          return false;
        }
      }
      return true;
    }

    /** A string value, null for a JSON null; any other value is skipped and gives null. */
    String stringOrNull(int depth) {
      byte x = peekValue();
      if (x != '"') {
        skipValue(depth);
        return null;
      }
      int start = ++pos;
      boolean escaped = false;
      int i = start;
      while (true) {
        if (i >= end) {
          throw GiveUp.INSTANCE;
        }
        byte y = b[i];
        if (y == '"') {
          break;
        }
        if (y == '\\') {
          escaped = true;
          i += 2; // the escape's first character; \\u is checked while decoding
          continue;
        }
        if (y < 0x20) { // control characters, and every byte >= 0x80
          throw GiveUp.INSTANCE;
        }
        i++;
      }
      pos = i + 1;
      return escaped ? unescape(start, i) : new String(b, start, i - start, StandardCharsets.ISO_8859_1);
    }

    private String unescape(int start, int stop) {
      StringBuilder sb = new StringBuilder(stop - start);
      int i = start;
      while (i < stop) {
        byte y = b[i++];
        if (y != '\\') {
          sb.append((char) y);
          continue;
        }
        byte e = b[i++];
        switch (e) {
          case '"' -> sb.append('"');
          case '\\' -> sb.append('\\');
          case '/' -> sb.append('/');
          case 'b' -> sb.append('\b');
          case 'f' -> sb.append('\f');
          case 'n' -> sb.append('\n');
          case 'r' -> sb.append('\r');
          case 't' -> sb.append('\t');
          case 'u' -> {
            if (i + 4 > stop) {
              throw GiveUp.INSTANCE;
            }
            int code = 0;
            for (int k = 0; k < 4; k++) {
              int d = Character.digit(b[i++], 16);
              if (d < 0) {
                throw GiveUp.INSTANCE;
              }
              code = code * 16 + d;
            }
            sb.append((char) code);
          }
          default -> throw GiveUp.INSTANCE;
        }
      }
      return sb.toString();
    }

    /**
     * An int value, or {@link Integer#MIN_VALUE} when the value is not an integer (skipped,
     * as the Jackson path ignores it). Gives up on integers that might not fit an int.
     */
    int intOrMinValue() {
      byte x = peekValue();
      if (x != '-' && (x < '0' || x > '9')) {
        skipValue(3);
        return Integer.MIN_VALUE;
      }
      int start = pos;
      boolean negative = x == '-';
      int i = negative ? pos + 1 : pos;
      int digitsStart = i;
      long value = 0;
      while (i < end && b[i] >= '0' && b[i] <= '9') {
        value = value * 10 + (b[i] - '0');
        i++;
      }
      int digits = i - digitsStart;
      if (digits == 0 || digits > 9 || (digits > 1 && b[digitsStart] == '0')) {
        throw GiveUp.INSTANCE;
      }
      if (i < end && (b[i] == '.' || b[i] == 'e' || b[i] == 'E')) {
        pos = start;
        skipNumber();
        return Integer.MIN_VALUE; // a float: not an int count
      }
      pos = i;
      checkDelimiter();
      return (int) (negative ? -value : value);
    }

    /**
     * Skips a value that holds nothing ({@code null}, {@code []} or <code>{}</code>), and gives
     * up on any other: what it holds is for the Jackson path.
     */
    void skipEmpty(int depth) {
      byte x = peekValue();
      if (x == 'n') {
        skipValue(depth);
        return;
      }
      char close = x == '[' ? ']' : x == '{' ? '}' : 0;
      if (close == 0) {
        throw GiveUp.INSTANCE;
      }
      pos++;
      if (!consumeIf(close)) {
        throw GiveUp.INSTANCE;
      }
      checkDelimiter();
    }

    /** Skips one value of any kind, checking its syntax. */
    void skipValue(int depth) {
      if (depth > MAX_DEPTH) {
        throw GiveUp.INSTANCE;
      }
      byte x = peekValue();
      switch (x) {
        case '"' -> skipString();
        case '{' -> {
          pos++;
          if (consumeIf('}')) {
            return;
          }
          do {
            nameEnd(nameStart());
            colon();
            skipValue(depth + 1);
          } while (commaOr('}'));
        }
        case '[' -> {
          pos++;
          if (consumeIf(']')) {
            return;
          }
          do {
            skipValue(depth + 1);
          } while (commaOr(']'));
        }
        case 't' -> literal("true");
        case 'f' -> literal("false");
        case 'n' -> literal("null");
        default -> {
          if (x == '-' || (x >= '0' && x <= '9')) {
            skipNumber();
          } else {
            throw GiveUp.INSTANCE;
          }
        }
      }
    }

    private void skipString() {
      int i = pos + 1;
      while (true) {
        if (i >= end) {
          throw GiveUp.INSTANCE;
        }
        byte y = b[i];
        if (y == '"') {
          pos = i + 1;
          return;
        }
        if (y == '\\') {
          byte e = i + 1 < end ? b[i + 1] : 0;
          if (e == 'u') {
            for (int k = 2; k < 6; k++) {
              if (i + k >= end || Character.digit(b[i + k], 16) < 0) {
                throw GiveUp.INSTANCE;
              }
            }
            i += 6;
          } else if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n'
              || e == 'r' || e == 't') {
            i += 2;
          } else {
            throw GiveUp.INSTANCE;
          }
          continue;
        }
        if (y < 0x20) {
          throw GiveUp.INSTANCE;
        }
        i++;
      }
    }

    /** JSON's number grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
    private void skipNumber() {
      int i = pos;
      if (b[i] == '-') {
        i++;
      }
      int intStart = i;
      while (i < end && b[i] >= '0' && b[i] <= '9') {
        i++;
      }
      if (i == intStart || (i - intStart > 1 && b[intStart] == '0')) {
        throw GiveUp.INSTANCE;
      }
      if (i < end && b[i] == '.') {
        int fracStart = ++i;
        while (i < end && b[i] >= '0' && b[i] <= '9') {
          i++;
        }
        if (i == fracStart) {
          throw GiveUp.INSTANCE;
        }
      }
      if (i < end && (b[i] == 'e' || b[i] == 'E')) {
        i++;
        if (i < end && (b[i] == '+' || b[i] == '-')) {
          i++;
        }
        int expStart = i;
        while (i < end && b[i] >= '0' && b[i] <= '9') {
          i++;
        }
        if (i == expStart) {
          throw GiveUp.INSTANCE;
        }
      }
      pos = i;
      checkDelimiter();
    }

    private void literal(String word) {
      int n = word.length();
      if (pos + n > end) {
        throw GiveUp.INSTANCE;
      }
      for (int k = 0; k < n; k++) {
        if (b[pos + k] != word.charAt(k)) {
          throw GiveUp.INSTANCE;
        }
      }
      pos += n;
      checkDelimiter();
    }

    /** A number or literal must be followed by a structural character, whitespace or the end. */
    private void checkDelimiter() {
      if (pos < end) {
        byte y = b[pos];
        if (y != ',' && y != '}' && y != ']' && y != ' ' && y != '\n' && y != '\r'
            && y != '\t') {
          throw GiveUp.INSTANCE;
        }
      }
    }
  }
}
