package dev.gatlingllm.internal.sweep;

import dev.gatlingllm.sweep.SweepConfig;
import java.util.Objects;

/**
 * The sweep runner's door into {@link SweepConfig}: how a sweep's runs start. That is a
 * {@link RunLauncher}, an internal type, so {@code SweepConfig} keeps it package-private
 * (users sweep with forked runs; tests give their own launcher here). The JDK's "shared
 * secrets": {@code SweepConfig}'s static initializer installs the {@link Hooks}.
 */
public final class SweepAccess {

  /** What {@code dev.gatlingllm.sweep} lends, implemented there. */
  public interface Hooks {

    /** How the config's runs start: the launcher given, else a forked Gatling run each. */
    RunLauncher launcher(SweepConfig config);

    /** The builder with its runs started by {@code launcher} instead. */
    SweepConfig.Builder withLauncher(SweepConfig.Builder builder, RunLauncher launcher);
  }

  private static volatile Hooks lent;

  private SweepAccess() {}

  /**
   * Called once, by {@code SweepConfig}.
   *
   * @throws IllegalStateException on a second call
   */
  public static void install(Hooks hooks) {
    if (lent != null) {
      throw new IllegalStateException("the sweep config's hooks are installed already");
    }
    lent = Objects.requireNonNull(hooks, "hooks");
  }

  /** How the config's runs start. */
  public static RunLauncher launcher(SweepConfig config) {
    // a config or a builder is made by SweepConfig's own methods, which installed the hooks
    return lent.launcher(config);
  }

  /** The builder with its runs started by {@code launcher} (tests of the search logic). */
  public static SweepConfig.Builder withLauncher(SweepConfig.Builder builder,
      RunLauncher launcher) {
    return lent.withLauncher(builder, launcher);
  }
}
