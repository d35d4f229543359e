package dev.gatlingllm.internal.action;

import io.gatling.commons.validation.Failure;
import io.gatling.commons.validation.Success;
import io.gatling.commons.validation.Validation;
import io.gatling.core.session.Session;
import io.gatling.javaapi.core.internal.Expressions;
import java.util.function.Function;
import scala.Function1;

/**
 * A request parameter that may depend on the virtual user: a constant, a Gatling EL string
 * such as {@code "#{prompt}"}, or a function of the session.
 */
@FunctionalInterface
public interface SessionValue<T> {

  /** The value for this session; throws {@link ResolutionException} naming what failed. */
  T resolve(Session session);

  /** {@code value}'s value for this user, or {@code absent} when no value was configured. */
  static <T> T resolveOr(SessionValue<T> value, Session session, T absent) {
    return value == null ? absent : value.resolve(session);
  }

  static <T> SessionValue<T> constant(T value) {
    return session -> value;
  }

  /** An EL string, or a plain string when it holds no {@code #{}}. */
  static <T> SessionValue<T> el(String what, String expression, Class<T> type) {
    if (expression == null) {
      throw new IllegalArgumentException(what + " must not be null");
    }
    Function1<Session, Validation<T>> compiled;
    try {
      compiled = Expressions.toExpression(expression, type);
    } catch (Exception e) { // Gatling's ElParserException is a checked exception
      throw new IllegalArgumentException(
          what + ": invalid Gatling EL '" + expression + "': " + e.getMessage(), e);
    }
    return session -> {
      Validation<T> v = compiled.apply(session);
      if (v instanceof Success<T> ok) {
        return ok.value();
      }
      throw new ResolutionException(what + ": " + ((Failure) v).message());
    };
  }

  static <T> SessionValue<T> function(String what,
      Function<io.gatling.javaapi.core.Session, T> f) {
    if (f == null) {
      throw new IllegalArgumentException(what + " must not be null");
    }
    return session -> {
      T value = f.apply(new io.gatling.javaapi.core.Session(session));
      if (value == null) {
        throw new ResolutionException(what + ": function returned null");
      }
      return value;
    };
  }

  /** A session value could not be resolved: the request fails with this message. */
  final class ResolutionException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ResolutionException(String message) {
      super(message, null, false, false);
    }
  }
}
