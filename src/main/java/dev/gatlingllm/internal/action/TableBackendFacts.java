package dev.gatlingllm.internal.action;

import dev.gatlingllm.action.Backends;
import dev.gatlingllm.internal.protocol.BackendFacts;
import java.util.Locale;

/**
 * The protocol's questions about a backend, answered from {@link Backends}' rows; registered
 * in {@code META-INF/services}. A label is looked up in lower case, as the protocol always
 * took {@code VLLM} for {@code vllm}.
 */
public final class TableBackendFacts implements BackendFacts {

  @Override
  public String serverMetricsPath(String backend) {
    return Backends.lookup(backend.toLowerCase(Locale.ROOT))
        .map(Backends.Backend::serverMetricsPath).orElse("");
  }
}
