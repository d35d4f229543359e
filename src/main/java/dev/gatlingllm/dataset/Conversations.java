package dev.gatlingllm.dataset;

import dev.gatlingllm.internal.scale.ScaleOut;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * The conversations a conversation source sampled, and the Gatling feeder over them: one
 * record per conversation, {@value #CONVERSATION} (the {@link Conversation}) and
 * {@value #CONVERSATION_ID}. Each virtual user fed from it plays one conversation, so an
 * arrival profile paces conversations, not turns.
 */
public final class Conversations {

  /** Feeder key of the {@link Conversation}. */
  public static final String CONVERSATION = "conversation";
  /** Feeder key of the conversation's id ({@code String}). */
  public static final String CONVERSATION_ID = "conversation_id";

  private final String source;
  private final List<Conversation> conversations;

  Conversations(String source, List<Conversation> conversations) {
    this.source = source;
    this.conversations = List.copyOf(conversations);
  }

  /** The sampled conversations, in feeder order. */
  public List<Conversation> all() {
    return conversations;
  }

  public int size() {
    return conversations.size();
  }

  /** Turns over all conversations: the requests a run of all of them sends at most. */
  public int totalTurns() {
    return conversations.stream().mapToInt(c -> c.turns().size()).sum();
  }

  /**
   * A new feeder that gives each conversation once, in order. Inject at most {@link #size()}
   * users. On one injector of a scaled-out benchmark ({@code -Dllm.injector=K/N}) only the
   * conversations of its share: a conversation stays on one injector.
   */
  public Iterator<Map<String, Object>> feeder() {
    List<Conversation> mine = conversations;
    if (ScaleOut.current().requested()) {
      // the merge checks that every injector sampled the same conversations
      ScaleOut.noteDataset(digest());
      mine = ScaleOut.current().share().select(conversations);
    }
    List<Conversation> fed = mine;
    return new Iterator<>() {
      private int next;

      @Override
      public synchronized boolean hasNext() {
        return next < fed.size();
      }

      @Override
      public synchronized Map<String, Object> next() {
        if (!hasNext()) {
          throw new NoSuchElementException("All " + fed.size() + " conversations were used");
        }
        Conversation c = fed.get(next++);
        return Map.of(CONVERSATION, c, CONVERSATION_ID, c.id());
      }
    };
  }

  /**
   * One request per conversation, for code that runs on samples (the drop-in's ready check,
   * LoRA draw and injector shares): its first turn, with the conversation's id as request id
   * and the {@link #CONVERSATION} and {@link #CONVERSATION_ID} entries in its feeder record,
   * which a conversation step plays whole.
   */
  public Samples asSamples() {
    List<SampleRequest> firsts = new ArrayList<>(conversations.size());
    for (Conversation c : conversations) {
      Conversation.Turn first = c.turns().get(0);
      firsts.add(new SampleRequest(first.prompt(), first.promptLen(), first.outputLen(), c.id(),
          Map.of(CONVERSATION, c, CONVERSATION_ID, c.id())));
    }
    return new Samples(source, firsts);
  }

  /** Turns of the conversations in {@code records} (feeder records of {@link #asSamples()}). */
  public static int turnsOf(List<Map<String, Object>> records) {
    return records.stream().mapToInt(r -> r.get(CONVERSATION) instanceof Conversation c
        ? c.turns().size() : 1).sum();
  }

  /** SHA-256 over every conversation's id and turns, in order. */
  public String digest() {
    List<String> parts = new ArrayList<>();
    parts.add(source);
    for (Conversation c : conversations) {
      parts.add(c.id());
      for (Conversation.Turn t : c.turns()) {
        parts.add(t.promptLen() + "/" + t.outputLen());
        parts.add(t.prompt());
      }
    }
    return ScaleOut.digest(parts);
  }

  @Override
  public String toString() {
    return "Conversations{" + source + ", " + size() + " conversations, " + totalTurns()
        + " turns}";
  }
}
