package dev.gatlingllm.internal.dataset;

import dev.gatlingllm.dataset.DatasetContent;
import dev.gatlingllm.dataset.DatasetSpec;
import dev.gatlingllm.dataset.Datasets;
import dev.gatlingllm.internal.flags.FlagValues;
import java.util.Objects;
import java.util.Optional;

/**
 * The drop-in's door into {@link Datasets}: a dataset, and the content it declares, from flag
 * values the drop-in converted already ({@link FlagValues}, an internal type users never
 * hold, so {@code Datasets} keeps those overloads package-private; users pass words or a
 * map). The JDK's "shared secrets": {@code Datasets}' static initializer installs the
 * {@link Hooks}.
 */
public final class DatasetAccess {

  /** What {@code dev.gatlingllm.dataset} lends, implemented there. */
  public interface Hooks {

    /** The dataset the flags name, as {@code Datasets.fromFlags(Map)} builds it. */
    DatasetSpec fromFlags(FlagValues flags);

    /** What the dataset's requests will carry, when the flags alone tell. */
    Optional<DatasetContent> declaredContent(FlagValues flags);
  }

  private static volatile Hooks lent;

  private DatasetAccess() {}

  /**
   * Called once, by {@code Datasets}.
   *
   * @throws IllegalStateException on a second call
   */
  public static void install(Hooks hooks) {
    if (lent != null) {
      throw new IllegalStateException("the datasets' hooks are installed already");
    }
    lent = Objects.requireNonNull(hooks, "hooks");
  }

  private static Hooks lent() {
    if (lent == null) {
      // nothing may have touched Datasets yet: loading it installs the hooks
      try {
        Class.forName(Datasets.class.getName(), true, Datasets.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException(e);
      }
    }
    return lent;
  }

  /**
   * The dataset the flag values name.
   *
   * @throws IllegalArgumentException for a flag of another dataset, or flags that conflict
   */
  public static DatasetSpec fromFlags(FlagValues flags) {
    return lent().fromFlags(flags);
  }

  /** What the requests of the dataset the flags name will carry, when the flags alone tell. */
  public static Optional<DatasetContent> declaredContent(FlagValues flags) {
    return lent().declaredContent(flags);
  }
}
