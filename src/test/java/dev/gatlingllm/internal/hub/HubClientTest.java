package dev.gatlingllm.internal.hub;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.gatlingllm.internal.hub.FakeHub.Response;
import dev.gatlingllm.tokenizer.Tokenizer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

class HubClientTest {

  static final String TOKEN = "hf_secretTokenValue123";
  static final Path BOS_JSON = Path.of("src/test/resources/tokenizer/bos/tokenizer.json");

  @TempDir Path home;
  FakeHub hub;
  ListAppender<ILoggingEvent> logs;

  @BeforeEach
  void start() throws Exception {
    hub = new FakeHub();
    logs = new ListAppender<>();
    logs.start();
    Logger logger = (Logger) LoggerFactory.getLogger(HubClient.class);
    logger.setLevel(Level.DEBUG);
    logger.addAppender(logs);
  }

  @AfterEach
  void stop() {
    ((Logger) LoggerFactory.getLogger(HubClient.class)).detachAppender(logs);
    hub.close();
  }

  HubClient client(String token) {
    return HubClient.builder().endpoint(hub.url()).token(token).home(home).build();
  }

  @Test
  void downloadsATokenizerOnceThenUsesTheCache() throws Exception {
    byte[] json = Files.readAllBytes(BOS_JSON);
    hub.route("/acme/tiny-llm/resolve/main/tokenizer.json", Response.redirect("/cdn/blob-1"))
        .route("/cdn/blob-1", Response.ok(json));
    HubClient client = client(TOKEN);

    Path first = client.modelFile("acme/tiny-llm", "main", "tokenizer.json");
    assertEquals(home.resolve("gatling-llm/models/acme--tiny-llm/main/tokenizer.json"), first);
    assertEquals(2, hub.requests().size());
    assertEquals("Bearer " + TOKEN, hub.requests().get(0).authorization());

    try (Tokenizer tokenizer =
        Tokenizer.load(client.modelFile("acme/tiny-llm", "main", "tokenizer.json"))) {
      assertEquals(3, tokenizer.countWithSpecialTokens("hello world"));
    }
    assertEquals(2, hub.requests().size(), "second use must come from the cache");
    assertEquals(List.of(), Files.list(first.getParent())
        .filter(p -> p.getFileName().toString().contains(".part-")).toList());
  }

  @Test
  void theTokenIsNotSentToOtherHostsAndNeverLogged() {
    hub.route("/acme/tiny-llm/resolve/main/tokenizer.json",
            Response.redirect(hub.otherHostUrl() + "/cdn/blob-2"))
        .route("/cdn/blob-2", Response.ok("{}".getBytes()));
    client(TOKEN).modelFile("acme/tiny-llm", "main", "tokenizer.json");

    assertEquals("Bearer " + TOKEN, hub.requests().get(0).authorization());
    assertNull(hub.requests().get(1).authorization(), "CDN host must not get the token");
    assertFalse(logs.list.isEmpty(), "downloads are logged");
    logs.list.forEach(e -> assertFalse(e.getFormattedMessage().contains(TOKEN),
        e.getFormattedMessage()));
    assertFalse(client(TOKEN).toString().contains(TOKEN));
  }

  @Test
  void revisionsWithSlashesAreEncodedLikeTheHubDoes() {
    hub.route("/acme/tiny-llm/resolve/refs%2Fpr%2F3/tokenizer.json",
        Response.ok("{}".getBytes()));
    Path file = client(null).modelFile("acme/tiny-llm", "refs/pr/3", "tokenizer.json");
    assertTrue(Files.isRegularFile(file));
    assertNull(hub.requests().get(0).authorization());
  }

  @Test
  void refusedOrMissingFilesExplainWhatToDoWithoutRevealingTheToken() {
    hub.route("/acme/gated/resolve/main/tokenizer.json",
        Response.status(401, "Access to model acme/gated is restricted."));

    HubException withToken = assertThrows(HubException.class,
        () -> client(TOKEN).modelFile("acme/gated", "main", "tokenizer.json"));
    assertTrue(withToken.getMessage().contains("HTTP 401"), withToken.getMessage());
    assertTrue(withToken.getMessage().contains("was refused"), withToken.getMessage());
    assertTrue(withToken.getMessage().contains("is restricted"), withToken.getMessage());
    assertFalse(withToken.getMessage().contains(TOKEN));

    HubException withoutToken = assertThrows(HubException.class,
        () -> client(null).modelFile("acme/gated", "main", "tokenizer.json"));
    assertTrue(withoutToken.getMessage().contains("set HF_TOKEN"), withoutToken.getMessage());

    HubException missing = assertThrows(HubException.class,
        () -> client(null).modelFile("acme/none", "main", "tokenizer.json"));
    assertTrue(missing.getMessage().contains("HTTP 404"), missing.getMessage());
    assertTrue(missing.getMessage().contains(hub.url() + "/acme/none/resolve/main/tokenizer.json"),
        missing.getMessage());
    assertFalse(Files.exists(home.resolve("gatling-llm/models/acme--none/main/tokenizer.json")));
  }

  @Test
  void offlineModeUsesOnlyTheCache() {
    HubClient offline = HubClient.builder().endpoint(hub.url()).home(home).offline(true).build();
    HubException e = assertThrows(HubException.class,
        () -> offline.modelFile("acme/tiny-llm", "main", "tokenizer.json"));
    assertTrue(e.getMessage().contains("HF_HUB_OFFLINE"), e.getMessage());
    assertEquals(0, hub.requests().size());
  }

