package dev.gatlingllm.internal.sim;

import dev.gatlingllm.sim.Fault;
import dev.gatlingllm.sim.SimulatorConfig;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * One admitted generation request, driven entirely by timers on its connection's event
 * loop: no thread waits for it. Every timer is set against the planned instant of the
 * previous step (not the instant it actually ran), so lateness never accumulates.
 *
 * <p>All methods run on the connection's event loop, except that {@link #holdsSlot} is
 * owned by {@link ServerState}'s lock.
 */
public final class Generation {

  private enum Step { CHUNK, FAULT, END, RESPOND }

  private final ChannelHandlerContext ctx;
  private final SimulatorConfig config;
  private final ServerState state;
  private final TimerLateness lateness;
  private final GenerationRequest request;
  /** Prompt tokens the session cache held: no prefill for them. */
  private int cachedTokens;
  private final ResponseText text;
  /** The typed events of the Responses or Messages API; null for completions and chat. */
  private final TypedEvents events;
  private final String requestId;
  private final ResponseConnection connection;
  private final Runnable onComplete;
  private final boolean stall;
  private final boolean inBand;
  private final boolean disconnect;
  private final Jitter jitter;
  private final int chunks;
  private final long number;
  /** First chunk of the answer after the reasoning ones. */
  private final int answerFrom;
  /** A tool call's arguments or a structured answer, streamed in pieces; null for words. */
  private final String shaped;
  /** Content chunks sent before an injected fault takes effect. */
  private final int faultPoint;
  /** Whether a streamed chat answer still owes its role chunk (sent with the first event). */
  private boolean roleChunk;
  /** First token held back to go out merged with the next event; -1 when none is held. */
  private int heldFrom = -1;
  private long admittedNanos;
  private long firstChunkNanos;

  /** Guarded by {@link ServerState}'s lock. */
  boolean holdsSlot;

  private boolean finished;
  /** Null unless the chunk log is on. */
  private ChunkLog.Entry logEntry;
  private Future<?> timer;
  private long dueNanos;
  private int nextChunk;
  private Step step;

  /**
   * @param number     the request's arrival number (ids, jitter stream)
   * @param faults     faults planned for it, without {@link Fault#HTTP_ERROR}
   * @param requestId  the client's {@code x-request-id}, echoed back; may be null
   * @param onComplete called once the response is completely written
   */
  Generation(ChannelHandlerContext ctx, SimulatorConfig config, ServerState state,
      TimerLateness lateness, GenerationRequest request, long number, Set<Fault> faults,
      String requestId, ResponseConnection connection, Runnable onComplete) {
    this.ctx = ctx;
    this.config = config;
    this.state = state;
    this.lateness = lateness;
    this.request = request;
    this.requestId = requestId;
    this.connection = connection;
    this.onComplete = onComplete;
    this.text = new ResponseText(request.chat(), number, System.currentTimeMillis() / 1000,
        request.model() != null ? request.model() : config.model(), request.stream());
    String model = request.model() != null ? request.model() : config.model();
    this.events = request.responses() ? new ResponsesText(number,
        System.currentTimeMillis() / 1000, model)
        : request.messages() ? new MessagesText(number, model, request.promptTokens()) : null;
    // a typed stream's opening events go out where chat's role chunk does
    this.roleChunk = events != null || request.chat() && !config.omitsRole(number);
    this.stall = faults.contains(Fault.STALL);
    this.inBand = faults.contains(Fault.IN_BAND_ERROR);
    this.disconnect = faults.contains(Fault.DISCONNECT);
    this.jitter = Jitter.of(config, number);
    this.chunks = SimTokens.chunkCount(request.maxTokens(), config.tokensPerChunk());
    this.faultPoint = Math.max(1, chunks / 2);
    this.number = number;
    int k = config.tokensPerChunk();
    this.answerFrom = request.chat()
        ? Math.min(chunks, (config.reasoningTokens() + k - 1) / k) : 0;
    AnswerShape shape = request.shape();
    String value = shape.schema() == null ? null : AnswerShape.valueFor(shape.schema());
    boolean cut = shape.toolCall() ? config.malformsToolCall(number)
        : shape.structured() && config.breaksStructuredAnswer(number);
    this.shaped = value == null ? null : cut ? value.substring(0, value.length() - 1) : value;
  }

