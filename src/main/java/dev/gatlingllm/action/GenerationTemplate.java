package dev.gatlingllm.action;

import dev.gatlingllm.metrics.TaskType;
import io.gatling.core.session.Session;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/** Completions and chat requests, from an {@link LlmRequestBuilder}'s spec. */
final class GenerationTemplate implements RequestTemplate {

  /** What warm-up requests ask; their answers are thrown away. */
  private static final String WARM_UP_PROMPT = "Warm-up request: please count from one to ten.";

  private final RequestSpec spec;

  GenerationTemplate(RequestSpec spec) {
    this.spec = spec;
  }

  RequestSpec spec() {
    return spec;
  }

  @Override
  public String name() {
    return spec.name();
  }

  @Override
  public String path() {
    return spec.path();
  }

  @Override
  public String endpointType() {
    return spec.endpoint().endpointType;
  }

  @Override
  public TaskType taskType() {
    return TaskType.GENERATION;
  }

  @Override
  public Body body(Session session, String model, String requestId) {
    String prompt = spec.prompt() == null ? null : spec.prompt().resolve(session);
    List<Map<String, Object>> messages = null;
    if (spec.endpoint() == RequestSpec.Endpoint.CHAT) {
      messages = spec.messages() != null ? spec.messages().resolve(session)
          : userTurn(prompt, spec.multiModal() == null ? null
              : MultiModal.parts(spec.multiModal().resolve(session)));
    }
    Integer maxTokens = spec.maxTokens() == null ? null : spec.maxTokens().resolve(session);
    if (maxTokens != null && maxTokens < 1) {
      throw new SessionValue.ResolutionException("maxTokens must be >= 1, got " + maxTokens);
    }
    String requestModel = spec.model() != null ? spec.model().resolve(session) : model;
    return new Body(RequestBodies.build(spec, requestModel, prompt, messages, maxTokens),
        Body.JSON);
  }

  @Override
  public int promptTokens(Session session) {
    return SessionValue.resolveOr(spec.promptTokens(), session, -1);
  }

  @Override
  public String requestId(Session session) {
    return SessionValue.resolveOr(spec.requestId(), session, null);
  }

  @Override
  public String saveTextAs() {
    return spec.saveTextAs();
  }

  @Override
  public IntFunction<byte[]> warmUpBody(String model) {
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
