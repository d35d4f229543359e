package dev.gatlingllm.internal.protocol;

import java.util.ServiceLoader;

/**
 * What the protocol asks of a {@code --backend} name. The answers are capabilities in the
 * backends' table ({@code action.Backends}), which sits above the protocol (actions use the
 * protocol); so the protocol owns this interface and the table implements it, found through
 * {@link ServiceLoader} as {@link StandInServer} is. No name is compared here.
 */
public interface BackendFacts {

  /**
   * Where the server this backend name stands for publishes its Prometheus metrics, scraped
   * when the user gives no path; "" when the name says only which API is spoken, or is a label
   * the table does not know.
   */
  String serverMetricsPath(String backend);

  /**
   * The first implementation on the class path (the table's); without one, none of the names
   * is known, so nothing is scraped unless asked.
   */
  static BackendFacts load() {
    return ServiceLoader.load(BackendFacts.class, BackendFacts.class.getClassLoader())
        .findFirst().orElse(backend -> "");
  }
}
