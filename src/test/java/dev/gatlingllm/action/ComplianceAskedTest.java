package dev.gatlingllm.action;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gatlingllm.internal.action.GenerationTemplate;
import dev.gatlingllm.internal.protocol.ServerCompliance.Asked;
import io.gatling.commons.stats.OK$;
import io.gatling.core.session.Session;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import scala.collection.immutable.Map$;
import scala.collection.immutable.Nil$;
import scala.runtime.BoxedUnit;

/** What a generation request asks of the server, as the compliance check compares it. */
class ComplianceAskedTest {

  private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());

  @AfterEach
  void tearDown() throws Exception {
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private Asked asked(LlmRequestBuilder builder) {
    Session session = new Session("scn", 1L, (scala.collection.immutable.Map) Map$.MODULE$.empty(),
        OK$.MODULE$, (scala.collection.immutable.List) Nil$.MODULE$, s -> BoxedUnit.UNIT,
        group.next());
    return new GenerationTemplate(builder.spec()).body(session, "served", "id-1").asked();
  }

  @Test
  void chatAsksMaxCompletionTokensOnly() {
    assertEquals(new Asked(64, 64, true, true, "served", true),
        asked(LlmRequestBuilder.chat("c").prompt("p").maxTokens(64).ignoreEos(true)));
  }

  @Test
  void completionsAskMaxTokensAndTheRequestsOwnModel() {
    assertEquals(new Asked(16, 16, false, false, "mine", false),
        asked(LlmRequestBuilder.completions("c").prompt("p").maxTokens(16).model("mine")));
  }

  @Test
  void noLimitMeansNothingToCompareTheOutputWith() {
    assertEquals(new Asked(-1, -1, false, false, "served", false),
        asked(LlmRequestBuilder.completions("c").prompt("p")));
  }

  @Test
  void responsesAskMaxOutputTokensTheExtraBodysWinning() {
    assertEquals(new Asked(8, 8, false, true, "served", false),
        asked(LlmRequestBuilder.responses("r").prompt("p").maxTokens(8).ignoreEos(true)));
    assertEquals(new Asked(4, 4, false, true, "served", false),
        asked(LlmRequestBuilder.responses("r").prompt("p").maxTokens(8).ignoreEos(true)
            .extraBody("max_output_tokens", 4)));
  }

  @Test
  void theExtraBodyWinsAsItDoesInTheBody() {
    // max_tokens sent beside max_completion_tokens: either may be honoured
    assertEquals(new Asked(64, 32, false, false, "other", true),
        asked(LlmRequestBuilder.chat("c").prompt("p").maxTokens(64).ignoreEos(true)
            .extraBody(Map.of("max_tokens", 32, "ignore_eos", false, "model", "other"))));
  }
}
