package dev.gatlingllm.it;

import static dev.gatlingllm.LlmDsl.chat;
import static dev.gatlingllm.LlmDsl.completions;
import static dev.gatlingllm.LlmDsl.llm;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.gatling.javaapi.core.Simulation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * A two-step journey: a completion saved with {@code saveTextAs("completion")}, then a chat
 * turn whose prompt is that saved text and whose answer is saved as {@code "reply"}. Each user
 * ends by handing both attributes, as the session holds them, to {@link #SAVED}.
 */
public class SaveTextItSimulation extends Simulation {

  static final String BASE_URL = "it.baseUrl";
  static final int USERS = 3;
  static final int COMPLETION_TOKENS = 7;
  static final int REPLY_TOKENS = 3;

  /** One [completion, reply] pair per user, nulls kept. */
  static final List<List<Object>> SAVED = Collections.synchronizedList(new ArrayList<>());

  {
    setUp(scenario("save text")
        .exec(completions("complete").prompt("a b c").maxTokens(COMPLETION_TOKENS)
            .saveTextAs("completion"))
        .exec(chat("reply").prompt("#{completion}").maxTokens(REPLY_TOKENS).saveTextAs("reply"))
        .exec(session -> {
          SAVED.add(Arrays.asList(session.get("completion"), session.get("reply")));
          return session;
        })
        .injectOpen(atOnceUsers(USERS)))
        .protocols(llm().baseUrl(System.getProperty(BASE_URL)).model("served-llm"))
        .assertions(global().failedRequests().count().is(0L));
  }
}
