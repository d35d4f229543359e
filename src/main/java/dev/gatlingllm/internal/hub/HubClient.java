package dev.gatlingllm.internal.hub;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatlingllm.internal.http.AuxHttp;
import dev.gatlingllm.internal.http.AuxHttpException;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Downloads files from the Hugging Face Hub (or any server speaking its protocol) and keeps
 * them in a local cache, the way {@code huggingface_hub} does, so that a tokenizer or a
 * dataset named by its id is fetched once and then read from disk.
 *
 * <p>Configuration, read from the environment by {@link #fromEnvironment()}:
 * <ul>
 *   <li>{@code HF_ENDPOINT}: hub address, default {@value #DEFAULT_ENDPOINT};</li>
 *   <li>{@code HF_TOKEN} (or {@code HUGGING_FACE_HUB_TOKEN}, or the file {@code $HF_HOME/token}
 *       that {@code huggingface-cli login} writes): sent as {@code Authorization: Bearer},
 *       only to the endpoint's own host, and never logged or put in a message;</li>
 *   <li>{@code HF_HOME}: cache root, default {@code $XDG_CACHE_HOME/huggingface} or
 *       {@code ~/.cache/huggingface}; {@code HF_HUB_CACHE}: the hub cache of the Python tools,
 *       default {@code $HF_HOME/hub};</li>
 *   <li>{@code HF_HUB_OFFLINE=1}: never touch the network, only use cached files.</li>
 * </ul>
 *
 * <p>Cache: a model file already in the Python hub cache
 * ({@code $HF_HUB_CACHE/models--org--name/snapshots/<commit>/<file>}) is used as it is.
 * Files this client downloads go to its own folder {@code $HF_HOME/gatling-llm/}:
 * {@code models/<org>--<name>/<revision>/<file>} and
 * {@code datasets/<org>--<name>/<subset>/<split>/NNNN.parquet}. A cached file is reused
 * without asking the hub again; delete the folder to refresh it.
 */
public final class HubClient {

  /** The public Hugging Face Hub. */
  public static final String DEFAULT_ENDPOINT = "https://huggingface.co";

  private static final Logger LOG = LoggerFactory.getLogger(HubClient.class);
  // The hub's own rules: alphanumerics, '-', '_', '.', at most one '/', no '..' or '--'.
  private static final Pattern REPO_ID =
      Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*(/[A-Za-z0-9][A-Za-z0-9._-]*)?");
  private static final Pattern COMMIT = Pattern.compile("[0-9a-f]{40}");
  private static final Pattern SAFE_NAME = Pattern.compile("[A-Za-z0-9._-]+");
  private static final ObjectMapper JSON = new ObjectMapper();
  /** The words {@code huggingface_hub} accepts as "on" in boolean variables. */
  private static final Set<String> TRUE_WORDS = Set.of("1", "on", "yes", "true");

  /** The settings, read as they are: a builder is immutable. */
  private final Builder settings;
  private final Path hubCache;

  private HubClient(Builder settings) {
    this.settings = settings;
    this.hubCache = settings.hubCache != null ? settings.hubCache
        : settings.home.resolve("hub");
  }

  /** A client configured from the process environment (see the class comment). */
  public static HubClient fromEnvironment() {
    return fromEnvironment(System.getenv());
  }

  /** A client configured from the given environment variables (see the class comment). */
  public static HubClient fromEnvironment(Map<String, String> env) {
    Builder b = builder();
    String endpoint = nonBlank(env.get("HF_ENDPOINT"));
    if (endpoint != null) {
      b = b.endpoint(endpoint);
    }
    Path home;
    if (nonBlank(env.get("HF_HOME")) != null) {
      home = Path.of(env.get("HF_HOME"));
    } else if (nonBlank(env.get("XDG_CACHE_HOME")) != null) {
      home = Path.of(env.get("XDG_CACHE_HOME"), "huggingface");
    } else {
      home = Path.of(System.getProperty("user.home"), ".cache", "huggingface");
    }
    b = b.home(home);
    String hubCache = Optional.ofNullable(nonBlank(env.get("HF_HUB_CACHE")))
        .orElse(nonBlank(env.get("HUGGINGFACE_HUB_CACHE")));
    if (hubCache != null) {
      b = b.hubCache(Path.of(hubCache));
    }
    String token = Optional.ofNullable(nonBlank(env.get("HF_TOKEN")))
        .orElse(nonBlank(env.get("HUGGING_FACE_HUB_TOKEN")));
    if (token == null) {
      Path tokenFile = nonBlank(env.get("HF_TOKEN_PATH")) != null
          ? Path.of(env.get("HF_TOKEN_PATH"))
          : home.resolve("token");
      token = readTokenFile(tokenFile);
    }
    if (token != null) {
      b = b.token(token);
    }
    String off = nonBlank(env.get("HF_HUB_OFFLINE"));
    if (off != null) {
      b = b.offline(TRUE_WORDS.contains(off.toLowerCase(Locale.ROOT)));
    }
    return b.build();
  }

  /** A builder with the defaults: public hub, no token, cache under ~/.cache/huggingface. */
  public static Builder builder() {
    return new Builder(URI.create(DEFAULT_ENDPOINT), null,
        Path.of(System.getProperty("user.home"), ".cache", "huggingface"), null, false,
        Duration.ofSeconds(30));
  }

  /** The hub address requests go to. */
  public URI endpoint() {
    return settings.endpoint;
  }

  /** Whether a token is configured (the token itself is never exposed). */
  public boolean hasToken() {
    return settings.token != null;
  }

  /** Folder holding the files this client downloaded: {@code $HF_HOME/gatling-llm}. */
  public Path cacheRoot() {
    return settings.home.resolve("gatling-llm");
  }

  /**
   * Local path of one file of a model repository, downloading it on first use from
   * {@code <endpoint>/<repoId>/resolve/<revision>/<filename>}.
   *
   * @throws IllegalArgumentException for a malformed repository id, revision or file name
   * @throws HubException when the file is not cached and cannot be downloaded
   */
  public Path modelFile(String repoId, String revision, String filename) {
    checkRepoId(repoId);
    checkRevision(revision);
    checkFilename(filename);
    Optional<Path> fromPythonCache = pythonCacheFile(repoId, revision, filename);
    if (fromPythonCache.isPresent()) {
      LOG.debug("Using {} from the hub cache", fromPythonCache.get());
      return fromPythonCache.get();
    }
    Path target = cacheRoot().resolve("models").resolve(repoId.replace("/", "--"))
        .resolve(encode(revision)).resolve(filename);
    if (Files.isRegularFile(target)) {
      return target;
    }
    String what = repoId + "@" + revision + " file " + filename;
    if (settings.offline) {
      throw new HubException("HF_HUB_OFFLINE is set and " + what + " is not cached (looked in "
          + hubCache + " and " + target.getParent() + ")");
    }
    URI uri = URI.create(settings.endpoint + "/" + repoId + "/resolve/" + encode(revision) + "/"
        + filename);
    LOG.info("Downloading {} from {}", what, AuxHttp.redact(uri));
    download(uri, target, what);
    return target;
  }

  /**
   * Local path of one file at the root of a dataset repository (BFCL keeps one JSON Lines file
   * per category there, not a Parquet conversion), downloading it on first use from
   * {@code <endpoint>/datasets/<datasetId>/resolve/main/<filename>}.
   *
   * @throws IllegalArgumentException for a malformed dataset id or file name
   * @throws HubException when the file is not cached and cannot be downloaded
   */
  public Path datasetFile(String datasetId, String filename) {
    checkRepoId(datasetId);
    checkFilename(filename);
    Path target = cacheRoot().resolve("datasets").resolve(datasetId.replace("/", "--"))
        .resolve("files").resolve(filename);
    if (Files.isRegularFile(target)) {
      return target;
    }
    String what = "dataset " + datasetId + " file " + filename;
    if (settings.offline) {
      throw new HubException("HF_HUB_OFFLINE is set and " + what + " is not cached (looked in "
          + target.getParent() + ")");
    }
    URI uri = URI.create(settings.endpoint + "/datasets/" + datasetId + "/resolve/main/"
        + filename);
    LOG.info("Downloading {} from {}", what, AuxHttp.redact(uri));
    download(uri, target, what);
    return target;
  }

  /**
   * Local paths of the Parquet files of one subset and split of a hub dataset, as the hub's
   * Parquet conversion lists them ({@code <endpoint>/api/datasets/<id>/parquet/<subset>/<split>}),
   * downloading them on first use.
   *
   * @param subset the dataset configuration, {@code "default"} when the dataset has one
   * @throws HubException when the files are not cached and cannot be listed or downloaded
   */
  public List<Path> datasetParquetFiles(String datasetId, String subset, String split) {
    checkRepoId(datasetId);
    checkSafeName("subset", subset);
    checkSafeName("split", split);
    Path folder = cacheRoot().resolve("datasets").resolve(datasetId.replace("/", "--"))
        .resolve(subset).resolve(split);
    Path manifest = folder.resolve("files.txt");
    String what = "dataset " + datasetId + " subset '" + subset + "' split '" + split + "'";
    Optional<List<Path>> cached = readManifest(folder, manifest);
    if (cached.isPresent()) {
      return cached.get();
    }
    if (settings.offline) {
      throw new HubException("HF_HUB_OFFLINE is set and " + what + " is not cached (looked in "
          + folder + ")");
    }
    URI listing = URI.create(settings.endpoint + "/api/datasets/" + datasetId + "/parquet/"
        + encode(subset) + "/" + encode(split));
    List<URI> urls = listParquetUrls(listing, what);
    List<Path> files = new ArrayList<>();
    for (int i = 0; i < urls.size(); i++) {
      Path file = folder.resolve(String.format(Locale.ROOT, "%04d.parquet", i));
      LOG.info("Downloading {} part {}/{} from {}", what, i + 1, urls.size(),
          AuxHttp.redact(urls.get(i)));
      download(urls.get(i), file, what + " part " + (i + 1));
      files.add(file);
    }
    StringBuilder lines = new StringBuilder();
    files.forEach(f -> lines.append(f.getFileName()).append('\n'));
    writeAtomically(manifest, lines.toString().getBytes(StandardCharsets.UTF_8));
    return List.copyOf(files);
  }

  private Optional<Path> pythonCacheFile(String repoId, String revision, String filename) {
    Path repo = hubCache.resolve("models--" + repoId.replace("/", "--"));
    String commit = revision;
    if (!COMMIT.matcher(revision).matches()) {
      Path ref = repo.resolve("refs").resolve(revision);
      if (!Files.isRegularFile(ref)) {
        return Optional.empty();
      }
      try {
        commit = Files.readString(ref).trim();
      } catch (IOException e) {
        return Optional.empty();
      }
      if (!COMMIT.matcher(commit).matches()) {
        return Optional.empty();
      }
    }
    Path file = repo.resolve("snapshots").resolve(commit).resolve(filename);
    return Files.isRegularFile(file) ? Optional.of(file) : Optional.empty();
  }

  private static Optional<List<Path>> readManifest(Path folder, Path manifest) {
    if (!Files.isRegularFile(manifest)) {
      return Optional.empty();
    }
    try {
      List<Path> files = new ArrayList<>();
      for (String line : Files.readAllLines(manifest)) {
        if (!line.isBlank()) {
          Path file = folder.resolve(line.trim());
          if (!Files.isRegularFile(file)) {
            return Optional.empty();
          }
          files.add(file);
        }
      }
      return files.isEmpty() ? Optional.empty() : Optional.of(List.copyOf(files));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private List<URI> listParquetUrls(URI listing, String what) {
    String list = what + " Parquet file list";
    AuxHttp.Response answer;
    try {
      answer = request(listing).send();
    } catch (AuxHttpException e) {
      throw new HubException("Cannot download " + list + ": " + e.getMessage(), e);
    }
    if (answer.status() != 200) {
      throw new HubException(failure(list, answer));
    }
    JsonNode node;
    try {
      node = JSON.readTree(answer.body());
    } catch (IOException e) {
      throw new HubException("The " + list + " from " + answer.url() + " is not JSON: "
          + (e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.toString()), e);
    }
    if (!node.isArray() || node.isEmpty()) {
      throw new HubException("The hub lists no Parquet files for " + what + " (" + answer.url()
          + " returned " + abbreviate(node.toString()) + ")");
    }
    List<URI> urls = new ArrayList<>();
    for (JsonNode url : node) {
      if (!url.isTextual()) {
        throw new HubException("Unexpected " + list + " from " + answer.url() + ": "
            + abbreviate(node.toString()));
      }
      urls.add(listing.resolve(url.asText()));
    }
    return urls;
  }

  /** GETs {@code uri} into {@code target}; the file appears atomically, whole or not at all. */
  private void download(URI uri, Path target, String what) {
    Path part = target.resolveSibling(target.getFileName() + ".part-" + UUID.randomUUID());
    try {
      AuxHttp.Response answer = request(uri).download(part);
      if (answer.status() != 200) {
        throw new HubException(failure(what, answer));
      }
      moveAtomically(part, target);
    } catch (AuxHttpException e) {
      throw new HubException("Cannot download " + what + ": " + e.getMessage(), e);
    } catch (IOException e) {
      throw new HubException("Cannot store " + what + " as " + target + ": " + e, e);
    } finally {
      try {
        Files.deleteIfExists(part);
      } catch (IOException ignored) {
        // the partial file is left behind; it is never mistaken for the real one
      }
    }
  }

  /**
   * A GET carrying the token only when it goes to the hub itself; {@link AuxHttp} drops it
   * when a redirect leaves for another host (the CDN the hub sends downloads to).
   */
  private AuxHttp request(URI uri) {
    AuxHttp get = AuxHttp.get(uri).connectTimeout(settings.timeout).timeout(settings.timeout);
    return settings.token != null && AuxHttp.sameOrigin(uri, settings.endpoint)
        ? get.header("Authorization", "Bearer " + settings.token)
        : get;
  }

  private String failure(String what, AuxHttp.Response answer) {
    String detail = answer.header("X-Error-Message")
        .map(message -> " (hub says: " + abbreviate(message) + ")").orElse("");
    String base = "Cannot download " + what + ": HTTP " + answer.status() + " from "
        + answer.url() + detail;
    switch (answer.status()) {
      case 401:
      case 403:
        return base + (settings.token == null
            ? ". The repository may be gated or private: set HF_TOKEN to a token with access"
            : ". The configured token (HF_TOKEN) was refused: check it has access to the "
                + "repository and that its terms were accepted on the hub");
      case 404:
        return base + ". Check the id, revision and file name (and --hf-subset/--hf-split "
            + "for datasets)";
      default:
        return base;
    }
  }

  private static void writeAtomically(Path target, byte[] content) {
    try {
      Files.createDirectories(target.getParent());
      Path part = target.resolveSibling(target.getFileName() + ".part-" + UUID.randomUUID());
      Files.write(part, content);
      moveAtomically(part, target);
    } catch (IOException e) {
      throw new HubException("Cannot write " + target + ": " + e, e);
    }
  }

  private static void moveAtomically(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /**
   * The token in {@code file}, or null when there is no such file (no token, as with
   * huggingface_hub). A file that is there but cannot be read fails: going on without its
   * token would turn a permission problem into puzzling 401s from gated repositories.
   */
  private static String readTokenFile(Path file) {
    if (Files.notExists(file)) {
      return null;
    }
    String problem;
    try {
      if (Files.isRegularFile(file)) {
        return nonBlank(Files.readString(file).trim());
      }
      problem = "not a regular file";
    } catch (CharacterCodingException e) {
      problem = "not UTF-8 text";
    } catch (IOException e) {
      // the exception names the file, never its content
      problem = e.toString();
    }
    throw new HubException("Cannot read the Hugging Face token file " + file + " (" + problem
        + "); fix or remove it, or set HF_TOKEN");
  }

  private static void checkRepoId(String id) {
    if (id == null || !REPO_ID.matcher(id).matches() || id.contains("..") || id.contains("--")) {
      throw new IllegalArgumentException("Not a Hugging Face repository id: '" + id
          + "' (expected 'name' or 'org/name' of letters, digits, '-', '_' and '.')");
    }
  }

  private static void checkRevision(String revision) {
    if (revision == null || revision.isBlank() || revision.contains("..")
        || revision.startsWith("/") || revision.endsWith("/")) {
      throw new IllegalArgumentException("Not a revision: '" + revision
          + "' (expected a branch, tag or commit such as 'main')");
    }
  }

  private static void checkFilename(String filename) {
    if (filename == null || filename.isBlank() || filename.startsWith("/")
        || filename.contains("..") || filename.contains("\\")) {
      throw new IllegalArgumentException("Not a file name inside a repository: '" + filename
          + "'");
    }
  }

  private static void checkSafeName(String what, String value) {
    if (value == null || !SAFE_NAME.matcher(value).matches() || value.contains("..")) {
      throw new IllegalArgumentException("Not a dataset " + what + ": '" + value
          + "' (letters, digits, '-', '_' and '.' only)");
    }
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static String abbreviate(String s) {
    return s.length() <= 200 ? s : s.substring(0, 200) + "...";
  }

  private static String nonBlank(String s) {
    return s == null || s.isBlank() ? null : s;
  }

  @Override
  public String toString() {
    return "HubClient{endpoint=" + settings.endpoint + ", token="
        + (settings.token == null ? "none" : "set") + ", cache=" + cacheRoot() + ", offline="
        + settings.offline + "}";
  }

  /** Immutable: every method returns a new builder. */
  public static final class Builder {
    private final URI endpoint;
    private final String token;
    private final Path home;
    private final Path hubCache;
    private final boolean offline;
    private final Duration timeout;

    private Builder(URI endpoint, String token, Path home, Path hubCache, boolean offline,
        Duration timeout) {
      this.endpoint = endpoint;
      this.token = token;
      this.home = home;
      this.hubCache = hubCache;
      this.offline = offline;
      this.timeout = timeout;
    }

    /** Hub address such as {@code https://huggingface.co} or a mirror; no trailing path. */
    public Builder endpoint(String url) {
      String trimmed = Objects.requireNonNull(url, "endpoint").trim();
      while (trimmed.endsWith("/")) {
        trimmed = trimmed.substring(0, trimmed.length() - 1);
      }
      URI uri;
      try {
        uri = URI.create(trimmed);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("Hub endpoint is not a URL: '" + url + "'", e);
      }
      if (uri.getHost() == null || !("http".equals(uri.getScheme())
          || "https".equals(uri.getScheme()))) {
        throw new IllegalArgumentException("Hub endpoint must be an http(s) URL with a host, "
            + "got '" + url + "'");
      }
      return new Builder(uri, token, home, hubCache, offline, timeout);
    }

    /** Access token sent as {@code Authorization: Bearer}; {@code null} for none. */
    public Builder token(String value) {
      return new Builder(endpoint, nonBlank(value), home, hubCache, offline, timeout);
    }

    /** Cache root, like {@code HF_HOME}. */
    public Builder home(Path folder) {
      return new Builder(endpoint, token, Objects.requireNonNull(folder, "home"), hubCache,
          offline, timeout);
    }

    /** The Python tools' hub cache to look in first, like {@code HF_HUB_CACHE}. */
    public Builder hubCache(Path folder) {
      return new Builder(endpoint, token, home, Objects.requireNonNull(folder, "hubCache"),
          offline, timeout);
    }

    /** When true, only cached files are used, like {@code HF_HUB_OFFLINE=1}. */
    public Builder offline(boolean value) {
      return new Builder(endpoint, token, home, hubCache, value, timeout);
    }

    /** Time allowed to connect, and for each wait on the hub's answer. Default 30 s. */
    public Builder timeout(Duration value) {
      if (value == null || value.isNegative() || value.isZero()) {
        throw new IllegalArgumentException("Hub timeout must be positive, got " + value);
      }
      return new Builder(endpoint, token, home, hubCache, offline, value);
    }

    /** The client with this configuration. */
    public HubClient build() {
      return new HubClient(this);
    }

    @Override
    public String toString() {
      return "HubClient.Builder{endpoint=" + endpoint + ", token="
          + (token == null ? "none" : "set") + "}";
    }
  }
}
