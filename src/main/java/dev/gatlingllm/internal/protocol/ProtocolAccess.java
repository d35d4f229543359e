package dev.gatlingllm.internal.protocol;

import dev.gatlingllm.protocol.LlmProtocolBuilder;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The plugin's door into {@link LlmProtocolBuilder}: what a simulation the plugin builds adds to
 * its run (the drop-in's probe requests) takes the run's {@link RunParts}, an internal type, so
 * the builder keeps {@code onStart} package-private. The JDK's "shared secrets": the builder's
 * static initializer installs the {@link Hooks}.
 */
public final class ProtocolAccess {

  /** What {@code dev.gatlingllm.protocol} lends, implemented there. */
  public interface Hooks {

    /** The builder with {@code starter} handed the run's parts before the warm-up. */
    LlmProtocolBuilder onStart(LlmProtocolBuilder builder, Consumer<RunParts> starter);
  }

  private static volatile Hooks lent;

  private ProtocolAccess() {}

  /**
   * Called once, by {@code LlmProtocolBuilder}.
   *
   * @throws IllegalStateException on a second call
   */
  public static void install(Hooks hooks) {
    if (lent != null) {
      throw new IllegalStateException("the protocol builder's hooks are installed already");
    }
    lent = Objects.requireNonNull(hooks, "hooks");
  }

  /**
   * The builder with {@code starter} handed the run's parts as soon as they exist, before the
   * warm-up and the first send; an argument of the protocol, so it reaches this run only.
   */
  public static LlmProtocolBuilder onStart(LlmProtocolBuilder builder,
      Consumer<RunParts> starter) {
    // a builder is made by LlmProtocolBuilder's constructor, whose class installed the hooks
    return lent.onStart(builder, starter);
  }
}
