package dev.gatlingllm.internal.action;

import dev.gatlingllm.action.Backends;
import dev.gatlingllm.action.LlmRequestBuilder;
import dev.gatlingllm.action.RequestBuilderBase;
import io.gatling.javaapi.core.ActionBuilder;
import java.util.Objects;

/**
 * The one door from the plugin's own code into what {@code dev.gatlingllm.action} keeps
 * package-private: a builder's template, a generation request of a given API, a backend's
 * API. Those members name internal types, so they cannot be public without showing users a
 * type they must not use; the API package lends them here instead (the JDK's "shared
 * secrets": {@link RequestBuilderBase}'s static initializer installs the {@link Hooks}).
 */
public final class BuilderAccess {

  /** What {@code dev.gatlingllm.action} lends, implemented there. */
  public interface Hooks {

    /** What the builder's action sends, checked. */
    RequestTemplate template(RequestBuilderBase<?> builder);

    /** A request of the given generation API (the backends' own requests). */
    LlmRequestBuilder generation(GenerationApi api, String name);

    /** The API a backend's requests speak. */
    Api api(Backends.Backend backend);
  }

  private static volatile Hooks hooks;

  private BuilderAccess() {}

  /**
   * Called once, by the API package.
   *
   * @throws IllegalStateException on a second call
   */
  public static void install(Hooks given) {
    if (hooks != null) {
      throw new IllegalStateException("the request builders' hooks are installed already");
    }
    hooks = Objects.requireNonNull(given, "hooks");
  }

  private static Hooks hooks() {
    Hooks h = hooks;
    if (h == null) {
      // a caller may come here before any builder was made: initialising the base class
      // installs the hooks
      try {
        Class.forName(RequestBuilderBase.class.getName(), true,
            RequestBuilderBase.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException(e);
      }
      h = hooks;
    }
    return h;
  }

  /**
   * What a DSL request sends.
   *
   * @throws IllegalArgumentException for a builder that is not one of the DSL's requests, or
   *     one that still lacks something
   */
  public static RequestTemplate template(ActionBuilder request) {
    if (request instanceof RequestBuilderBase<?> b) {
      return hooks().template(b);
    }
    throw new IllegalArgumentException("not a gatling-llm request: "
        + (request == null ? "null" : request.getClass().getName()));
  }

  /** A request of the given generation API, named {@code name}. */
  public static LlmRequestBuilder generation(GenerationApi api, String name) {
    return hooks().generation(api, name);
  }

  /** The API a backend of the table speaks. */
  public static Api api(Backends.Backend backend) {
    return hooks().api(backend);
  }
}
