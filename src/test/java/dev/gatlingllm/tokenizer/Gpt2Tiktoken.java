package dev.gatlingllm.tokenizer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Writes an r50k_base-style tiktoken rank file from the shipped GPT-2 {@code tokenizer.json},
 * so the tiktoken engine can be checked against DJL's GPT-2 without a download: r50k_base's
 * ranks are GPT-2's ids, and GPT-2 spells each token's bytes with its byte-to-unicode table
 * (printable Latin-1 bytes as themselves, the other 68 bytes as U+0100 onwards, in order).
 */
public final class Gpt2Tiktoken {

  private Gpt2Tiktoken() {}

  /** Writes the file (ids of special added tokens left out, as tiktoken keeps them apart). */
  public static Path write(Path target) throws IOException {
    JsonNode json = new ObjectMapper().readTree(Tokenizer.GPT2_PATH.toFile());
    List<Integer> special = new ArrayList<>();
    json.get("added_tokens").forEach(t -> special.add(t.get("id").intValue()));
    Map<Integer, Integer> byteOf = charToByte();
    StringBuilder out = new StringBuilder();
    Iterator<Map.Entry<String, JsonNode>> vocab = json.get("model").get("vocab").fields();
    while (vocab.hasNext()) {
      Map.Entry<String, JsonNode> entry = vocab.next();
      int id = entry.getValue().intValue();
      if (special.contains(id)) {
        continue;
      }
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      entry.getKey().codePoints().forEach(cp -> {
        Integer b = byteOf.get(cp);
        if (b == null) {
          throw new IllegalStateException("not a GPT-2 byte char: " + cp);
        }
        bytes.write(b);
      });
      out.append(Base64.getEncoder().encodeToString(bytes.toByteArray())).append(' ')
          .append(id).append('\n');
    }
    return Files.writeString(target, out, StandardCharsets.US_ASCII);
  }

  /** GPT-2's byte-to-unicode table, inverted. */
  static Map<Integer, Integer> charToByte() {
    Map<Integer, Integer> out = new HashMap<>();
    int next = 256;
    for (int b = 0; b < 256; b++) {
      boolean printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC)
          || (b >= 0xAE && b <= 0xFF);
      out.put(printable ? b : next++, b);
    }
    return out;
  }
}