  @Test
  void filesAlreadyInThePythonHubCacheAreUsedWithoutNetwork() throws Exception {
    String commit = "0123456789abcdef0123456789abcdef01234567";
    Path repo = home.resolve("hub/models--acme--cached");
    Files.createDirectories(repo.resolve("refs"));
    Files.writeString(repo.resolve("refs/main"), commit);
    Path snapshot = Files.createDirectories(repo.resolve("snapshots").resolve(commit));
    Files.copy(BOS_JSON, snapshot.resolve("tokenizer.json"));

    Path file = client(null).modelFile("acme/cached", "main", "tokenizer.json");
    assertEquals(snapshot.resolve("tokenizer.json"), file);
    assertEquals(file, client(null).modelFile("acme/cached", commit, "tokenizer.json"));
    assertEquals(0, hub.requests().size());
  }

  @Test
  void environmentVariablesConfigureTheClient() throws Exception {
    hub.route("/acme/tiny-llm/resolve/main/tokenizer.json", Response.ok("{}".getBytes()));
    HubClient fromEnv = HubClient.fromEnvironment(Map.of(
        "HF_ENDPOINT", hub.url() + "/",
        "HF_HOME", home.toString(),
        "HF_TOKEN", TOKEN));
    assertEquals(hub.url(), fromEnv.endpoint().toString());
    assertTrue(fromEnv.hasToken());
    assertEquals(home.resolve("gatling-llm"), fromEnv.cacheRoot());
    fromEnv.modelFile("acme/tiny-llm", "main", "tokenizer.json");
    assertEquals("Bearer " + TOKEN, hub.requests().get(0).authorization());

    Files.writeString(home.resolve("token"), "hf_fromLoginFile\n");
    HubClient loginFile = HubClient.fromEnvironment(Map.of("HF_HOME", home.toString()));
    assertTrue(loginFile.hasToken(), "huggingface-cli login writes $HF_HOME/token");

    HubClient offline = HubClient.fromEnvironment(Map.of(
        "HF_HOME", home.resolve("elsewhere").toString(), "HF_HUB_OFFLINE", "1"));
    assertThrows(HubException.class, () -> offline.modelFile("a/b", "main", "tokenizer.json"));

    assertEquals(HubClient.DEFAULT_ENDPOINT,
        HubClient.fromEnvironment(Map.of()).endpoint().toString());
  }

  @Test
  void aTokenFileThatCannotBeReadFailsNamingTheFileInsteadOfGoingUnauthenticated()
      throws Exception {
    // Bytes that are not UTF-8: the file exists but holds no readable token.
    Path garbled = Files.write(home.resolve("token"), new byte[] {(byte) 0xff, (byte) 0xfe});
    HubException e = assertThrows(HubException.class,
        () -> HubClient.fromEnvironment(Map.of("HF_HOME", home.toString())));
    assertTrue(e.getMessage().startsWith("Cannot read the Hugging Face token file " + garbled),
        e.getMessage());

    Path folder = Files.createDirectories(home.resolve("token-folder"));
    HubException notAFile = assertThrows(HubException.class,
        () -> HubClient.fromEnvironment(Map.of("HF_TOKEN_PATH", folder.toString())));
    assertTrue(notAFile.getMessage().contains(folder.toString()), notAFile.getMessage());

    // No file at all simply means no token, as with huggingface_hub.
    assertFalse(HubClient.fromEnvironment(Map.of("HF_TOKEN_PATH",
        home.resolve("absent").toString())).hasToken());
  }

  @Test
  void datasetParquetFilesAreListedDownloadedAndCached() throws Exception {
    hub.route("/api/datasets/acme/chats/parquet/default/train", Response.ok(("[\""
            + hub.url() + "/files/a.parquet\", \"/files/b.parquet\"]").getBytes()))
        .route("/files/a.parquet", Response.redirect("/cdn/a"))
        .route("/cdn/a", Response.ok("AAAA".getBytes()))
        .route("/files/b.parquet", Response.ok("BBBB".getBytes()));
    HubClient client = client(TOKEN);

    List<Path> files = client.datasetParquetFiles("acme/chats", "default", "train");
    assertEquals(2, files.size());
    assertEquals("AAAA", Files.readString(files.get(0)));
    assertEquals("BBBB", Files.readString(files.get(1)));
    assertEquals(home.resolve("gatling-llm/datasets/acme--chats/default/train/0000.parquet"),
        files.get(0));
    int requests = hub.requests().size();
    assertEquals(files, client.datasetParquetFiles("acme/chats", "default", "train"));
    assertEquals(requests, hub.requests().size());
  }

  @Test
  void unknownDatasetSplitsAndEmptyListingsAreExplained() {
    hub.route("/api/datasets/acme/chats/parquet/default/train", Response.ok("[]".getBytes()));
    HubException empty = assertThrows(HubException.class,
        () -> client(null).datasetParquetFiles("acme/chats", "default", "train"));
    assertTrue(empty.getMessage().contains("lists no Parquet files"), empty.getMessage());

    HubException missing = assertThrows(HubException.class,
        () -> client(null).datasetParquetFiles("acme/chats", "default", "nosuch"));
    assertTrue(missing.getMessage().contains("--hf-split"), missing.getMessage());
  }

  @Test
  void malformedNamesAreRejectedBeforeAnyRequest() {
    HubClient client = client(null);
    assertThrows(IllegalArgumentException.class,
        () -> client.modelFile("../etc", "main", "tokenizer.json"));
    assertThrows(IllegalArgumentException.class,
        () -> client.modelFile("a/b/c", "main", "tokenizer.json"));
    assertThrows(IllegalArgumentException.class,
        () -> client.modelFile("acme/x", "main", "../secret"));
    assertThrows(IllegalArgumentException.class,
        () -> client.datasetParquetFiles("acme/x", "default", "../train"));
    assertThrows(IllegalArgumentException.class,
        () -> HubClient.builder().endpoint("ftp://example"));
    assertEquals(0, hub.requests().size());
  }
}
