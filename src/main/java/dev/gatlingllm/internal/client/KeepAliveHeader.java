package dev.gatlingllm.internal.client;

/**
 * Reads the parameters of a {@code Keep-Alive} response header ({@code timeout=5, max=100}),
 * once per response head and without allocating: the header is a few bytes long and most
 * servers do not send it at all.
 */
final class KeepAliveHeader {

  /** Parameter values above this are read as this; no server limit is anywhere near it. */
  static final long MAX_VALUE = 1_000_000_000L;

  private KeepAliveHeader() {}

  /**
   * The value of parameter {@code name} (lower case, e.g. {@code "max"}) in {@code header},
   * or -1 when the header lacks it or its value is not a whole number (a quoted one is read
   * without its quotes). Names ignore case and spaces around the {@code =} and the commas are
   * allowed, as in {@code Timeout = 5 , MAX=100}.
   */
  static long param(CharSequence header, String name) {
    int n = header.length();
    int i = 0;
    while (i < n) {
      i = skipSpaces(header, i);
      int nameStart = i;
      while (i < n && header.charAt(i) != '=' && header.charAt(i) != ',') {
        i++;
      }
      int nameEnd = trimEnd(header, nameStart, i);
      if (i < n && header.charAt(i) == '=') {
        int valueStart = skipSpaces(header, i + 1);
        i = valueStart;
        while (i < n && header.charAt(i) != ',') {
          i++;
        }
        if (sameName(header, nameStart, nameEnd, name)) {
          return number(header, valueStart, trimEnd(header, valueStart, i));
        }
      }
      i++; // past the comma
    }
    return -1;
  }

  private static long number(CharSequence s, int from, int to) {
    if (to - from >= 2 && s.charAt(from) == '"' && s.charAt(to - 1) == '"') {
      from++;
      to--;
    }
    if (from == to) {
      return -1;
    }
    long value = 0;
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = Math.min(MAX_VALUE, value * 10 + (c - '0'));
    }
    return value;
  }

  private static boolean sameName(CharSequence s, int from, int to, String name) {
    if (to - from != name.length()) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      if (Character.toLowerCase(s.charAt(from + i)) != name.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  private static int skipSpaces(CharSequence s, int i) {
    while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
      i++;
    }
    return i;
  }

  private static int trimEnd(CharSequence s, int from, int to) {
    while (to > from && (s.charAt(to - 1) == ' ' || s.charAt(to - 1) == '\t')) {
      to--;
    }
    return to;
  }
}
