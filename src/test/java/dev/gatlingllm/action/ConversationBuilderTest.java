package dev.gatlingllm.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** What a conversation step refuses when the simulation is built. */
class ConversationBuilderTest {

  @Test
  void theTurnsGiveTheMessagesAndLengthsSoTheChatRequestMayNot() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ConversationBuilder.of(LlmRequestBuilder.chat("chat").maxTokens(5)));
    assertEquals("conversation(chat(\"chat\")): the turns give the messages and the lengths;"
        + " remove prompt, messages, maxTokens, promptTokens, saveTextAs and multiModal from"
        + " the chat request", e.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> ConversationBuilder.of(LlmRequestBuilder.chat("chat").prompt("hi")));
  }

  @Test
  void toolsAndSchemasAreRefusedRatherThanDroppedFromTheTurns() {
    String expected = "conversation(chat(\"chat\")): tools, toolChoice and jsonSchema are not"
        + " sent in a conversation's turns; remove them, or send the request on its own";
    assertEquals(expected, assertThrows(IllegalArgumentException.class,
        () -> ConversationBuilder.of(LlmRequestBuilder.chat("chat").toolChoice("none")))
        .getMessage());
    assertEquals(expected, assertThrows(IllegalArgumentException.class,
        () -> ConversationBuilder.of(LlmRequestBuilder.chat("chat")
            .jsonSchema("answer", java.util.Map.of("type", "object")))).getMessage());
  }

  @Test
  void onlyChatRequestsHoldAConversation() {
    assertEquals("conversation(...) takes a chat request, got the completions request 'gen'",
        assertThrows(IllegalArgumentException.class,
            () -> ConversationBuilder.of(LlmRequestBuilder.completions("gen"))).getMessage());
  }

  @Test
  void thinkTimeAndLorasAreChecked() {
    ConversationBuilder c = ConversationBuilder.of(LlmRequestBuilder.chat("chat")
        .temperature(0.7).systemPrompt("Be brief."));
    assertEquals("thinkTime must be >= 0, got PT-1S", assertThrows(
        IllegalArgumentException.class, () -> c.thinkTime(Duration.ofSeconds(-1))).getMessage());
    assertThrows(IllegalArgumentException.class, () -> c.loras());
    assertThrows(IllegalArgumentException.class, () -> c.loras("a", " "));
    assertEquals("maxConcurrentConversations must be >= 1, got 0", assertThrows(
        IllegalArgumentException.class, () -> c.maxConcurrentConversations(0)).getMessage());
  }
}
