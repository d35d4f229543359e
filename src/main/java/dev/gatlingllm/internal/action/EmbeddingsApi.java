package dev.gatlingllm.internal.action;

import dev.gatlingllm.action.EmbeddingsRequestBuilder;
import dev.gatlingllm.action.EmbeddingsVariant;
import dev.gatlingllm.action.RequestFlags;
import dev.gatlingllm.internal.metrics.TaskType;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An embeddings API: one per body shape of vLLM's embeddings backends
 * ({@link EmbeddingsVariant}), written here field for field in vLLM's order, answered by one
 * JSON body timed as a whole, with vLLM's reduced (pooling) metric set.
 */
public final class EmbeddingsApi extends Api {

  private static final Pattern TRAILING_NUMBER = Pattern.compile("(\\d+)$");
  static final String VLM2VEC_IMAGE_ONLY = "Represent the given image.";
  static final String VLM2VEC_WITH_QUESTION =
      "Represent the given image with the following question: ";

  private static final Map<EmbeddingsVariant, EmbeddingsApi> BY_VARIANT =
      new EnumMap<>(EmbeddingsVariant.class);

  static {
    for (EmbeddingsVariant v : EmbeddingsVariant.values()) {
      String path = switch (v) {
        case INFINITY, INFINITY_CLIP -> "/embeddings";
        case VLLM_POOLING -> "/pooling";
        default -> "/v1/embeddings";
      };
      BY_VARIANT.put(v, new EmbeddingsApi(v, path));
    }
  }

  private final EmbeddingsVariant variant;

  private EmbeddingsApi(EmbeddingsVariant variant, String path) {
    super(variant.backend(), path, List.of(path.substring(path.lastIndexOf('/') + 1)), false,
        TaskType.EMBEDDING, false);
    this.variant = variant;
  }

  public static EmbeddingsApi of(EmbeddingsVariant variant) {
    return BY_VARIANT.get(variant);
  }

  @Override
  public EmbeddingsRequestBuilder request(RequestFlags flags) {
    EmbeddingsRequestBuilder r = EmbeddingsRequestBuilder.embeddings("embeddings")
        .variant(variant).fromDataset().multiModal(BackendRequests::mediaParts)
        .endpoint(flags.endpoint()).requestId(BackendRequests.REQUEST_ID);
    // vLLM's embeddings requests carry ignore_eos when asked (and no sampling parameter)
    r = flags.on("ignore-eos") ? r.extraBody("ignore_eos", true) : r;
    for (Map.Entry<String, Object> field : flags.extraBody().entrySet()) {
      EmbeddingsRequestBuilder current = r;
      r = flags.flagged("extra-body", () -> current.extraBody(field.getKey(), field.getValue()));
    }
    return r;
  }

  /**
   * The body of one request, before the extra body's fields.
   *
   * @param prompt    the input: a text, a list, or (vllm-pooling) the fields of the body
   * @param media     the dataset's media parts; null for none
   * @param requestId the {@code x-request-id} (vlm2vec's prompt depends on its number)
   */
  Map<String, Object> body(String model, Object prompt, List<Map<String, Object>> media,
      String requestId) {
    return switch (variant) {
      case OPENAI -> openAi(model, prompt);
      case OPENAI_CHAT -> chat(model, prompt, media, false);
      case OPENAI_CLIP -> chat(model, media != null ? "" : prompt, media, false);
      case OPENAI_VLM2VEC -> chat(model, vlm2vecPrompt(prompt, media, requestId), media, true);
      case INFINITY -> infinity(model, prompt, media);
      case INFINITY_CLIP -> infinity(model, media != null ? "" : prompt, media);
      case VLLM_POOLING -> pooling(model, prompt);
    };
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
}
