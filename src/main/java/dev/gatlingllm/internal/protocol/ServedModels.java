package dev.gatlingllm.internal.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.internal.client.Target;
import dev.gatlingllm.internal.http.AuxHttp;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The run's model checked against the server's {@code GET /v1/models}, once, before anything
 * else is sent: a model the server does not list is refused there, as vLLM would answer every
 * request 404, rather than found in a run whose every request failed. A server that lists
 * nothing (no such endpoint, another answer, not reachable) leaves the model unchecked, and the
 * run says so.
 */
public final class ServedModels {

  private static final Logger LOG = LoggerFactory.getLogger(ServedModels.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_BODY = 1 << 20;
  private static final String UNREACHABLE = "could not be read";
  /** The drop-in's early check waits no longer than the run's own. */
  private static final Duration EARLY_TIMEOUT = Duration.ofSeconds(5);
  /** Ollama's default tag: it serves {@code llama3} as the {@code llama3:latest} it lists. */
  private static final String DEFAULT_TAG = ":latest";

  /**
   * What the check found, for the compliance report and the verdict line.
   *
   * @param model   the model the run's requests name; null when they name none
   * @param listed  the ids the server listed; null when it listed none
   * @param problem why nothing was listed; null when something was
   */
  record Check(String model, Set<String> listed, String problem) {

    /** Whether the model was listed; false when it was not checked. */
    boolean served() {
      return model != null && listed != null && ServedModels.serves(listed, model);
    }

    /** For the verdict line: {@code listed}, {@code NOT listed}, {@code not checked}. */
    String verdict() {
      if (model == null) {
        return "not named by the run";
      }
      if (listed == null) {
        return model + " not checked (" + problem + ")";
      }
      return model + (served() ? " listed by the server" : " NOT listed by the server");
    }
  }

  private ServedModels() {}

  /**
   * Asks the server for its models and checks {@code model} against them.
   *
   * @param exitZero a model the server does not list is then a warning, not a refusal
   * @throws IllegalArgumentException when the server lists models and not this one
   */
  static Check check(Target target, Map<String, String> headers, boolean insecureTls,
      Duration timeout, String model, boolean exitZero) {
    Check check = list(target, headers, insecureTls, timeout, model);
    if (model == null) {
      return check;
    }
    if (check.listed() == null) {
      // a server that cannot be reached says so itself, once, before the run
      boolean unreachable = check.problem().contains(UNREACHABLE);
      String line = "the model `" + model + "` was not checked: " + check.problem()
          + "; a model the server does not serve fails every request";
      if (unreachable) {
        LOG.info(line);
      } else {
        LOG.warn(line);
      }
    } else if (!check.served()) {
      if (!exitZero) {
        throw new IllegalArgumentException(notServed(target, check));
      }
      LOG.warn("{}; the run goes on (exit zero asked), and its requests will likely fail",
          notServed(target, check));
    }
    return check;
  }

  /**
   * {@link #check} of every replica, each asked its own {@code /v1/models}: a replica that
   * does not list the model is said by its URL, one line each, and refuses the run as one
   * server would (a warning with {@code exitZero}), since its share of the requests would all
   * fail. One server is {@link #check} alone.
   *
   * @return the first replica's check (what the compliance report and verdict line show)
   * @throws IllegalArgumentException when a replica lists models and not this one
   */
  static Check checkAll(List<Target> targets, Map<String, String> headers, boolean insecureTls,
      Duration timeout, String model, boolean exitZero) {
    if (targets.size() == 1) {
      return check(targets.get(0), headers, insecureTls, timeout, model, exitZero);
    }
    Check first = null;
    List<String> refusals = new ArrayList<>();
    for (Target target : targets) {
      Check check = list(target, headers, insecureTls, timeout, model);
      first = first == null ? check : first;
      if (model == null) {
        continue;
      }
      if (check.listed() == null) {
        LOG.warn("replica {}: the model `{}` was not checked: {}", target, model,
            check.problem());
      } else if (!check.served()) {
        refusals.add(notServed(target, check));
        LOG.warn("{}{}", notServed(target, check), exitZero
            ? "; the run goes on (exit zero asked), and this replica's requests will likely fail"
            : "");
      }
    }
    if (!refusals.isEmpty() && !exitZero) {
      throw new IllegalArgumentException(String.join("; ", refusals));
    }
    return first;
  }

  /**
   * The drop-in's check, as early as the flags allow (before its tokenizer asks the server
   * anything): refuses a model the server lists others than, and says nothing otherwise (the
   * run's own check, {@link #check}, says the rest).
   *
   * @throws IllegalArgumentException when the server lists models and not this one
   */
  public static void refuseIfNotServed(String baseUrl, Map<String, String> headers,
      boolean insecureTls, String model) {
    Target target = Target.parse(baseUrl);
    Check check = list(target, headers, insecureTls, EARLY_TIMEOUT, model);
    if (check.listed() != null && !check.served()) {
      throw new IllegalArgumentException(notServed(target, check));
    }
  }

  private static String notServed(Target target, Check check) {
    return "the server at " + target + " does not serve the model `" + check.model()
        + "`: its /v1/models lists " + String.join(", ", check.listed()) + "; name one of "
        + "them (--model or --served-model-name on the command line, model(...) or "
        + "servedModelName(...) in a simulation)";
  }

  private static Check list(Target target, Map<String, String> headers, boolean insecureTls,
      Duration timeout, String model) {
    URI uri = uri(target);
    try {
      AuxHttp.Response answer = AuxHttp.get(uri).headers(headers).connectTimeout(timeout)
          .timeout(timeout).maxBody(MAX_BODY).insecureTls(insecureTls).send();
      if (answer.status() != 200) {
        return new Check(model, null, answer.url() + " answered HTTP " + answer.status());
      }
      return parse(answer.body())
          .map(ids -> new Check(model, ids, null))
          .orElseGet(() -> new Check(model, null, answer.url() + " lists no model"));
    } catch (IOException | RuntimeException e) {
      return new Check(model, null, AuxHttp.redact(uri) + " " + UNREACHABLE + " ("
          + rootMessage(e) + ")");
    }
  }

  /** The innermost cause's own words ("Connection refused"), not a chain of class names. */
  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
  }

  private static URI uri(Target target) {
    return URI.create((target.tls() ? "https://" : "http://") + target.hostHeader()
        + target.path("/v1/models"));
  }

  /** Whether {@code model} is one of {@code listed}, an untagged name matching its default tag. */
  static boolean serves(Set<String> listed, String model) {
    return listed.contains(model)
        || (!model.contains(":") && listed.contains(model + DEFAULT_TAG));
  }

  /** The {@code data[].id} of an OpenAI model list; empty when the body is not one. */
  static Optional<Set<String>> parse(byte[] body) {
    try {
      JsonNode data = JSON.readTree(body).path("data");
      Set<String> ids = new LinkedHashSet<>();
      for (JsonNode model : data) {
        if (model.path("id").isTextual()) {
          ids.add(model.get("id").textValue());
        }
      }
      return ids.isEmpty() ? Optional.empty() : Optional.of(ids);
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }
}
