package dev.gatlingllm.internal.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.util.MinimalPrettyPrinter;
import dev.gatlingllm.internal.metrics.PyFormat;
import java.io.IOException;
import java.io.Writer;
import java.util.List;
import java.util.Map;

/**
 * Writes JSON the way Python's {@code json.dump} does by default, so our files match
 * vLLM's byte for byte where the values agree: {@code ", "} and {@code ": "} separators,
 * everything outside printable ASCII escaped as backslash-u and four lower-case hex
 * digits, floats in Python's repr ({@code 1e-05}, {@code 10.0}), non-finite floats as
 * {@code NaN} / {@code Infinity}. Large arrays are written through {@link Streamed} values
 * so they never have to exist as Java collections.
 */
final class PyJson {

  /** A value that writes itself, for arrays streamed from the record store. */
  @FunctionalInterface
  interface Streamed {
    void write(JsonGenerator g) throws IOException;
  }

  private static final JsonFactory FACTORY = JsonFactory.builder()
      .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
      .build();
  private static final CharacterEscapes ESCAPES = new PythonEscapes();

  private PyJson() {}

  /**
   * Writes one value (maps keep their iteration order).
   *
   * @param infAsString write infinite floats as the string {@code "inf"}, like vLLM's
   *                    {@code InfEncoder} used for the pytorch file
   */
  static void write(Writer out, Object value, boolean infAsString) throws IOException {
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      g.setPrettyPrinter(new PythonSeparators());
      g.setCharacterEscapes(ESCAPES);
      writeValue(g, value, infAsString);
    }
  }

  static void writeValue(JsonGenerator g, Object v, boolean infAsString) throws IOException {
    if (v == null) {
      g.writeNull();
    } else if (v instanceof String s) {
      g.writeString(s);
    } else if (v instanceof Double d) {
      writeDouble(g, d, infAsString);
    } else if (v instanceof Float f) {
      writeDouble(g, f, infAsString);
    } else if (v instanceof Integer || v instanceof Long || v instanceof Short) {
      g.writeNumber(((Number) v).longValue());
    } else if (v instanceof Boolean b) {
      g.writeBoolean(b);
    } else if (v instanceof Map<?, ?> map) {
      g.writeStartObject();
      for (Map.Entry<?, ?> e : map.entrySet()) {
        g.writeFieldName(String.valueOf(e.getKey()));
        writeValue(g, e.getValue(), infAsString);
      }
      g.writeEndObject();
    } else if (v instanceof List<?> list) {
      g.writeStartArray();
      for (Object item : list) {
        writeValue(g, item, infAsString);
      }
      g.writeEndArray();
    } else if (v instanceof Streamed s) {
      s.write(g);
    } else {
      throw new IllegalArgumentException("Cannot write " + v.getClass().getName() + " as JSON");
    }
  }

  static void writeDouble(JsonGenerator g, double d, boolean infAsString) throws IOException {
    if (Double.isNaN(d)) {
      g.writeNumber("NaN");
    } else if (Double.isInfinite(d)) {
      if (infAsString) {
        g.writeString(d > 0 ? "inf" : "-inf");
      } else {
        g.writeNumber(d > 0 ? "Infinity" : "-Infinity");
      }
    } else {
      g.writeNumber(PyFormat.repr(d));
    }
  }

  /**
   * Python's default separators: {@code ", "} between items, {@code ": "} after keys. The
   * brackets are Jackson's minimal ones; nothing goes between root values.
   */
  private static final class PythonSeparators extends MinimalPrettyPrinter {

    PythonSeparators() {
      super(null);
    }

    @Override
    public void writeObjectEntrySeparator(JsonGenerator g) throws IOException {
      g.writeRaw(", ");
    }

    @Override
    public void writeObjectFieldValueSeparator(JsonGenerator g) throws IOException {
      g.writeRaw(": ");
    }

    @Override
    public void writeArrayValueSeparator(JsonGenerator g) throws IOException {
      g.writeRaw(", ");
    }
  }

  /**
   * Python's {@code ensure_ascii}: short escapes for backspace, tab, newline, form feed and
   * carriage return; backslash-u with four lower-case hex digits for every other character
   * outside {@code ' '..'~'} (surrogate halves one by one).
   */
  private static final class PythonEscapes extends CharacterEscapes {

    private final int[] ascii = standardAsciiEscapesForJSON();

    PythonEscapes() {
      for (int c = 0; c < 32; c++) {
        if (c != '\b' && c != '\t' && c != '\n' && c != '\f' && c != '\r') {
          ascii[c] = ESCAPE_CUSTOM;
        }
      }
      ascii[0x7f] = ESCAPE_CUSTOM;
    }

    @Override
    public int[] getEscapeCodesForAscii() {
      return ascii;
    }

    @Override
    public SerializableString getEscapeSequence(int ch) {
      if (ch >= 0x20 && ch < 0x7f) {
        return null;
      }
      String hex = Integer.toHexString(ch);
      return new SerializedString("\\u" + "0000".substring(hex.length()) + hex);
    }
  }
}
