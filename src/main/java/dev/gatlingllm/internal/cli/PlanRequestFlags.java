package dev.gatlingllm.internal.cli;

import dev.gatlingllm.action.RequestFlags;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.function.Supplier;

/**
 * The command line's part of every request, as a {@link BenchPlan} hands it to the backend's
 * request factory.
 *
 * @param args            the parsed flags
 * @param endpoint        the request path
 * @param extraBody       the body fields every request gets
 * @param ignoreEosForced whether vLLM turns {@code ignore_eos} on for this dataset and backend
 *                        whatever {@code --ignore-eos} says
 */
record PlanRequestFlags(BenchArgs args, String endpoint, Map<String, Object> extraBody,
    boolean ignoreEosForced) implements RequestFlags {

  @Override
  public boolean on(String flag) {
    return args.on(flag) || (flag.equals("ignore-eos") && ignoreEosForced);
  }

  @Override
  public OptionalDouble decimal(String flag) {
    return args.has(flag) ? OptionalDouble.of(args.decimal(flag).orElseThrow())
        : OptionalDouble.empty();
  }

  @Override
  public OptionalInt integer(String flag) {
    return args.has(flag) ? OptionalInt.of(args.integer(flag).orElseThrow())
        : OptionalInt.empty();
  }

  @Override
  public Optional<String> model() {
    return args.has("lora-modules") ? Optional.of("#{" + BenchPlan.LORA_ATTRIBUTE + "}")
        : Optional.empty();
  }

  @Override
  public <T> T flagged(String flag, Supplier<T> call) {
    return BenchChecks.flagged(flag, call);
  }
}
