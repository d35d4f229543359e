package dev.gatlingllm.internal.servermetrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatlingllm.internal.client.CannedHttpServer;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.InputStream;
import java.net.URI;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Map;
import javax.net.ssl.KeyManagerFactory;
import org.junit.jupiter.api.Test;

/** The scraper follows the run's TLS trust: a self-signed server is scraped only when asked. */
class ServerMetricsTlsTest {

  private static final String EXPOSITION = "vllm:num_requests_running{model_name=\"m\"} 3\n";

  private static SslContext selfSigned() throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = ServerMetricsTlsTest.class.getResourceAsStream("/tls/self-signed.p12")) {
      store.load(in, "changeit".toCharArray());
    }
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(store, "changeit".toCharArray());
    return SslContextBuilder.forServer(keys).build();
  }

  private static ServerSeries scrapeOnce(CannedHttpServer server, boolean insecure)
      throws InterruptedException {
    ServerMetricsScraper scraper = ServerMetricsScraper.start(
        URI.create("https://127.0.0.1:" + server.port() + "/metrics"), Map.of(),
        Duration.ofMillis(300), insecure);
    Thread.sleep(700);
    return scraper.stop();
  }

  @Test
  void aSelfSignedServerIsScrapedOnlyWithInsecureTls() throws Exception {
    try (CannedHttpServer server = CannedHttpServer.streamingOverTls(EXPOSITION, selfSigned())) {
      ServerSeries refused = scrapeOnce(server, false);
      assertTrue(refused.status().startsWith("no answer: "), refused.status());
      assertEquals(0, refused.samples().size());

      ServerSeries trusted = scrapeOnce(server, true);
      assertEquals("ok", trusted.status());
      assertTrue(trusted.samples().size() >= 1, "samples: " + trusted.samples().size());
    }
  }
}