  /** Records the write time of every content chunk into {@code entry} (null: none). */
  void logTo(ChunkLog.Entry entry) {
    this.logEntry = entry;
  }

  /** Sends the stream's response head at once, as vLLM does, then waits for a slot. */
  void begin() {
    if (request.stream()) {
      HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
      head.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/event-stream; charset=utf-8");
      HttpUtil.setTransferEncodingChunked(head, true);
      decorate(head);
      ctx.writeAndFlush(head).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
    }
    // A failed head write closes the channel at once, which may already have aborted us;
    // submitting then would hold a slot that nobody frees.
    if (finished) {
      return;
    }
    if (state.submit(this)) {
      admitted();
    }
  }

  /** Tokens this request holds in the KV cache while it runs: its prompt and whole output. */
  long kvTokens() {
    return (long) request.promptTokens() + request.maxTokens();
  }

  /**
   * The prompt tokens vLLM's prefix cache held for this request ({@link PrefixCache}): written
   * as {@code usage.prompt_tokens_details.cached_tokens} when the simulator reports them.
   */
  void prefixHit(long tokens) {
    if (config.promptTokensDetails()) {
      text.cachedTokens(tokens);
    }
  }

  /** Prompt tokens a cache already holds: their prefill is not paid (set before it begins). */
  void reusePrefix(int tokens) {
    cachedTokens = tokens;
  }

  /** Starts a generation that waited in the queue; called from whichever loop freed the slot. */
  void startFromQueue() {
    ctx.executor().execute(this::admitted);
  }

  /**
   * The client went away (it closed the connection, as a user who leaves does): stop the
   * timers, give the slot back and count an abort, as vLLM does when a stream is closed.
   */
  void abort() {
    if (!finished) {
      state.countFinished(ServerState.Finished.ABORT);
      finish();
    }
  }

  private void admitted() {
    if (finished) {
      return;
    }
    admittedNanos = System.nanoTime();
    long prefill = config.prefillPerToken().toNanos() * (request.promptTokens() - cachedTokens);
    dueNanos = System.nanoTime() + jitter.apply(config.ttft().toNanos() + prefill);
    if (request.stream()) {
      step = Step.CHUNK;
    } else {
      step = Step.RESPOND;
      dueNanos += jitter.apply((request.maxTokens() - 1) * config.itl().toNanos());
      if (stall) {
        dueNanos += config.stallDuration().toNanos();
      }
    }
    schedule();
  }

  private void schedule() {
    long delay = Math.max(0, dueNanos - System.nanoTime());
    timer = ctx.executor().schedule(this::tick, delay, TimeUnit.NANOSECONDS);
  }

  private void tick() {
    if (finished) {
      return;
    }
    lateness.record(System.nanoTime() - dueNanos);
    runStep();
  }

  private void runStep() {
    switch (step) {
      case CHUNK -> sendChunk();
      case FAULT -> endWithFault();
      case END -> endStream();
      case RESPOND -> respond();
    }
  }

