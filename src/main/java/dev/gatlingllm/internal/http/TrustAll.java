package dev.gatlingllm.internal.http;

import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The trust of {@code insecureTls}: every certificate, for every host name. An extended trust
 * manager, so that the JDK leaves the host name check to it (a plain one would have the JDK
 * check the name anyway).
 */
final class TrustAll extends X509ExtendedTrustManager {

  private static volatile SSLSocketFactory sockets;

  private TrustAll() {}

  /** A socket factory trusting everything; built on first use. */
  static SSLSocketFactory socketFactory() {
    SSLSocketFactory f = sockets;
    if (f == null) {
      try {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, new TrustManager[] {new TrustAll()}, null);
        f = context.getSocketFactory();
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("cannot set up TLS: " + e.getMessage(), e);
      }
      sockets = f;
    }
    return f;
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {}

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {}

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType) {}

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType) {}

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return new X509Certificate[0];
  }
}
