package dev.gatlingllm.internal.action;

import java.util.regex.Pattern;

/**
 * Gatling makes one row of its errors table per distinct KO message, so messages are
 * normalised: digit runs become {@code #} (server text embeds token counts, ids, offsets),
 * except in the HTTP status and in our timeout messages, and the text is clipped. The full
 * message stays in the record.
 */
public final class KoMessages {

  private static final Pattern DIGITS = Pattern.compile("\\d+");
  private static final int MAX_LENGTH = 120;

  private KoMessages() {}

  public static String lowCardinality(String error) {
    if (error == null) {
      return "failed";
    }
    String head = error.length() <= MAX_LENGTH ? error : error.substring(0, MAX_LENGTH) + "…";
    if (head.contains(" timeout (")) {
      return head; // our own message: its figures are the configured timeout
    }
    int status = head.startsWith("HTTP ") ? head.indexOf(": ") : -1;
    int from = status < 0 ? 0 : status + 2;
    return head.substring(0, from) + DIGITS.matcher(head.substring(from)).replaceAll("#");
  }
}
