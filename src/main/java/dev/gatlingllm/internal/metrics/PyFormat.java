package dev.gatlingllm.internal.metrics;

import com.fasterxml.jackson.core.io.NumberOutput;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Number formatting exactly as Python prints it, so that file names, JSON keys such as
 * {@code p99.9_ttft_ms}, result files and the console summary read like vLLM's.
 */
public final class PyFormat {

  private PyFormat() {}

  /**
   * Python's {@code repr(float)}: the shortest digits that read back to the same double,
   * positional between 1e-4 and 1e16 ({@code 10.0}, {@code 0.0001}), scientific outside
   * ({@code 1e-05}, {@code 1e+16}); {@code inf}, {@code -inf}, {@code nan}.
   */
  public static String repr(double value) {
    if (Double.isNaN(value)) {
      return "nan";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "inf" : "-inf";
    }
    if (value == 0) {
      return (1 / value < 0) ? "-0.0" : "0.0";
    }
    // Java 17's Double.toString is not always the shortest round-trip form; Jackson's
    // Schubfach writer is, and Python's repr is defined as that shortest form.
    String java = NumberOutput.toString(Math.abs(value), true);
    int e = java.indexOf('E');
    String mantissa = e < 0 ? java : java.substring(0, e);
    int exponent = e < 0 ? 0 : Integer.parseInt(java.substring(e + 1));
    int dot = mantissa.indexOf('.');
    String digits = mantissa.substring(0, dot) + mantissa.substring(dot + 1);
    int pointPos = dot + exponent; // value = 0.digits... shifted: digits with the point after pointPos
    int lead = 0;
    while (lead < digits.length() - 1 && digits.charAt(lead) == '0') {
      lead++;
    }
    digits = digits.substring(lead);
    pointPos -= lead;
    int end = digits.length();
    while (end > 1 && digits.charAt(end - 1) == '0') {
      end--;
    }
    digits = digits.substring(0, end);
    if (digits.length() == 2) {
      // Java's format asks for two digits even when one would round-trip (tiny subnormals
      // such as 4.9E-324); Python's repr uses that single digit (5e-324).
      String one = oneDigit(Math.abs(value), digits, pointPos);
      if (one != null) {
        pointPos += one.length() - 1;
        digits = one.substring(0, 1);
      }
    }
    int sciExponent = pointPos - 1;
    StringBuilder out = new StringBuilder(24);
    if (value < 0) {
      out.append('-');
    }
    if (sciExponent < -4 || sciExponent >= 16) {
      out.append(digits.charAt(0));
      if (digits.length() > 1) {
        out.append('.').append(digits, 1, digits.length());
      }
      out.append('e').append(sciExponent < 0 ? '-' : '+');
      int abs = Math.abs(sciExponent);
      if (abs < 10) {
        out.append('0');
      }
      out.append(abs);
    } else if (pointPos <= 0) {
      out.append("0.");
      out.append("0".repeat(-pointPos)).append(digits);
    } else if (pointPos >= digits.length()) {
      out.append(digits).append("0".repeat(pointPos - digits.length())).append(".0");
    } else {
      out.append(digits, 0, pointPos).append('.').append(digits, pointPos, digits.length());
    }
    return out.toString();
  }

  /**
   * The one-digit mantissa (or "10" when rounding carries) closest to the two digits that
   * still reads back as {@code abs}; null when none does.
   */
  private static String oneDigit(double abs, String twoDigits, int pointPos) {
    int d = twoDigits.charAt(0) - '0';
    int next = twoDigits.charAt(1) - '0';
    int[] order = next >= 5 ? new int[] {d + 1, d} : new int[] {d, d + 1};
    for (int candidate : order) {
      if (candidate == 0) {
        continue;
      }
      String text = candidate + "E" + (pointPos - 1);
      if (Double.parseDouble(text) == abs) {
        return Integer.toString(candidate);
      }
    }
    return null;
  }

  /**
   * Python's {@code "{:.Nf}".format(value)}: the exact binary value rounded half-even, which
   * is what Python does (and {@link String#format} does not: it rounds 0.125 up).
   */
  public static String fixed(double value, int decimals) {
    if (Double.isNaN(value)) {
      return "nan";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "inf" : "-inf";
    }
    String text = new BigDecimal(value).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
    boolean negative = value < 0 || (value == 0 && 1 / value < 0);
    return negative && !text.startsWith("-") ? "-" + text : text;
  }

  /** Python's {@code "{:<N}"}: left-aligned, padded with spaces, never truncated. */
  public static String left(String text, int width) {
    return text.length() >= width ? text : text + " ".repeat(width - text.length());
  }

  /** Python's {@code "{s:{c}^{n}}"}: centred, the odd padding character on the right. */
  public static String center(String text, int width, char fill) {
    int pad = width - text.length();
    if (pad <= 0) {
      return text;
    }
    int left = pad / 2;
    return String.valueOf(fill).repeat(left) + text + String.valueOf(fill).repeat(pad - left);
  }

  /**
   * How vLLM names a percentile in keys and labels: {@code 99} for whole numbers,
   * otherwise the float's repr ({@code 99.9}).
   */
  public static String percentileWord(double percentile) {
    if (percentile == Math.rint(percentile) && Math.abs(percentile) < 1e15) {
      return Long.toString((long) percentile);
    }
    return repr(percentile);
  }
}
