package dev.gatlingllm.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.dataset.DatasetException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConversationSourcesTest {

  @TempDir Path dir;

  @Test
  void everySyntheticTurnHasExactlyItsLengths() {
    Conversations talks = SyntheticConversations.builder().count(12).turns(4)
        .perTurnInputLen(50).outputLen(7).seed(3).sample(Gpt2.TOKENIZER);
    assertEquals(12, talks.size());
    assertEquals(48, talks.totalTurns());
    Set<String> ids = new HashSet<>();
    for (Conversation c : talks.all()) {
      ids.add(c.id());
      assertEquals(4, c.turns().size());
      for (Conversation.Turn t : c.turns()) {
        assertEquals(50, t.promptLen());
        assertEquals(50, Gpt2.TOKENIZER.count(t.prompt()), "the count is the real one");
        assertEquals(7, t.outputLen());
      }
    }
    assertEquals(12, ids.size(), "ids are unique");
  }

  @Test
  void turnCountsStayInTheRangeAndCoverIt() {
    Conversations talks = SyntheticConversations.builder().count(200).turns(2, 5)
        .perTurnInputLen(4).outputLen(1).sample(Gpt2.TOKENIZER);
    Set<Integer> seen = new HashSet<>();
    for (Conversation c : talks.all()) {
      assertTrue(c.turns().size() >= 2 && c.turns().size() <= 5, c.turns().size() + " turns");
      seen.add(c.turns().size());
    }
    assertEquals(Set.of(2, 3, 4, 5), seen, "200 draws reach every count of 2..5");
  }

  @Test
  void theSameSeedGivesTheSameConversations() {
    SyntheticConversations source = SyntheticConversations.builder().count(5).turns(1, 4)
        .perTurnInputLen(20).seed(9);
    assertEquals(source.sample(Gpt2.TOKENIZER).all(), source.sample(Gpt2.TOKENIZER).all());
    assertNotEquals(source.sample(Gpt2.TOKENIZER).all(),
        source.seed(10).sample(Gpt2.TOKENIZER).all());
  }

  /**
   * 100 tokens, global 0.3 and conversation 0.2: all messages share 30 tokens of text, the
   * messages of one conversation 50; other conversations' messages part after the 30.
   */
  @Test
  void prefixRatiosShareTheirTokens() {
    Conversations talks = SyntheticConversations.builder().count(3).turns(3)
        .perTurnInputLen(100).prefixRatios(0.3, 0.2).seed(1).sample(Gpt2.TOKENIZER);
    List<Conversation> all = talks.all();
    for (Conversation c : all) {
      for (Conversation.Turn t : c.turns()) {
        assertEquals(100, t.promptLen());
      }
      int within = sharedTokens(c.turns().get(0).prompt(), c.turns().get(2).prompt());
      assertTrue(within >= 49 && within < 60, "one conversation shares ~50 tokens: " + within);
    }
    int across = sharedTokens(all.get(0).turns().get(0).prompt(), all.get(1).turns().get(1).prompt());
    assertTrue(across >= 29 && across < 40, "two conversations share ~30 tokens: " + across);
  }

  @Test
  void withoutRatiosEveryMessageIsUnique() {
    Conversations talks = SyntheticConversations.builder().count(2).turns(2)
        .perTurnInputLen(40).sample(Gpt2.TOKENIZER);
    Conversation c = talks.all().get(0);
    assertTrue(sharedTokens(c.turns().get(0).prompt(), c.turns().get(1).prompt()) < 5);
  }

  /** Tokens of the longest common text prefix of two messages. */
  private static int sharedTokens(String a, String b) {
    int n = 0;
    while (n < Math.min(a.length(), b.length()) && a.charAt(n) == b.charAt(n)) {
      n++;
    }
    return Gpt2.TOKENIZER.count(a.substring(0, n));
  }

  @Test
  void badSettingsAreRefusedWithTheirValues() {
    SyntheticConversations s = SyntheticConversations.builder();
    assertEquals("prefix ratios must each be in [0, 1) and add up to less than 1, got global 0.6"
        + " and conversation 0.4", assertThrows(IllegalArgumentException.class,
            () -> s.prefixRatios(0.6, 0.4)).getMessage());
    assertEquals("max turns must be >= min turns (3), got 2",
        assertThrows(IllegalArgumentException.class, () -> s.turns(3, 2)).getMessage());
    assertThrows(IllegalArgumentException.class, () -> s.turns(0));
    assertThrows(IllegalArgumentException.class, () -> s.perTurnInputLen(0));
  }

  @Test
  void theFeederGivesEachConversationOnce() {
    Conversations talks = SyntheticConversations.builder().count(2).turns(1)
        .perTurnInputLen(5).sample(Gpt2.TOKENIZER);
    Iterator<Map<String, Object>> feeder = talks.feeder();
    Map<String, Object> first = feeder.next();
    assertEquals("conv-0", first.get(Conversations.CONVERSATION_ID));
    assertEquals(talks.all().get(0), first.get(Conversations.CONVERSATION));
    assertEquals("conv-1", feeder.next().get(Conversations.CONVERSATION_ID));
    assertFalse(feeder.hasNext());
  }

  @Test
  void theDigestChangesWithAnyTurn() {
    SyntheticConversations source = SyntheticConversations.builder().count(3).turns(2)
        .perTurnInputLen(8);
    assertEquals(source.sample(Gpt2.TOKENIZER).digest(), source.sample(Gpt2.TOKENIZER).digest());
    assertNotEquals(source.sample(Gpt2.TOKENIZER).digest(),
        source.outputLen(9).sample(Gpt2.TOKENIZER).digest());
  }

  static Map<String, Object> entry(String... fromValue) {
    List<Map<String, String>> messages = new ArrayList<>();
    for (int i = 0; i < fromValue.length; i += 2) {
      messages.add(Map.of("from", fromValue[i], "value", fromValue[i + 1]));
    }
    return Map.of("conversations", messages);
  }

  /**
   * Word tokenizer: one token per word. A keeps its two turns and drops the dangling
   * question; B has one turn; C breaks at its second user message (empty); D starts with the
   * assistant.
   */
  @Test
  void shareGptKeepsEveryRealTurnOfConversationsWithTwo() throws IOException {
    Path file = dir.resolve("chats.json");
    DataFiles.JSON.writeValue(file.toFile(), List.of(
        entry("human", "hello world", "gpt", "foo bar foo", "human", "bar", "gpt", "hello",
            "human", "dangling"),
        entry("human", "hello", "gpt", "world"),
        entry("human", "hello", "gpt", "world", "human", " ", "gpt", "foo"),
        entry("gpt", "hello", "human", "world", "gpt", "foo", "human", "bar")));
    Conversations talks = ShareGptConversations.of(file).sample(Gpt2.WORDS);
    assertEquals(1, talks.size());
    Conversation a = talks.all().get(0);
    assertEquals(List.of(new Conversation.Turn("hello world", 2, 3),
        new Conversation.Turn("bar", 1, 1)), a.turns());
    assertEquals(List.of(new Conversation.Turn("hello world", 2, 9),
        new Conversation.Turn("bar", 1, 9)),
        ShareGptConversations.of(file).outputLen(9).sample(Gpt2.WORDS).all().get(0).turns());
  }

  @Test
  void shareGptWithoutMultiTurnConversationsSaysSo() throws IOException {
    Path file = dir.resolve("single.json");
    DataFiles.JSON.writeValue(file.toFile(), List.of(entry("human", "hello", "gpt", "world")));
    DatasetException e = assertThrows(DatasetException.class,
        () -> ShareGptConversations.of(file).sample(Gpt2.WORDS));
    assertTrue(e.getMessage().contains("has no conversation with at least two turns"),
        e.getMessage());
  }

  @Test
  void theShippedShareGptSampleHasMultiTurnConversations() {
    Conversations talks = ShareGptConversations.of(ShareGptDatasetTest.SAMPLE).count(5)
        .sample(Gpt2.TOKENIZER);
    assertTrue(talks.size() >= 1);
    talks.all().forEach(c -> assertTrue(c.turns().size() >= 2));
  }
}
