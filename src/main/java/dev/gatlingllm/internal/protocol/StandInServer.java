package dev.gatlingllm.internal.protocol;

import java.time.Duration;
import java.util.ServiceLoader;

/**
 * A streaming server in this JVM that answers the stand-in warm-up ({@link StandInWarmUp}):
 * any model name, plain HTTP on loopback, short streams. The run path owns this interface and
 * the simulator implements it, found through {@link ServiceLoader}, so the plugin's run path
 * never names the simulator's classes (docs/architecture.md; {@code ArchitectureTest} holds
 * it).
 */
public interface StandInServer extends AutoCloseable {

  /** Where it listens: {@code http://127.0.0.1:<port>}. */
  String baseUrl();

  /** Stops it; never throws. */
  @Override
  void close();

  /** Starts stand-in servers; the simulator registers one in {@code META-INF/services}. */
  interface Factory {
    /**
     * Starts a server on a free loopback port whose streams open after {@code ttft} and send
     * a token every {@code itl}.
     */
    StandInServer start(Duration ttft, Duration itl);
  }

  /**
   * Starts one with the first factory on the class path.
   *
   * @throws IllegalStateException when none is (a class path without the simulator)
   */
  static StandInServer start(Duration ttft, Duration itl) {
    Factory factory = ServiceLoader.load(Factory.class, StandInServer.class.getClassLoader())
        .findFirst().orElseThrow(() -> new IllegalStateException("no stand-in server on the "
            + "class path (" + Factory.class.getName() + " in META-INF/services)"));
    return factory.start(ttft, itl);
  }
}
