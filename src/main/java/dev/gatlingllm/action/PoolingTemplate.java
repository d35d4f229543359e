package dev.gatlingllm.action;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.metrics.TaskType;
import io.gatling.core.session.Session;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Embeddings and rerank requests: the bodies of vLLM's pooling backends, field for field and
 * in their order. Their answers are timed as a whole (see {@code Exchange}).
 */
final class PoolingTemplate extends RequestTemplate {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Pattern TRAILING_NUMBER = Pattern.compile("(\\d+)$");
  static final String VLM2VEC_IMAGE_ONLY = "Represent the given image.";
  static final String VLM2VEC_WITH_QUESTION =
      "Represent the given image with the following question: ";

  private interface BodyFn {
    Map<String, Object> build(Session session, String model, String requestId);
  }

  private final String backend;
  private final BodyFn body;

  private PoolingTemplate(String name, String path, String backend, BodyFn body,
      SessionValue<Integer> promptTokens, SessionValue<String> requestId) {
    super(name, path, promptTokens, requestId, null);
    this.backend = backend;
    this.body = body;
  }

  static PoolingTemplate embeddings(String name, EmbeddingsVariant variant, String path,
      SessionValue<Object> input, SessionValue<Object> multiModal,
      SessionValue<Integer> promptTokens, SessionValue<String> requestId,
      Map<String, Object> extraBody) {
    BodyFn fn = (session, model, id) -> {
      Object prompt = input == null ? "" : input.resolve(session);
      List<Map<String, Object>> media = multiModal == null ? null
          : MultiModal.parts(multiModal.resolve(session));
      if (media != null && media.isEmpty()) {
        // vLLM tests the content for truth: no parts is no media (a text row of a dataset
        // whose other rows have images)
        media = null;
      }
      Map<String, Object> b = switch (variant) {
        case OPENAI -> openAi(model, prompt);
        case OPENAI_CHAT -> chat(model, prompt, media, false);
        case OPENAI_CLIP -> chat(model, media != null ? "" : prompt, media, false);
        case OPENAI_VLM2VEC -> chat(model, vlm2vecPrompt(prompt, media, id), media, true);
        case INFINITY -> infinity(model, prompt, media);
        case INFINITY_CLIP -> infinity(model, media != null ? "" : prompt, media);
        case VLLM_POOLING -> pooling(model, prompt);
      };
      b.putAll(extraBody);
      return b;
    };
    return new PoolingTemplate(name, path, variant.backend(), fn, promptTokens, requestId);
  }

  static PoolingTemplate rerank(String name, String path, SessionValue<String> query,
      SessionValue<List<String>> documents, SessionValue<Integer> promptTokens,
      SessionValue<String> requestId) {
    BodyFn fn = (session, model, id) -> {
      Map<String, Object> b = new LinkedHashMap<>();
      b.put("model", model);
      b.put("query", query.resolve(session));
      b.put("documents", documents.resolve(session));
      // vLLM's rerank backend sends neither ignore_eos nor extra body fields
      b.put("truncate_prompt_tokens", -1);
      return b;
    };
    return new PoolingTemplate(name, path, RerankApi.INSTANCE.endpointType(), fn, promptTokens,
        requestId);
  }

  private static Map<String, Object> openAi(String model, Object prompt) {
    Map<String, Object> b = new LinkedHashMap<>();
    b.put("model", model);
    b.put("input", prompt);
    // many embedding models have a short context: vLLM asks the server to truncate
    b.put("truncate_prompt_tokens", -1);
    return b;
  }

  private static Map<String, Object> chat(String model, Object prompt,
      List<Map<String, Object>> media, boolean mediaFirst) {
    List<Object> content = new ArrayList<>();
    if (mediaFirst && media != null) {
      content.addAll(media);
    }
    content.add(MultiModal.textPart(text(prompt)));
    if (!mediaFirst && media != null) {
      content.addAll(media);
    }
    Map<String, Object> b = new LinkedHashMap<>();
    b.put("model", model);
    b.put("messages", List.of(ChatApi.message("user", content)));
    b.put("truncate_prompt_tokens", -1);
    return b;
  }

  private static String vlm2vecPrompt(Object prompt, List<Map<String, Object>> media,
      String requestId) {
    if (media == null) {
      return text(prompt);
    }
    Matcher m = requestId == null ? null : TRAILING_NUMBER.matcher(requestId);
    // a number's parity is its last digit's
    boolean imageOnly = m == null || !m.find()
        || (requestId.charAt(requestId.length() - 1) - '0') % 2 == 0;
    return imageOnly ? VLM2VEC_IMAGE_ONLY : VLM2VEC_WITH_QUESTION + text(prompt);
  }

  private static Map<String, Object> infinity(String model, Object prompt,
      List<Map<String, Object>> media) {
    Map<String, Object> b = new LinkedHashMap<>();
    b.put("model", model);
    if (!isEmpty(prompt)) {
      b.put("input", prompt);
    } else {
      if (media == null || media.size() != 1) {
        throw new SessionValue.ResolutionException("Infinity embeddings of an empty input "
            + "take exactly one multimodal part, got " + (media == null ? 0 : media.size()));
      }
      Map<String, Object> part = media.get(0);
      String type = (String) part.get("type");
      b.put("input", MultiModal.url(part));
      int underscore = type.indexOf('_');
      b.put("modality", underscore < 0 ? type : type.substring(0, underscore));
    }
    return b;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> pooling(String model, Object prompt) {
    Map<String, Object> b = new LinkedHashMap<>();
    b.put("model", model);
    b.put("truncate_prompt_tokens", -1);
    if (prompt instanceof Map<?, ?> fields) {
      b.putAll((Map<String, Object>) fields);
    } else {
      b.put("input", prompt);
    }
    return b;
  }

  private static boolean isEmpty(Object prompt) {
    return prompt == null || (prompt instanceof String s && s.isEmpty())
        || (prompt instanceof List<?> l && l.isEmpty());
  }

  private static String text(Object prompt) {
    if (prompt instanceof String s) {
      return s;
    }
    throw new SessionValue.ResolutionException("input: a chat-style embeddings request takes "
        + "one text, got " + (prompt == null ? "null" : prompt.getClass().getSimpleName()));
  }

  @Override
  String endpointType() {
    return backend;
  }

  @Override
  TaskType taskType() {
    return TaskType.EMBEDDING;
  }

  @Override
  Body body(Session session, String model, String id) {
    try {
      return new Body(MAPPER.writeValueAsBytes(body.build(session, model, id)), Body.JSON);
    } catch (JsonProcessingException e) {
      throw new SessionValue.ResolutionException("request body: " + e.getOriginalMessage());
    }
  }
}
