package dev.gatlingllm.internal.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.sun.net.httpserver.HttpsServer;
import dev.gatlingllm.testing.SelfSignedHttps;
import dev.gatlingllm.tokenizer.Tokenizer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The drop-in's {@code /tokenize} probe against a server whose certificate is self-signed:
 * one plain sentence that names {@code --insecure}, not the JDK's {@code
 * javax.net.ssl.SSLHandshakeException: PKIX path building failed: sun.security...}.
 */
class UntrustedCertificateProbeTest {

  @Test
  void theProbeSaysTheCertificateIsNotTrustedAndNamesTheFlag() throws Exception {
    HttpsServer https = SelfSignedHttps.start("/", exchange -> {
      exchange.sendResponseHeaders(404, -1);
      exchange.close();
    });
    try {
      BenchPlan plan = BenchPlan.of(BenchArgs.parse(CommandLine.split("--model tls-model "
          + "--base-url https://127.0.0.1:" + https.getAddress().getPort()
          + " --dataset-name random --tokenizer gpt2 --num-prompts 2")));
      Tokenizer gpt2 = Tokenizer.gpt2();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      Tokenizer kept = PlanTokenizer.realigned(plan, gpt2,
          new PrintStream(out, true, StandardCharsets.UTF_8));
      assertSame(gpt2, kept);
      assertEquals("/tokenize not asked: the server's certificate is not trusted (self-signed?): "
          + "give --insecure to accept it. Random prompts keep the lengths of tokenizer "
          + gpt2.id() + ".", out.toString(StandardCharsets.UTF_8).strip());
    } finally {
      https.stop(0);
    }
  }
}
