package dev.gatlingllm.tokenizer;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * What DJL does not expose about a {@code tokenizer.json}: the size of the model vocabulary
 * and which ids are special added tokens. Read with a streaming parser so the multi-megabyte
 * merges list is skipped, not materialised.
 */
final class TokenizerJson {

  private final int vocabSize;
  private final int[] specialIds;
  private final int[] regularIds;

  private TokenizerJson(int vocabSize, int[] specialIds, int[] regularIds) {
    this.vocabSize = vocabSize;
    this.specialIds = specialIds;
    this.regularIds = regularIds;
  }

  int vocabSize() {
    return vocabSize;
  }

  int[] specialIds() {
    return specialIds;
  }

  int[] regularIds() {
    return regularIds;
  }

  static TokenizerJson parse(byte[] json, String source) {
    BitSet modelIds = null;
    List<Integer> special = new ArrayList<>();
    try (JsonParser p = new JsonFactory().createParser(json)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw invalid(source, "top level is not a JSON object");
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        p.nextToken();
        if ("model".equals(field) && p.currentToken() == JsonToken.START_OBJECT) {
          modelIds = readModel(p);
        } else if ("added_tokens".equals(field) && p.currentToken() == JsonToken.START_ARRAY) {
          readAddedTokens(p, special);
        } else {
          p.skipChildren();
        }
      }
    } catch (IOException e) {
      throw invalid(source, "not valid JSON: " + e.getMessage());
    }
    if (modelIds == null || modelIds.isEmpty()) {
      throw invalid(source, "no model.vocab found");
    }
    int[] specialIds = special.stream().mapToInt(Integer::intValue).sorted().distinct().toArray();
    BitSet regular = (BitSet) modelIds.clone();
    for (int id : specialIds) {
      regular.clear(id);
    }
    return new TokenizerJson(modelIds.cardinality(), specialIds, regular.stream().toArray());
  }

  /** Ids of model.vocab: an object of token to id (BPE, WordPiece) or a list (Unigram). */
  private static BitSet readModel(JsonParser p) throws IOException {
    BitSet ids = null;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      JsonToken value = p.nextToken();
      if ("vocab".equals(field) && value == JsonToken.START_OBJECT) {
        ids = new BitSet();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          p.nextToken();
          ids.set(p.getIntValue());
        }
      } else if ("vocab".equals(field) && value == JsonToken.START_ARRAY) {
        ids = new BitSet();
        int index = 0;
        while (p.nextToken() != JsonToken.END_ARRAY) {
          p.skipChildren();
          ids.set(index++);
        }
      } else {
        p.skipChildren();
      }
    }
    return ids;
  }

  private static void readAddedTokens(JsonParser p, List<Integer> special) throws IOException {
    while (p.nextToken() == JsonToken.START_OBJECT) {
      Integer id = null;
      boolean isSpecial = false;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        p.nextToken();
        if ("id".equals(field)) {
          id = p.getIntValue();
        } else if ("special".equals(field)) {
          isSpecial = p.getBooleanValue();
        } else {
          p.skipChildren();
        }
      }
      if (id != null && isSpecial) {
        special.add(id);
      }
    }
  }

  private static IllegalArgumentException invalid(String source, String why) {
    return new IllegalArgumentException("Not a valid Hugging Face tokenizer.json: " + source
        + " (" + why + ")");
  }
}
