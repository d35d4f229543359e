package dev.gatlingllm.action;

import dev.gatlingllm.dataset.BfclDataset;
import dev.gatlingllm.internal.metrics.TaskType;
import dev.gatlingllm.protocol.ServerCompliance;
import io.gatling.core.session.Session;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/** Completions and chat requests, from an {@link LlmRequestBuilder}'s spec. */
final class GenerationTemplate extends RequestTemplate {

  /** What warm-up requests ask; their answers are thrown away. */
  private static final String WARM_UP_PROMPT = "Warm-up request: please count from one to ten.";

  private final RequestSpec spec;
  /** Fields of the extra body that override what the compliance check compares; null: unset. */
  private final Integer extraMaxTokens;
  private final Integer extraMaxCompletionTokens;
  private final Integer extraMaxOutputTokens;
  private final Object extraIgnoreEos;
  private final Object extraModel;

  GenerationTemplate(RequestSpec spec) {
    super(spec.name(), spec.path(), spec.promptTokens(), spec.requestId(), spec.saveTextAs());
    this.spec = spec;
    Map<String, Object> extra = spec.extraBody();
    this.extraMaxTokens = integer(extra.get("max_tokens"));
    this.extraMaxCompletionTokens = integer(extra.get("max_completion_tokens"));
    this.extraMaxOutputTokens = integer(extra.get("max_output_tokens"));
    this.extraIgnoreEos = extra.get("ignore_eos");
    this.extraModel = extra.get("model");
  }

  private static Integer integer(Object value) {
    return value instanceof Number n ? n.intValue() : null;
  }

  RequestSpec spec() {
    return spec;
  }

  @Override
  String endpointType() {
    return spec.endpoint().endpointType;
  }

  @Override
  TaskType taskType() {
    return TaskType.GENERATION;
  }

  @Override
  Body body(Session session, String model, String requestId) {
    String prompt = spec.prompt() == null ? null : spec.prompt().resolve(session);
    List<Map<String, Object>> messages = null;
    if (spec.endpoint() == RequestSpec.Endpoint.RESPONSES) {
      messages = spec.messages() != null ? spec.messages().resolve(session) : null;
    } else if (spec.endpoint() == RequestSpec.Endpoint.CHAT) {
      messages = spec.messages() != null ? spec.messages().resolve(session)
          : userTurn(prompt, spec.multiModal() == null ? null
              : MultiModal.parts(spec.multiModal().resolve(session)));
    }
    Integer maxTokens = spec.maxTokens() == null ? null : spec.maxTokens().resolve(session);
    if (maxTokens != null && maxTokens < 1) {
      throw new SessionValue.ResolutionException("maxTokens must be >= 1, got " + maxTokens);
    }
    String requestModel = spec.model() != null ? spec.model().resolve(session) : model;
    // a dataset's tools (BFCL) go with chat requests, as vLLM sends them
    Object tools = spec.endpoint() != RequestSpec.Endpoint.CHAT ? null
        : session.attributes().get(BfclDataset.TOOLS).getOrElse(() -> null);
    Object sentPrompt = spec.promptTokenIds() == null ? prompt
        : tokenIds(spec.promptTokenIds().resolve(session));
    return new Body(RequestBodies.build(spec, requestModel, sentPrompt, messages, maxTokens,
        null, tools), Body.JSON, asked(maxTokens, requestModel));
  }

  /** The prompt's token ids as the body sends them; a request without any fails. */
  static List<Integer> tokenIds(Object value) {
    List<Integer> ids = new ArrayList<>();
    if (value instanceof int[] array) {
      for (int id : array) {
        ids.add(id);
      }
    } else if (value instanceof List<?> list) {
      for (Object id : list) {
        if (!(id instanceof Integer || id instanceof Long || id instanceof Short)
            || ((Number) id).longValue() < 0 || ((Number) id).longValue() > Integer.MAX_VALUE) {
          throw new SessionValue.ResolutionException("promptTokenIds: token ids are whole "
              + "numbers >= 0, got " + id);
        }
        ids.add(((Number) id).intValue());
      }
    } else {
      throw new SessionValue.ResolutionException("promptTokenIds: expected a list of token "
          + "ids, got " + (value == null ? "null" : value.getClass().getSimpleName()));
    }
    if (ids.isEmpty()) {
      throw new SessionValue.ResolutionException("promptTokenIds: the prompt has no token id");
    }
    return ids;
  }

  /** What the body asks of the server, the extra body's fields winning as they do in it. */
  private ServerCompliance.Asked asked(Integer maxTokens, String requestModel) {
    if (spec.endpoint() == RequestSpec.Endpoint.RESPONSES) {
      Integer out = extraMaxOutputTokens != null ? extraMaxOutputTokens : maxTokens;
      int max = out == null ? -1 : out;
      return new ServerCompliance.Asked(max, max, false, ignoreEos(), model(requestModel), false);
    }
    boolean chat = spec.endpoint() == RequestSpec.Endpoint.CHAT;
    Integer tokens = extraMaxTokens != null ? extraMaxTokens : chat ? null : maxTokens;
    Integer completion = extraMaxCompletionTokens != null ? extraMaxCompletionTokens
        : chat ? maxTokens : null;
    int max = Math.max(tokens == null ? -1 : tokens, completion == null ? -1 : completion);
    int min = tokens == null ? max : completion == null ? tokens : Math.min(tokens, completion);
    return new ServerCompliance.Asked(max, min, completion != null && tokens == null,
        ignoreEos(), model(requestModel), chat);
  }

  private boolean ignoreEos() {
    return extraIgnoreEos != null ? Boolean.TRUE.equals(extraIgnoreEos)
        : Boolean.TRUE.equals(spec.ignoreEos());
  }

  private String model(String requestModel) {
    return extraModel != null ? (extraModel instanceof String m ? m : null) : requestModel;
  }

  @Override
  IntFunction<byte[]> warmUpBody(String model) {
    return maxTokens -> RequestBodies.build(spec, model, WARM_UP_PROMPT,
        spec.endpoint() == RequestSpec.Endpoint.CHAT ? userTurn(WARM_UP_PROMPT, null) : null,
        maxTokens);
  }

  /**
   * The user turn (after the system prompt, if any). With multimodal parts the content is a
   * list, the text part first and the media after it, as vLLM's chat backend builds it.
   */
  private List<Map<String, Object>> userTurn(String prompt, List<Map<String, Object>> media) {
    List<Map<String, Object>> messages = new ArrayList<>(2);
    if (spec.systemPrompt() != null) {
      messages.add(message("system", spec.systemPrompt()));
    }
    if (media == null) {
      messages.add(message("user", prompt));
    } else {
      List<Object> content = new ArrayList<>(1 + media.size());
      content.add(MultiModal.textPart(prompt));
      content.addAll(media);
      messages.add(message("user", content));
    }
    return messages;
  }

  static Map<String, Object> message(String role, Object content) {
    Map<String, Object> m = new LinkedHashMap<>(2);
    m.put("role", role);
    m.put("content", content);
    return m;
  }
}
