package dev.gatlingllm.dataset;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatlingllm.internal.dataset.DatasetException;
import dev.gatlingllm.tokenizer.Tokenizer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * All turns of the conversations of a ShareGPT JSON file, as {@code vllm-bench --multi-turn}
 * replays them: a turn is a user message ({@code "from": "human"} or {@code "user"}) with a
 * non-empty value followed by a non-empty reply from any other speaker; a conversation's
 * turns end where that pattern breaks. Entries with fewer than two such turns are dropped
 * (they are single-turn requests). The recorded replies are not sent: each turn carries the
 * server's real answers; a reply's token count is its turn's output length, unless
 * {@link #outputLen} sets one for all. Shuffled with the seed, then the first
 * {@link #count} are kept (all when fewer).
 */
public final class ShareGptConversations {

  private static final Set<String> USER = Set.of("human", "user");

  private final Path path;
  private final int count;
  private final long seed;
  private final Integer outputLen;

  ShareGptConversations(Path path) {
    this(path, SyntheticConversations.DEFAULT_COUNT, 0, null);
  }

  private ShareGptConversations(Path path, int count, long seed, Integer outputLen) {
    this.path = path;
    this.count = count;
    this.seed = seed;
    this.outputLen = outputLen;
  }

  /** The builder for {@code LlmDsl.shareGptConversations(path)}. */
  public static ShareGptConversations of(Path path) {
    return new ShareGptConversations(path);
  }

  /** Conversations to keep at most (default 100). */
  public ShareGptConversations count(int conversations) {
    if (conversations < 1) {
      throw new IllegalArgumentException("count must be >= 1, got " + conversations);
    }
    return new ShareGptConversations(path, conversations, seed, outputLen);
  }

  /** Seed of the shuffle (default 0). */
  public ShareGptConversations seed(long value) {
    return new ShareGptConversations(path, count, value, outputLen);
  }

  /** Output length of every turn instead of its recorded reply's. */
  public ShareGptConversations outputLen(int tokens) {
    if (tokens < 1) {
      throw new IllegalArgumentException("outputLen must be >= 1, got " + tokens);
    }
    return new ShareGptConversations(path, count, seed, tokens);
  }

  /** Reads the file and counts every turn's tokens with {@code tokenizer}. */
  public Conversations sample(Tokenizer tokenizer) {
    DataFiles.requireFile(path, "ShareGPT");
    List<List<String[]>> found = new ArrayList<>();
    DataFiles.jsonArray(path, "ShareGPT", (index, entry) -> {
      List<String[]> turns = turns(entry.get("conversations"));
      if (turns.size() >= 2) {
        found.add(turns);
      }
    });
    if (found.isEmpty()) {
      throw new DatasetException("ShareGPT file " + path + " has no conversation with at least"
          + " two turns (a user message, a reply, a user message, a reply)");
    }
    Sampling.shuffle(found, seed);
    List<Conversation> conversations = new ArrayList<>();
    for (List<String[]> pairs : found.subList(0, Math.min(count, found.size()))) {
      List<Conversation.Turn> turns = new ArrayList<>(pairs.size());
      for (String[] pair : pairs) {
        int output = outputLen != null ? outputLen
            : Math.max(1, tokenizer.count(pair[1]));
        turns.add(new Conversation.Turn(pair[0], tokenizer.count(pair[0]), output));
      }
      conversations.add(new Conversation("sharegpt-" + conversations.size(), turns));
    }
    return new Conversations("sharegpt", conversations);
  }

  /** The (user message, reply) pairs from the start, up to the first that is not one. */
  private static List<String[]> turns(JsonNode messages) {
    List<String[]> pairs = new ArrayList<>();
    if (messages == null || !messages.isArray()) {
      return pairs;
    }
    for (int i = 0; i + 1 < messages.size(); i += 2) {
      JsonNode user = messages.get(i);
      JsonNode reply = messages.get(i + 1);
      String question = DataFiles.text(user, "value");
      String answer = DataFiles.text(reply, "value");
      String from = DataFiles.text(user, "from");
      if (from == null || !USER.contains(from) || USER.contains(DataFiles.text(reply, "from"))
          || question == null || question.isBlank() || answer == null || answer.isBlank()) {
        break;
      }
      pairs.add(new String[] {question, answer});
    }
    return pairs;
  }

  @Override
  public String toString() {
    return "sharegptConversations{path=" + path + ", count=" + count + ", seed=" + seed
        + ", outputLen=" + outputLen + "}";
  }
}
