package dev.gatlingllm.internal.action;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * OpenAI content parts as vLLM's benchmark builds them from a dataset's multimodal content:
 * one part ({@code {"type": "image_url", "image_url": {"url": ...}}}, {@code video_url},
 * {@code input_audio}) or a list of them.
 */
final class MultiModal {

  private MultiModal() {}

  /**
   * The parts held by a session value: a map (one part) or a list of maps, each with a string
   * {@code type} naming the key of its payload.
   *
   * @throws SessionValue.ResolutionException naming what is wrong
   */
  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> parts(Object value) {
    if (value instanceof Map<?, ?> one) {
      return List.of(checked((Map<String, Object>) one));
    }
    if (value instanceof List<?> many) {
      for (Object part : many) {
        if (!(part instanceof Map<?, ?>)) {
          throw new SessionValue.ResolutionException("multiModal: every element must be a "
              + "content part map, got " + (part == null ? "null" : part.getClass().getSimpleName()));
        }
        checked((Map<String, Object>) part);
      }
      return (List<Map<String, Object>>) many;
    }
    throw new SessionValue.ResolutionException("multiModal: expected a content part map or a "
        + "list of them, got " + (value == null ? "null" : value.getClass().getSimpleName()));
  }

  private static Map<String, Object> checked(Map<String, Object> part) {
    if (!(part.get("type") instanceof String type) || !part.containsKey(type)) {
      throw new SessionValue.ResolutionException("multiModal: a content part needs a string "
          + "'type' and a field of that name (e.g. {type: image_url, image_url: {url: ...}}), "
          + "got keys " + part.keySet());
    }
    return part;
  }

  static Map<String, Object> textPart(String text) {
    Map<String, Object> part = new LinkedHashMap<>(2);
    part.put("type", "text");
    part.put("text", text);
    return part;
  }

  /** The URL of a single {@code image_url}/{@code video_url}-style part (Infinity's input). */
  static String url(Map<String, Object> part) {
    String type = (String) part.get("type");
    if (part.get(type) instanceof Map<?, ?> payload && payload.get("url") instanceof String url) {
      return url;
    }
    throw new SessionValue.ResolutionException("multiModal: a '" + type + "' part without a "
        + "url cannot be sent to Infinity");
  }
}
