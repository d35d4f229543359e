package dev.gatlingllm.internal.cli;

import dev.gatlingllm.internal.http.AuxHttp;
import dev.gatlingllm.internal.http.AuxHttpException;
import dev.gatlingllm.tokenizer.Tokenizer;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/**
 * The tokenizer a plan asks for: the one named by {@code --tokenizer} (or the model), the
 * server's {@code /tokenize} when no file can be had, and vLLM's re-alignment to the server's
 * counts. The drop-in and a dry run load it the same way.
 */
public final class PlanTokenizer {

  private static final Set<String> SHIPPED_GPT2 = Set.of("gpt2", "openai-community/gpt2");

  private PlanTokenizer() {}

  /**
   * The run's tokenizer file, found as vLLM finds it: the shipped GPT-2 for its hub ids, else
   * a local file or folder ({@code tokenizer.json} or tiktoken), else the hub's
   * {@code tokenizer.json} or {@code tiktoken.model}. Nothing is sent to the server (a dry
   * run uses it).
   */
  public static Tokenizer loadTokenizer(BenchPlan plan) {
    String id = plan.tokenizerId();
    if (plan.skipTokenizer()) {
      // --skip-tokenizer-init: nothing of the model is loaded; the datasets still need one
      return Tokenizer.gpt2();
    }
    try {
      // the hub's GPT-2 tokenizer ships in the plugin jar: no download, also offline
      if (SHIPPED_GPT2.contains(id) && !Files.exists(Path.of(id))) {
        return Tokenizer.gpt2();
      }
      return Tokenizer.resolve(id);
    } catch (RuntimeException e) {
      throw cannotLoad(plan, e);
    }
  }

  /**
   * {@link #loadTokenizer}, and when no tokenizer file can be had (offline and not cached, a
   * 404 from the hub) but the server answers {@code /tokenize}, the server's tokenizer, said
   * in one line on {@code console}.
   */
  public static Tokenizer loadTokenizerOrServer(BenchPlan plan, PrintStream console) {
    try {
      return loadTokenizer(plan);
    } catch (IllegalArgumentException e) {
      String id = plan.tokenizerId();
      // a local path that exists but is no tokenizer is the user's mistake, not a fallback
      if (plan.skipTokenizer() || Files.exists(Path.of(id))) {
        throw e;
      }
      try {
        Tokenizer server = Tokenizer.fromServer(plan.baseUrl(), plan.requestModelName(),
            plan.controlHeaders(System::getenv), plan.insecureTls());
        console.println("Tokenizer '" + id + "' could not be loaded ("
            + (e.getCause() != null ? e.getCause() : e).getMessage()
            + "); counting tokens with the server's /tokenize instead.");
        return server;
      } catch (RuntimeException noServer) {
        e.addSuppressed(noServer);
        throw e;
      }
    }
  }

  private static IllegalArgumentException cannotLoad(BenchPlan plan, RuntimeException e) {
    String id = plan.tokenizerId();
    return new IllegalArgumentException("cannot load the tokenizer '" + id + "'"
        + (plan.args().has("tokenizer") ? "" : " (vLLM's default: the --model)")
        + ": " + e.getMessage() + ". Give --tokenizer a tokenizer.json, a tiktoken file, "
        + "their folder (such as datasets/tokenizers/gpt2) or a Hugging Face model id", e);
  }

  /**
   * vLLM 0.29's re-alignment: for random and prefix_repetition prompts, the tokenizer with
   * the server's alongside when the server answers {@code /tokenize} and {@code /detokenize}
   * (probed once, here, before sampling); either way one console line says which. Nothing is
   * probed for other datasets, with {@code --skip-tokenizer-init}, when the tokenizer
   * already is the server's, or with {@code --prompt-token-ids}: ids are not tokenized again,
   * so the server counts exactly the ids sent, and text re-aligned to its counts would then
   * be sent as the other tokenizer's ids, of another length.
   */
  public static Tokenizer realigned(BenchPlan plan, Tokenizer tokenizer, PrintStream console) {
    String dataset = plan.dataset().name();
    if (plan.skipTokenizer() || plan.promptTokenIds() || tokenizer.isServer()
        || plan.conversations().isPresent()
        || !(dataset.equals("random") || dataset.equals("prefix_repetition"))) {
      return tokenizer;
    }
    try {
      Tokenizer server = Tokenizer.fromServer(plan.baseUrl(), plan.requestModelName(),
          plan.controlHeaders(System::getenv), plan.insecureTls());
      console.println("The server answers /tokenize: " + dataset + " prompts are re-aligned "
          + "to its token counts.");
      return tokenizer.realignedBy(server);
    } catch (RuntimeException e) {
      if (AuxHttpException.untrustedCertificate(e)) {
        console.println("/tokenize not asked: " + AuxHttp.UNTRUSTED
            + ": give --insecure to accept it. " + Character.toUpperCase(dataset.charAt(0))
            + dataset.substring(1) + " prompts keep the lengths of tokenizer " + tokenizer.id()
            + ".");
        return tokenizer;
      }
      console.println("The server has no usable /tokenize (" + e.getMessage() + "): " + dataset
          + " prompts keep the lengths of tokenizer " + tokenizer.id() + ".");
      return tokenizer;
    }
  }
}