  private void sendChunk() {
    int j = nextChunk++;
    int k = config.tokensPerChunk();
    int from = j * k;
    int to = Math.min(from + k, request.maxTokens());
    boolean last = nextChunk == chunks;
    boolean thinking = request.chat() && from < config.reasoningTokens();
    boolean faulty = nextChunk == faultPoint && (stall || inBand || disconnect);
    int textFrom = heldFrom >= 0 ? heldFrom : from;
    if (!last && !faulty && shaped == null && config.mergesToken(to - 1)
        && thinking == (request.chat() && to < config.reasoningTokens())) {
      // held back, as a token ending inside a UTF-8 character: it goes out with the next one
      heldFrom = textFrom;
    } else {
      heldFrom = -1;
      // llama.cpp's finish reason comes in a chunk of its own, with the usage
      boolean finishHere = last && !config.usageInFinishChunk();
      // the opening first: a typed stream numbers its events, or opens its blocks, in order
      String opening = null;
      if (roleChunk) {
        roleChunk = false;
        opening = events != null ? events.opening() : text.roleEvent(config.nullRoleContent());
      }
      String event;
      if (events != null) {
        String piece = SimTokens.range(textFrom, to);
        event = thinking ? events.reasoningDelta(piece) : events.delta(piece);
      } else if (thinking) {
        event = text.reasoningEvent(SimTokens.range(textFrom, to), config.reasoningField(),
            finishHere);
      } else if (shaped != null) {
        // the call's arguments or the structured answer, a piece per chunk after the reasoning
        String piece = AnswerShape.piece(shaped, j - answerFrom, chunks - answerFrom);
        event = request.shape().toolCall()
            ? text.toolCallEvent(number, request.shape().toolName(), piece, j == answerFrom,
                finishHere)
            : text.escapedContentEvent(piece, finishHere);
      } else {
        event = text.contentEvent(SimTokens.range(textFrom, to), finishHere);
      }
      if (opening != null) {
        event = opening + event;
      }
      write(event);
      if (logEntry != null) {
        // Before the flush: on loopback the client can read the bytes before flush() returns.
        logEntry.wrote(System.nanoTime());
      }
      ctx.flush();
      if (firstChunkNanos == 0) {
        firstChunkNanos = System.nanoTime();
      }
    }

    long pause = 0;
    if (faulty && stall) {
      state.countFault(Fault.STALL);
      pause = config.stallDuration().toNanos();
    }
    if (faulty && (inBand || disconnect)) {
      stepAfter(Step.FAULT, pause);
    } else if (last) {
      stepAfter(Step.END, pause);
    } else {
      dueNanos += pause + jitter.apply((long) (to - from) * config.itl().toNanos());
      schedule();
    }
  }

  /** Runs {@code next} now when there is no pause, otherwise after it. */
  private void stepAfter(Step next, long pause) {
    step = next;
    if (pause == 0) {
      runStep();
    } else {
      dueNanos += pause;
      schedule();
    }
  }

  private void endWithFault() {
    if (inBand) {
      state.countFault(Fault.IN_BAND_ERROR);
      write(events != null ? events.errorEvent() : ResponseText.inBandErrorEvent());
    }
    if (disconnect) {
      state.countFault(Fault.DISCONNECT);
      finish();
      ctx.flush();
      ctx.close();
      return;
    }
    if (events == null) {
      write(ResponseText.DONE);
    }
    complete(ctx.write(LastHttpContent.EMPTY_LAST_CONTENT));
  }

  private void endStream() {
    state.decoded(request.maxTokens(), config);
    if (events != null) {
      // no [DONE]: the completed event, with the usage, ends a Responses stream
      write(events.closing(answerText(), request.promptTokens(), request.maxTokens()));
      complete(ctx.write(LastHttpContent.EMPTY_LAST_CONTENT));
      return;
    }
    if (config.usageInFinishChunk()) {
      long now = System.nanoTime();
      write(text.finishEvent(request.promptTokens(), request.maxTokens(),
          (firstChunkNanos - admittedNanos) / 1e6, (now - firstChunkNanos) / 1e6));
      if (logEntry != null) {
        logEntry.wrote(now); // a chunk with a choice: clients count it as they count content
      }
    } else if (request.includeUsage()) {
      write(text.usageEvent(request.promptTokens(), request.maxTokens(),
          request.chat() ? Math.min(config.reasoningTokens(), request.maxTokens()) : 0));
    }
    write(ResponseText.DONE);
    complete(ctx.write(LastHttpContent.EMPTY_LAST_CONTENT));
  }

