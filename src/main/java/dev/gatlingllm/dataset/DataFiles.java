package dev.gatlingllm.dataset;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.internal.dataset.DatasetException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reading the text formats datasets come in, with errors that name the file and place. */
final class DataFiles {

  static final ObjectMapper JSON = new ObjectMapper();

  /** Receives one JSON value and its position (1-based element or line number). */
  interface JsonVisitor {
    void accept(int position, JsonNode value);
  }

  private DataFiles() {}

  static Path requireFile(Path path, String what) {
    if (path == null) {
      throw new IllegalArgumentException(what + " needs a file: set --dataset-path");
    }
    if (!Files.exists(path)) {
      throw new DatasetException(what + " file " + path.toAbsolutePath() + " does not exist");
    }
    if (!Files.isRegularFile(path)) {
      throw new DatasetException(what + " path " + path.toAbsolutePath() + " is not a file");
    }
    if (!Files.isReadable(path)) {
      throw new DatasetException(what + " file " + path.toAbsolutePath() + " is not readable");
    }
    return path;
  }

  /**
   * Streams the elements of a top-level JSON array, so a large file is never held as one
   * tree. Each element is given to {@code visitor} as it is read.
   */
  static void jsonArray(Path file, String what, JsonVisitor visitor) {
    try (JsonParser p = JSON.getFactory().createParser(file.toFile())) {
      if (p.nextToken() != JsonToken.START_ARRAY) {
        throw new DatasetException(what + " file " + file + " must hold a JSON array, found "
            + describe(p.currentToken()) + " at line " + p.currentLocation().getLineNr());
      }
      int index = 0;
      while (p.nextToken() != JsonToken.END_ARRAY) {
        if (p.currentToken() == null) {
          throw new DatasetException(what + " file " + file + " ends in the middle of the JSON "
              + "array");
        }
        index++;
        visitor.accept(index, p.readValueAsTree());
      }
    } catch (JsonParseException e) {
      throw new DatasetException(what + " file " + file + " is not valid JSON at line "
          + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ": "
          + e.getOriginalMessage(), e);
    } catch (IOException e) {
      throw new DatasetException("Cannot read " + what + " file " + file + ": " + e.getMessage(),
          e);
    }
  }

  /** Reads a JSON Lines file: one JSON value per non-blank line. */
  static void jsonLines(Path file, String what, JsonVisitor visitor) {
    try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String line;
      int number = 0;
      while ((line = reader.readLine()) != null) {
        number++;
        if (line.isBlank()) {
          continue;
        }
        JsonNode node;
        try {
          node = JSON.readTree(line);
        } catch (JsonParseException e) {
          throw new DatasetException(what + " file " + file + " line " + number
              + " is not valid JSON: " + e.getOriginalMessage(), e);
        }
        visitor.accept(number, node);
      }
    } catch (CharacterCodingException e) {
      throw new DatasetException(what + " file " + file + " is not UTF-8 text", e);
    } catch (IOException e) {
      throw new DatasetException("Cannot read " + what + " file " + file + ": " + e.getMessage(),
          e);
    }
  }

  /**
   * Reads JSON records from a file holding either a JSON array or JSON Lines, as the Hugging
   * Face JSON loader accepts both in a {@code .json} file.
   */
  static void jsonRecords(Path file, String what, JsonVisitor visitor) {
    if (startsWithArray(file, what)) {
      jsonArray(file, what, visitor);
    } else {
      jsonLines(file, what, visitor);
    }
  }

  /** The first record of a JSON array or JSON Lines file, or null when there is none. */
  static JsonNode firstJsonRecord(Path file, String what) {
    if (startsWithArray(file, what)) {
      try (JsonParser p = JSON.getFactory().createParser(file.toFile())) {
        p.nextToken();
        return p.nextToken() == JsonToken.END_ARRAY || p.currentToken() == null
            ? null : p.readValueAsTree();
      } catch (JsonParseException e) {
        throw new DatasetException(what + " file " + file + " is not valid JSON at line "
            + e.getLocation().getLineNr() + ": " + e.getOriginalMessage(), e);
      } catch (IOException e) {
        throw new DatasetException("Cannot read " + what + " file " + file + ": "
            + e.getMessage(), e);
      }
    }
    try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String line;
      int number = 0;
      while ((line = reader.readLine()) != null) {
        number++;
        if (!line.isBlank()) {
          try {
            return JSON.readTree(line);
          } catch (JsonParseException e) {
            throw new DatasetException(what + " file " + file + " line " + number
                + " is not valid JSON: " + e.getOriginalMessage(), e);
          }
        }
      }
      return null;
    } catch (IOException e) {
      throw new DatasetException("Cannot read " + what + " file " + file + ": " + e.getMessage(),
          e);
    }
  }

  private static boolean startsWithArray(Path file, String what) {
    try (InputStream in = Files.newInputStream(file)) {
      int c;
      do {
        c = in.read();
        // whitespace and a UTF-8 byte order mark may come first
      } while (c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == 0xEF || c == 0xBB
          || c == 0xBF);
      return c == '[';
    } catch (IOException e) {
      throw new DatasetException("Cannot read " + what + " file " + file + ": " + e.getMessage(),
          e);
    }
  }

  /** The lines of a UTF-8 text file, each with its line terminator kept (like readlines()). */
  static List<String> linesWithTerminators(Path file, String what) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (CharacterCodingException e) {
      throw new DatasetException(what + " file " + file + " is not UTF-8 text", e);
    } catch (IOException e) {
      throw new DatasetException("Cannot read " + what + " file " + file + ": " + e.getMessage(),
          e);
    }
    // Universal newlines, as Python's text mode reads them.
    text = text.replace("\r\n", "\n").replace('\r', '\n');
    List<String> lines = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) == '\n') {
        lines.add(text.substring(start, i + 1));
        start = i + 1;
      }
    }
    if (start < text.length()) {
      lines.add(text.substring(start));
    }
    return lines;
  }

  /** A text field of a JSON object, or null when absent or not a string. */
  static String text(JsonNode node, String field) {
    JsonNode value = node == null ? null : node.get(field);
    return value != null && value.isTextual() ? value.asText() : null;
  }

  private static String describe(JsonToken token) {
    if (token == null) {
      return "nothing";
    }
    switch (token) {
      case START_OBJECT:
        return "an object";
      case VALUE_STRING:
        return "a string";
      default:
        return token.asString() == null ? token.name() : "'" + token.asString() + "'";
    }
  }
}
