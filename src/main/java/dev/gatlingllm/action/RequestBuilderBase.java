package dev.gatlingllm.action;

import dev.gatlingllm.internal.action.Api;
import dev.gatlingllm.internal.action.BuilderAccess;
import dev.gatlingllm.internal.action.GenerationApi;
import dev.gatlingllm.internal.action.LlmActions;
import dev.gatlingllm.internal.action.LlmRequestAction;
import dev.gatlingllm.internal.action.RequestTemplate;
import dev.gatlingllm.internal.action.SessionValue;
import io.gatling.javaapi.core.ActionBuilder;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * What the DSL's request builders share (public so that its methods are part of each builder's
 * documented API; only this package extends it): the request's name, the path, the dataset's prompt
 * length and request id, immutable copies, and the bridge from the request's
 * {@link RequestTemplate} to the request action, the same for every kind. Its static
 * initializer installs the package's {@link BuilderAccess} hooks.
 *
 * @param <B> the builder itself, which every call returns a new one of
 */
public abstract class RequestBuilderBase<B extends RequestBuilderBase<B>>
    implements ActionBuilder, Cloneable {

  static {
    // the plugin's own code reaches the package-private members through this one door
    BuilderAccess.install(new BuilderAccess.Hooks() {
      @Override
      public RequestTemplate template(RequestBuilderBase<?> builder) {
        return builder.template();
      }

      @Override
      public LlmRequestBuilder generation(GenerationApi api, String name) {
        return new LlmRequestBuilder(api, name);
      }

      @Override
      public Api api(Backends.Backend backend) {
        return backend.api();
      }
    });
  }

  final String name;
  /** Null: the default of the request's kind, known when the template is made. */
  String path;
  SessionValue<Integer> promptTokens;
  SessionValue<String> requestId;

  RequestBuilderBase(String name, String path) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("request name must not be empty");
    }
    this.name = name;
    this.path = path;
  }

  /** A copy with one change: builders are immutable. */
  @SuppressWarnings("unchecked")
  final B copy(Consumer<B> change) {
    try {
      B b = (B) clone();
      change.accept(b);
      return b;
    } catch (CloneNotSupportedException e) {
      throw new AssertionError(e);
    }
  }

  /**
   * The path instead of the default (the backend's in {@link Backends}); vLLM requires it to
   * end as the backend's API does.
   */
  public B endpoint(String endpointPath) {
    if (endpointPath == null || !endpointPath.startsWith("/")) {
      throw new IllegalArgumentException("endpoint must start with '/', got " + endpointPath);
    }
    return copy(b -> b.path = endpointPath);
  }

  /**
   * Prompt length in tokens, as the dataset counted it ({@code "#{prompt_len}"}): it feeds
   * total_input_tokens when the server's answer has no {@code usage.prompt_tokens}.
   */
  public B promptTokens(String el) {
    SessionValue<Integer> v = SessionValue.el("promptTokens", el, Integer.class);
    return copy(b -> b.promptTokens = v);
  }

  /**
   * The {@code x-request-id} of this request instead of the protocol's prefix and counter,
   * e.g. {@code "#{request_id}"} to send the dataset's ids as vLLM does.
   */
  public B requestId(String textOrEl) {
    SessionValue<String> v = SessionValue.el("requestId", textOrEl, String.class);
    return copy(b -> b.requestId = v);
  }

  /**
   * What the action sends, checked. The plugin's own (its type lives under
   * {@code dev.gatlingllm.internal}, which reaches it through {@link BuilderAccess}); a
   * simulation passes the builder to {@code exec}.
   *
   * @throws IllegalArgumentException naming what the request still lacks
   */
  abstract RequestTemplate template();

  @Override
  public final io.gatling.core.action.builder.ActionBuilder asScala() {
    RequestTemplate template = template();
    return LlmActions.scala((ctx, next) -> new LlmRequestAction(template, ctx, next));
  }

  /** The extra body fields with one more, as a new unmodifiable map. */
  static Map<String, Object> with(Map<String, Object> fields, String field, Object value) {
    Objects.requireNonNull(value, () -> "extraBody value of '" + field + "'");
    Map<String, Object> more = new LinkedHashMap<>(fields);
    more.put(field, value);
    return Collections.unmodifiableMap(more);
  }
}
