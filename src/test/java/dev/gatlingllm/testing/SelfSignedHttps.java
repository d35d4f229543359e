package dev.gatlingllm.testing;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * An HTTPS server on loopback whose certificate no trust store holds (the test resource
 * {@code tls/self-signed.p12}), for tests of {@code --insecure}: reached with the certificate
 * check off, refused with it on.
 */
public final class SelfSignedHttps {

  private SelfSignedHttps() {}

  /** Started, answering {@code path} with {@code handler}; stop it with {@code stop(0)}. */
  public static HttpsServer start(String path, HttpHandler handler)
      throws IOException, GeneralSecurityException {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = SelfSignedHttps.class.getResourceAsStream("/tls/self-signed.p12")) {
      store.load(in, "changeit".toCharArray());
    }
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(store, "changeit".toCharArray());
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(keys.getKeyManagers(), null, null);
    HttpsServer https =
        HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    https.setHttpsConfigurator(new HttpsConfigurator(tls));
    https.createContext(path, handler);
    https.start();
    return https;
  }
}
