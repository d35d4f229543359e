package dev.gatlingllm.action;

import static io.gatling.javaapi.core.CoreDsl.doIf;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.pause;

import dev.gatlingllm.dataset.Conversation;
import dev.gatlingllm.dataset.Conversations;
import dev.gatlingllm.internal.action.BackendRequests;
import dev.gatlingllm.internal.action.ConversationSlots;
import dev.gatlingllm.internal.action.ConversationState;
import dev.gatlingllm.internal.action.ConversationTemplate;
import dev.gatlingllm.internal.action.LlmActions;
import dev.gatlingllm.internal.action.LlmRequestAction;
import dev.gatlingllm.internal.action.RequestSpec;
import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Session;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * A whole conversation as one step: the user's fed conversation (a
 * {@link Conversations#feeder()}) is played turn by turn, each turn a chat request carrying
 * the server's real previous answers, with the think time between turns. A failed turn ends
 * the conversation: the turns after it are not sent. The model is chosen once per
 * conversation and kept for all its turns. Immutable: every call returns a new builder.
 *
 * <pre>{@code
 * .feed(conversations().turns(5).count(100).sample(gpt2()).feeder())
 * .exec(conversation(chat("chat")).thinkTime(Duration.ofSeconds(1)).loras("a", "b"))
 * }</pre>
 */
public final class ConversationBuilder implements ActionBuilder {

  private final LlmRequestBuilder chat;
  private final RequestSpec spec;
  private final Duration thinkTime;
  private final List<String> loras;
  /** Conversations in flight at most; 0: no limit of its own. */
  private final int inFlight;

  private ConversationBuilder(LlmRequestBuilder chat, RequestSpec spec, Duration thinkTime,
      List<String> loras, int inFlight) {
    this.chat = chat;
    this.spec = spec;
    this.thinkTime = thinkTime;
    this.loras = loras;
    this.inFlight = inFlight;
  }

  /**
   * Conversations sent with {@code chat}'s settings (sampling, system prompt, model, endpoint);
   * the turns give the messages and lengths.
   */
  public static ConversationBuilder of(LlmRequestBuilder chat) {
    Objects.requireNonNull(chat, "chat");
    return new ConversationBuilder(chat, chat.conversationSpec(), Duration.ZERO, List.of(), 0);
  }

  /**
   * Conversations sent as the drop-in's chat request of these flags ({@code --multi-turn}):
   * its sampling fields, endpoint and model (a {@code #{lora_module}} of the fed record is
   * resolved once per conversation); request ids from the protocol, one per turn.
   */
  public static ConversationBuilder of(RequestFlags flags) {
    return of(BackendRequests.conversationTurn(flags));
  }

  /** Pause between the end of a turn's answer and the next turn ({@code --multi-turn-delay-ms}). */
  public ConversationBuilder thinkTime(Duration pause) {
    if (pause == null || pause.isNegative()) {
      throw new IllegalArgumentException("thinkTime must be >= 0, got " + pause);
    }
    return new ConversationBuilder(chat, spec, pause, loras, inFlight);
  }

  /**
   * LoRA adapters (model names) to spread conversations over: each conversation gets one,
   * drawn from its id (the same conversation, the same adapter, in every run), and keeps it
   * for all its turns. Without them, the chat request's model (resolved at the first turn)
   * or the protocol's.
   */
  public ConversationBuilder loras(String... models) {
    if (models == null || models.length == 0) {
      throw new IllegalArgumentException("loras needs at least one model name");
    }
    for (String m : models) {
      if (m == null || m.isBlank()) {
        throw new IllegalArgumentException("loras: a model name is empty");
      }
    }
    return new ConversationBuilder(chat, spec, thinkTime, List.of(models), inFlight);
  }

  /**
   * At most {@code conversations} of this step in flight ({@code --multi-turn-concurrency}):
   * a conversation holds its place from its first turn to the end of its last, think times
   * included; the others wait in arrival order. Without it, every arrived conversation runs.
   */
  public ConversationBuilder maxConcurrentConversations(int conversations) {
    if (conversations < 1) {
      throw new IllegalArgumentException("maxConcurrentConversations must be >= 1, got "
          + conversations);
    }
    return new ConversationBuilder(chat, spec, thinkTime, loras, conversations);
  }

  @Override
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    ConversationTemplate template = new ConversationTemplate(spec);
    ActionBuilder turn = () -> LlmActions.scala(
        (ctx, next) -> new LlmRequestAction(template, ctx, next));
    // a turn that made no request (refused before the wire) does not advance the state:
    // without the check after it, the loop would try that turn again and again
    ChainBuilder sent = exec(session -> session.set(TURN_TRIED, state(session).next()))
        .exec(turn)
        .exec(session -> {
          ConversationState after = state(session);
          return after != null && !after.failed() && after.next() == session.getInt(TURN_TRIED)
              ? session.set(ConversationState.ATTRIBUTE, after.unsent()) : session;
        });
    ChainBuilder body = thinkTime.isZero() ? sent
        : doIf(session -> state(session).next() > 0).then(pause(thinkTime)).exec(sent);
    ChainBuilder play = exec(this::begin)
        .asLongAs(session -> state(session) != null && state(session).hasNextTurn()).on(body)
        .exec(session -> session.remove(ConversationState.ATTRIBUTE).remove(TURN_TRIED));
    ChainBuilder chain = play;
    if (inFlight > 0) {
      ConversationSlots slots = new ConversationSlots(inFlight);
      ActionBuilder enter = () -> LlmActions.scala(slots::enter);
      ActionBuilder leave = () -> LlmActions.scala(slots::leave);
      chain = exec(enter).exec(play).exec(leave);
    }
    ChainBuilder built = chain;
    return LlmActions.scala((ctx, next) -> built.wrapped.build(ctx, next));
  }

  /** Session attribute: the index of the turn being tried, to tell whether it was sent. */
  private static final String TURN_TRIED = "gatling-llm.conversation.tried";

  private static ConversationState state(Session session) {
    return ConversationState.of(session.asScala());
  }

  private Session begin(Session session) {
    if (!session.contains(Conversations.CONVERSATION)
        || !(session.get(Conversations.CONVERSATION) instanceof Conversation conversation)) {
      throw new IllegalStateException("conversation('" + spec.name() + "') found no '"
          + Conversations.CONVERSATION + "' in the session: feed the scenario from a"
          + " conversations feeder (conversations()...sample(tokenizer).feeder()) before it");
    }
    String model = null;
    if (!loras.isEmpty()) {
      model = loras.get(new SplittableRandom(conversation.id().hashCode())
          .nextInt(loras.size()));
    } else if (spec.model() != null) {
      model = spec.model().resolve(session.asScala());
    }
    return session.set(ConversationState.ATTRIBUTE,
        ConversationState.begin(conversation, spec.systemPrompt(), model));
  }
}
