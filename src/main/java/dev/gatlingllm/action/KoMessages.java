package dev.gatlingllm.action;

import java.util.regex.Pattern;

/**
 * Gatling makes one row of its errors table per distinct KO message, so messages that carry
 * server text (which often embeds numbers: token counts, ids) are normalised: digit runs
 * become {@code #} and the text is clipped. The full message stays in the record.
 */
final class KoMessages {

  private static final Pattern DIGITS = Pattern.compile("\\d+");
  private static final int MAX_LENGTH = 120;

  private KoMessages() {}

  static String lowCardinality(String error) {
    if (error == null) {
      return "failed";
    }
    String normalised = error;
    int colon = error.indexOf(": ");
    if (error.startsWith("HTTP ") && colon > 0) {
      normalised = error.substring(0, colon + 2)
          + DIGITS.matcher(error.substring(colon + 2)).replaceAll("#");
    } else if (error.startsWith("error event: ")) {
      normalised = DIGITS.matcher(error).replaceAll("#");
    }
    return normalised.length() <= MAX_LENGTH ? normalised : normalised.substring(0, MAX_LENGTH) + "…";
  }
}
