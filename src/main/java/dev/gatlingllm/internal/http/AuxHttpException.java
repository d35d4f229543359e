package dev.gatlingllm.internal.http;

import java.io.IOException;

/**
 * An auxiliary HTTP call got no usable answer. The message names the method or URL (without
 * user info or query) and the status or cause; it never holds a header value.
 */
public final class AuxHttpException extends IOException {

  private static final long serialVersionUID = 1L;

  private final String url;
  private final int status;

  AuxHttpException(String message, String url, int status, Throwable cause) {
    super(message, cause);
    this.url = url;
    this.status = status;
  }

  /** The URL called, without user info, query or fragment. */
  public String url() {
    return url;
  }

  /**
   * Whether {@code failure} is a TLS handshake that refused the server's certificate (not in
   * the trust store: self-signed, or signed by a private authority), as the JDK and Netty's
   * OpenSSL engine report it: a certificate or certification-path exception somewhere among
   * the causes.
   */
  public static boolean untrustedCertificate(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof java.security.cert.CertificateException
          || t instanceof java.security.GeneralSecurityException
              && t.getClass().getName().startsWith("java.security.cert.CertPath")
          || t instanceof javax.net.ssl.SSLHandshakeException
              && String.valueOf(t.getMessage()).contains("PKIX")) {
        return true;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return false;
  }

  /** The HTTP status answered, or -1 when there was no answer. */
  public int status() {
    return status;
  }
}
