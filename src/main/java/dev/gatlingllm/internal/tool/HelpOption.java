package dev.gatlingllm.internal.tool;

import picocli.CommandLine.Option;

/**
 * {@code -h}/{@code --help} for a command that has no version of its own to print (the
 * launcher's {@code --version} speaks for all of them): add it with {@code @Mixin}.
 */
public final class HelpOption {

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "prints this help")
  private boolean help;
}
