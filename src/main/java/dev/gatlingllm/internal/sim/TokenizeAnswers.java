package dev.gatlingllm.internal.sim;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatlingllm.sim.SimulatorConfig;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;

/**
 * vLLM's {@code /tokenize} and {@code /detokenize} with the simulator's tokenizer
 * ({@link SimTokenizer}: the words of {@link SimTokens} by default, or the real tokenizer it was
 * started with, whose ids they are then): clients re-align prompts through them, or use them as
 * their tokenizer when they have none. A chat's ids are those of each message's text in turn,
 * without a chat template; no special token is added.
 *
 * <pre>
 * POST /tokenize   {"model": m, "prompt": "one two"}        (or "messages": [...])
 *               -> {"count": 2, "max_model_len": 1024, "tokens": [1, 2], "token_strs": null}
 * POST /detokenize {"model": m, "tokens": [1, 2]}  -> {"prompt": " one two"}
 * </pre>
 */
final class TokenizeAnswers {

  private TokenizeAnswers() {}

  /** The answer to a {@code /tokenize} body: a completion's prompt or chat's messages. */
  static String tokenize(ByteBuf body, SimulatorConfig config, SimTokenizer tokenizer)
      throws ApiError {
    JsonNode root = RequestJson.object(body);
    checkModel(root, config);
    JsonNode prompt = root.get("prompt");
    JsonNode messages = root.get("messages");
    List<String> texts = new ArrayList<>();
    if (prompt != null && prompt.isTextual()) {
      texts.add(prompt.textValue());
    } else if (messages != null && messages.isArray()) {
      for (JsonNode message : messages) {
        addContent(texts, message.get("content"));
      }
    } else {
      throw ApiError.badRequest("a tokenize request needs a string prompt or a list of "
          + "messages");
    }
    boolean strings = root.path("return_token_strs").asBoolean(false);
    int count = 0;
    StringBuilder tokens = new StringBuilder();
    StringBuilder strs = new StringBuilder();
    for (String text : texts) {
      for (int id : tokenizer.ids(text)) {
        count++;
        tokens.append(tokens.length() == 0 ? "" : ",").append(id);
        if (strings) {
          strs.append(strs.length() == 0 ? "" : ",")
              .append(ResponseText.quote(tokenizer.text(new int[] {id})));
        }
      }
    }
    return "{\"count\":" + count + ",\"max_model_len\":" + config.contextTokens()
        + ",\"tokens\":[" + tokens + "],\"token_strs\":"
        + (strings ? "[" + strs + "]" : "null") + "}";
  }

  /** The answer to a {@code /detokenize} body: {@code {"prompt": text}}. */
  static String detokenize(ByteBuf body, SimulatorConfig config, SimTokenizer tokenizer)
      throws ApiError {
    JsonNode root = RequestJson.object(body);
    checkModel(root, config);
    JsonNode tokens = root.get("tokens");
    if (tokens == null || !tokens.isArray()) {
      throw ApiError.badRequest("tokens must be a list of token ids");
    }
    int[] ids = new int[tokens.size()];
    for (int i = 0; i < ids.length; i++) {
      JsonNode id = tokens.get(i);
      if (!id.isIntegralNumber() || !id.canConvertToInt()) {
        throw ApiError.badRequest("tokens must be a list of token ids, got " + id);
      }
      ids[i] = id.intValue();
    }
    try {
      return "{\"prompt\":" + ResponseText.quote(tokenizer.text(ids)) + "}";
    } catch (IllegalArgumentException e) {
      throw ApiError.badRequest(e.getMessage());
    }
  }

  private static void addContent(List<String> texts, JsonNode content) {
    if (content == null) {
      return;
    }
    if (content.isTextual()) {
      texts.add(content.textValue());
    } else if (content.isArray()) {
      for (JsonNode part : content) {
        if (part.path("text").isTextual()) {
          texts.add(part.get("text").textValue());
        }
      }
    }
  }

  private static void checkModel(JsonNode root, SimulatorConfig config) throws ApiError {
    JsonNode model = root.get("model");
    if (model != null && model.isTextual() && !config.anyModel()
        && !config.serves(model.textValue())) {
      throw ApiError.modelNotFound(model.textValue());
    }
  }
}