  private void respond() {
    if (stall) {
      state.countFault(Fault.STALL);
    }
    if (disconnect) {
      state.countFault(Fault.DISCONNECT);
      finish();
      ctx.close();
      return;
    }
    if (inBand) {
      // A non-streaming response cannot carry an event: it fails as a whole, like vLLM does.
      state.countFault(Fault.IN_BAND_ERROR);
      respond(HttpResponseStatus.INTERNAL_SERVER_ERROR, ResponseText.error(
          "Simulated in-band error (fault injection)", "InternalServerError", 500));
    } else if (events != null) {
      state.decoded(request.maxTokens(), config);
      respond(HttpResponseStatus.OK, events.whole(reasoningText(), answerText(),
          request.promptTokens(), request.maxTokens()));
    } else if (shaped != null && request.shape().toolCall()) {
      state.decoded(request.maxTokens(), config);
      respond(HttpResponseStatus.OK, text.toolCallCompletion(number, request.shape().toolName(),
          shaped, request.promptTokens(), request.maxTokens()));
    } else if (shaped != null) {
      state.decoded(request.maxTokens(), config);
      String quoted = ResponseText.quote(shaped);
      respond(HttpResponseStatus.OK, text.completion(quoted.substring(1, quoted.length() - 1),
          request.promptTokens(), request.maxTokens()));
    } else {
      state.decoded(request.maxTokens(), config);
      respond(HttpResponseStatus.OK, text.completion(
          SimTokens.text(request.maxTokens()), request.promptTokens(), request.maxTokens()));
    }
  }

  /** The reasoning's text, before the answer's; empty without reasoning tokens. */
  private String reasoningText() {
    return SimTokens.range(0, Math.min(config.reasoningTokens(), request.maxTokens()));
  }

  /** The answer's text, after the reasoning tokens. */
  private String answerText() {
    return SimTokens.range(Math.min(config.reasoningTokens(), request.maxTokens()),
        request.maxTokens());
  }

  /** A JSON answer in one piece: with a content length, or as one chunk when asked to. */
  private void respond(HttpResponseStatus status, String body) {
    ByteBuf buf = ByteBufUtil.writeUtf8(ctx.alloc(), body);
    if (connection.chunkedAnswers()) {
      HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, status);
      head.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
      HttpUtil.setTransferEncodingChunked(head, true);
      decorate(head);
      ctx.write(head);
      ctx.write(new DefaultHttpContent(buf));
      complete(ctx.write(LastHttpContent.EMPTY_LAST_CONTENT));
      return;
    }
    FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, buf);
    response.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
    HttpUtil.setContentLength(response, buf.readableBytes());
    decorate(response);
    complete(ctx.write(response));
  }

  private void decorate(HttpResponse response) {
    if (requestId != null) {
      response.headers().set("x-request-id", requestId);
    }
    connection.decorate(response);
  }

  private void write(String event) {
    ctx.write(new DefaultHttpContent(ByteBufUtil.writeUtf8(ctx.alloc(), event)))
        .addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
  }

  /** The whole response is written: free the slot, then let the connection go on. */
  private void complete(ChannelFuture lastWrite) {
    if (!inBand) {
      state.countFinished(ServerState.Finished.LENGTH);
    }
    finish();
    ctx.flush();
    lastWrite.addListener(connection.close()
        ? ChannelFutureListener.CLOSE : ChannelFutureListener.CLOSE_ON_FAILURE);
    onComplete.run();
  }

  private void finish() {
    finished = true;
    if (timer != null) {
      timer.cancel(false);
    }
    Generation next = state.finish(this);
    if (next != null) {
      next.startFromQueue();
    }
  }
}
