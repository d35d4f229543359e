package dev.gatlingllm.internal.action;

import com.typesafe.scalalogging.Logger$;
import com.typesafe.scalalogging.Logger;
import dev.gatlingllm.internal.protocol.LlmComponents;
import dev.gatlingllm.internal.protocol.LlmProtocol;
import dev.gatlingllm.internal.protocol.LlmProtocolKey;
import dev.gatlingllm.internal.protocol.RunParts;
import dev.gatlingllm.internal.report.RecordLog;
import io.gatling.commons.stats.OK$;
import io.gatling.commons.stats.Status;
import io.gatling.commons.util.DefaultClock;
import io.gatling.core.CoreComponents;
import io.gatling.core.action.Action;
import io.gatling.core.config.GatlingConfiguration$;
import io.gatling.core.config.GatlingConfiguration;
import io.gatling.core.pause.Disabled$;
import io.gatling.core.protocol.Protocol;
import io.gatling.core.protocol.ProtocolComponentsRegistry;
import io.gatling.core.session.Session;
import io.gatling.core.structure.ScenarioContext;
import io.gatling.netty.util.Transports;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.LoggerFactory;
import scala.Option;
import scala.collection.immutable.Map$;
import scala.collection.immutable.Nil$;
import scala.collection.immutable.Seq;
import scala.runtime.BoxedUnit;

/**
 * Our actions inside a minimal Gatling context, without running a simulation: real protocol
 * components (client, limiter, pacer, record store) on a one-thread event loop of the kind
 * Gatling would create, a stats
 * engine that remembers every row it is given, and a next action that hands over the
 * sessions it receives. Enough to see what an action logs and how it passes the user on.
 */
public final class ActionHarness implements AutoCloseable {

  /** One row given to the stats engine: a response (OK / KO) or a crash. */
  record Row(String name, long startMillis, long endMillis, String status, String code,
      String message, boolean crash) {}

  final EventLoopGroup group;
  final EventLoop loop;
  public final List<Row> rows = new CopyOnWriteArrayList<>();
  final BlockingQueue<Session> passedOn = new LinkedBlockingQueue<>();
  public final ScenarioContext ctx;
  public final LlmComponents components;
  /** The run's parts, as the actions take them. */
  public final RunParts run;
  public final Action next = new Action() {
    private Logger logger = Logger$.MODULE$.apply(LoggerFactory.getLogger("next"));

    @Override
    public String name() {
      return "next";
    }

    @Override
    public void execute(Session session) {
      passedOn.add(session);
    }

    @Override
    public Logger logger() {
      return logger;
    }

    @Override
    public void com$typesafe$scalalogging$StrictLogging$_setter_$logger_$eq(Logger l) {
      this.logger = l;
    }
  };

  @SuppressWarnings({"unchecked", "rawtypes"})
  public ActionHarness(LlmProtocol protocol) {
    GatlingConfiguration configuration =
        GatlingConfiguration$.MODULE$.loadForTest((Seq) Nil$.MODULE$);
    // The loop kind Gatling would make: the client opens channels of the matching kind.
    group = Transports.newEventLoopGroup(configuration.netty().useNativeTransport(),
        configuration.netty().useIoUring(), 1, "action-test");
    loop = group.next();
    CoreComponents core = new CoreComponents(null, group, null, Option.empty(), new Stats(),
        new DefaultClock(), null, configuration);
    scala.collection.immutable.Map<Class<? extends Protocol>, Protocol> protocols =
        (scala.collection.immutable.Map) Map$.MODULE$.empty().updated(LlmProtocol.class, protocol);
    ProtocolComponentsRegistry registry = new ProtocolComponentsRegistry(core, protocols,
        new scala.collection.mutable.HashMap<>(), new scala.collection.mutable.HashMap<>());
    ctx = new ScenarioContext(core, registry, Disabled$.MODULE$, false);
    components = registry.components(LlmProtocolKey.INSTANCE);
    run = components.parts();
  }

  /** A fresh user of scenario "scn" on the harness loop, with the given attributes. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public Session session(Object... keyValues) {
    scala.collection.immutable.Map attributes = Map$.MODULE$.empty();
    for (int i = 0; i < keyValues.length; i += 2) {
      attributes = (scala.collection.immutable.Map) attributes.updated(keyValues[i],
          keyValues[i + 1]);
    }
    return new Session("scn", 1L, attributes, OK$.MODULE$, (scala.collection.immutable.List) Nil$.MODULE$,
        s -> BoxedUnit.UNIT, loop);
  }

  /** Runs the action for the session on the loop, as Gatling would. */
  public void execute(Action action, Session session) {
    loop.execute(() -> action.execute(session));
  }

  /** The next session passed on; fails after 10 s. */
  public Session awaitPassedOn() throws InterruptedException {
    Session s = passedOn.poll(10, TimeUnit.SECONDS);
    if (s == null) {
      throw new AssertionError("the user was never passed on");
    }
    return s;
  }

  List<Row> rows(String name) {
    return rows.stream().filter(r -> r.name().equals(name)).toList();
  }

  @Override
  public void close() {
    run.setup().client().close();
    components.recordLog().ifPresent(RecordLog::close);
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  /** Keeps the responses and crashes an action logs; the rest goes nowhere. */
  private final class Stats extends Rehearsal.NoStats {
    @Override
    public void logResponse(String scenario, scala.collection.immutable.List<String> groups,
        String requestName, long startMillis, long endMillis, Status status, Option<String> code,
        Option<String> message) {
      rows.add(new Row(requestName, startMillis, endMillis, status.name(),
          code.isDefined() ? code.get() : null, message.isDefined() ? message.get() : null,
          false));
    }

    @Override
    public void logRequestCrash(String scenario, scala.collection.immutable.List<String> groups,
        String requestName, String error) {
      rows.add(new Row(requestName, 0, 0, "KO", null, error, true));
    }
  }
}
