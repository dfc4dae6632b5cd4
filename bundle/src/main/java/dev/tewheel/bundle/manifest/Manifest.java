package dev.tewheel.bundle.manifest;

import dev.tewheel.bundle.io.AtomicFiles;
import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.bundle.layout.WheelLibPaths;
import dev.tewheel.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The contract between build and run time: what assemble shipped in a wheel_lib and where. Assemble writes it as
 * {@code te-wheel-lib.json}; verify and the runtime read it with this same class. See docs/manifest.md.
 *
 * <p>Every path it records stays inside wheel_lib ({@link WheelLibPaths#requireInside}): checked when a manifest is
 * made or read, so verify, te:jar-wheel-lib and the runtime, which all read it here, never follow one outside.
 *
 * @param layout the layout's name ("default", "ep-home" or "custom")
 * @param ncclEpHome the folder (relative to wheel_lib, "" for wheel_lib itself) to use as NCCL_EP_HOME, or null
 *     when NCCL EP is not shipped
 * @param includeRoot the folder holding {@code nccl_ep.h} and {@code nccl_ep/}, or null when not shipped
 * @param files every shipped file but the manifest, sorted by path
 */
public record Manifest(String layout, String ncclEpHome, String includeRoot, List<ManifestEntry> files) {
  /** The format this code writes and the only one it reads. */
  public static final String SCHEMA = "te-wheel-lib/1";
  /**
   * The most bytes a manifest may have, for every reader (folder, wheel, class path): assemble writes a few KiB, so
   * anything near this is no manifest of ours, and a bound keeps a huge file from exhausting the heap.
   */
  public static final int MAX_BYTES = 16 << 20;
  private static final Comparator<ManifestEntry> BY_PATH = new Comparator<>() {
    @Override
    public int compare(ManifestEntry a, ManifestEntry b) {
      return a.path().compareTo(b.path());
    }
  };

  public Manifest {
    Objects.requireNonNull(layout, "layout");
    if (ncclEpHome != null) {
      WheelLibPaths.requireInside("'ncclEpHome'", ncclEpHome, true);
    }
    if (includeRoot != null) {
      WheelLibPaths.requireInside("'includeRoot'", includeRoot, false);
    }
    // A plain sort, no Comparator.comparing: te-runtime reads the manifest on its cold path, where each lambda a
    // call spins costs milliseconds.
    ManifestEntry[] sorted = files.toArray(new ManifestEntry[0]);
    Arrays.sort(sorted, BY_PATH);
    files = List.of(sorted);
    for (int i = 1; i < files.size(); i++) {
      if (files.get(i).path().equals(files.get(i - 1).path())) {
        throw new IllegalArgumentException("the manifest lists " + files.get(i).path() + " twice");
      }
    }
  }

  public Optional<ManifestEntry> transformerEngineLibrary() {
    return first(FileKind.TRANSFORMER_ENGINE_LIBRARY);
  }

  public Optional<ManifestEntry> ncclEpLibrary() {
    return first(FileKind.NCCL_EP_LIBRARY);
  }

  public List<ManifestEntry> headers() {
    return files.stream().filter(f -> f.kind() == FileKind.HEADER).toList();
  }

  public Optional<ManifestEntry> file(String path) {
    return files.stream().filter(f -> f.path().equals(path)).findFirst();
  }

  /**
   * The layout this manifest's wheel_lib follows: a built-in one by name, or for "custom" the paths it records.
   *
   * @throws ManifestException when a custom manifest lacks the TE library
   */
  public Layout toLayout() {
    if (!layout.equals("custom")) {
      try {
        return Layout.named(layout);
      } catch (IllegalArgumentException e) {
        throw new ManifestException("the manifest names layout " + WheelLibPaths.quoted(layout)
            + ": expected default, ep-home or custom", e);
      }
    }
    String te = transformerEngineLibrary().map(ManifestEntry::path).orElseThrow(() ->
        new ManifestException("a custom-layout manifest must list the transformer_engine library", null));
    String ep = ncclEpLibrary().map(ManifestEntry::path).orElse(Layout.DEFAULT.ncclEpLibrary());
    return new Layout("custom", te, ep, includeRoot == null ? Layout.DEFAULT.includeRoot() : includeRoot);
  }

  private Optional<ManifestEntry> first(FileKind kind) {
    return files.stream().filter(f -> f.kind() == kind).findFirst();
  }

  /** The manifest as JSON: keys in a fixed order, files sorted, so equal manifests are equal bytes. */
  public String toJson() {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("schema", SCHEMA);
    root.put("layout", layout);
    root.put("ncclEpHome", ncclEpHome);
    root.put("includeRoot", includeRoot);
    List<Object> list = new ArrayList<>();
    for (ManifestEntry file : files) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("path", file.path());
      entry.put("kind", file.kind().id());
      entry.put("size", file.size());
      entry.put("sha256", file.sha256());
      if (file.kind() != FileKind.HEADER) {
        entry.put("soname", file.soname());
        entry.put("major", file.major());
        entry.put("version", file.version());
        if (file.sass() != null) {
          Map<String, Object> gpu = new LinkedHashMap<>();
          gpu.put("sass", file.sass());
          gpu.put("ptx", file.ptx());
          entry.put("gpuCode", gpu);
        }
      }
      list.add(entry);
    }
    root.put("files", list);
    return Json.write(root);
  }

  /**
   * Writes the manifest beside {@code target} and renames it into place: never one its readers would refuse.
   *
   * @throws ManifestException when its JSON is more than {@link #MAX_BYTES}; nothing is written then
   */
  public void write(Path target) throws IOException {
    String json = toJson();
    long bytes = utf8Length(json);
    if (bytes > MAX_BYTES) {
      throw new ManifestException(target + " would be " + bytes + " bytes for " + files.size() + " files, more than"
          + " a manifest may be (at most " + MAX_BYTES + " bytes, the bound every reader holds it to), so it is not"
          + " written. Ship fewer files (NCCL EP's JIT needs a few dozen headers: narrow headerIncludes or"
          + " headerExcludes)", null);
    }
    AtomicFiles.writeString(target, json);
  }

  /** How many bytes {@link #toJson()} takes in UTF-8: what {@link #write} and every reader hold to {@link #MAX_BYTES}. */
  public long jsonBytes() {
    return utf8Length(toJson());
  }

  private static long utf8Length(String text) {
    return text.getBytes(StandardCharsets.UTF_8).length;
  }

  /**
   * Reads a manifest file: a regular file (a FIFO is never opened) of at most {@link #MAX_BYTES}.
   *
   * @throws ManifestException when it is larger, or not a manifest of {@link #SCHEMA}
   * @throws IOException when it cannot be read, or is no regular file
   */
  public static Manifest read(Path file) throws IOException {
    Path real = WheelLibPaths.regularFile(file);
    long size = Files.size(real);
    if (size > MAX_BYTES) {
      throw tooLarge(file + " is " + size + " bytes,");
    }
    try (InputStream in = Files.newInputStream(real)) {
      return read(in, file.toString());
    }
  }

  /**
   * Reads a manifest from a stream (a jar's resource, a wheel's entry), at most {@link #MAX_BYTES} of it.
   *
   * @param source names it in errors
   * @throws ManifestException when the stream holds more, or is not a manifest of {@link #SCHEMA}
   */
  public static Manifest read(InputStream in, String source) throws IOException {
    return parse(new String(bytes(in, source), StandardCharsets.UTF_8), source);
  }

  /**
   * A manifest's bytes from a stream, at most {@link #MAX_BYTES} of them, for a caller that also hashes them.
   *
   * @throws ManifestException when the stream holds more
   */
  public static byte[] bytes(InputStream in, String source) throws IOException {
    byte[] bytes = in.readNBytes(MAX_BYTES + 1);
    if (bytes.length > MAX_BYTES) {
      throw tooLarge(source + " is");
    }
    return bytes;
  }

  private static ManifestException tooLarge(String what) {
    return new ManifestException(what + " larger than a manifest may be (at most " + MAX_BYTES + " bytes;"
        + " te:assemble-wheel-lib writes a few KiB), so it is not read. Rebuild wheel_lib with te:assemble-wheel-lib,"
        + " which writes it.", null);
  }

  /**
   * Parses a manifest; {@code source} names it in errors.
   *
   * @throws ManifestException when the text is not a manifest of {@link #SCHEMA}
   */
  public static Manifest parse(String json, String source) {
    try {
      Map<String, Object> root = object(Json.parse(json), "the top level");
      String schema = string(root, "schema", false);
      if (!SCHEMA.equals(schema)) {
        throw new IllegalArgumentException("schema is " + WheelLibPaths.quoted(String.valueOf(schema)) + ", expected '"
            + SCHEMA + "'");
      }
      List<ManifestEntry> files = new ArrayList<>();
      Object list = root.get("files");
      if (!(list instanceof List<?> items)) {
        throw new IllegalArgumentException("'files' is not an array");
      }
      for (Object item : items) {
        Map<String, Object> entry = object(item, "an entry of 'files'");
        Long major = number(entry, "major");
        files.add(new ManifestEntry(string(entry, "path", false), FileKind.of(string(entry, "kind", false)),
            Objects.requireNonNullElse(number(entry, "size"), -1L), string(entry, "sha256", false),
            string(entry, "soname", true), major == null ? null : Math.toIntExact(major),
            string(entry, "version", true), gpuNames(entry, "sass"), gpuNames(entry, "ptx")));
      }
      return new Manifest(string(root, "layout", false), string(root, "ncclEpHome", true),
          string(root, "includeRoot", true), files);
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw new ManifestException(source + " is not a valid " + SCHEMA + " manifest: " + e.getMessage()
          + ". Rebuild wheel_lib with te:assemble-wheel-lib, which writes it.", e);
    }
  }

  /** gpuCode.sass or gpuCode.ptx: null when the entry records no GPU code (older manifests, headers). */
  private static List<String> gpuNames(Map<String, Object> entry, String key) {
    Object gpu = entry.get("gpuCode");
    if (gpu == null) {
      return null;
    }
    Object names = object(gpu, "'gpuCode'").get(key);
    if (!(names instanceof List<?> items)) {
      throw new IllegalArgumentException("'gpuCode." + key + "' is not an array");
    }
    List<String> result = new ArrayList<>();
    for (Object item : items) {
      if (!(item instanceof String name)) {
        throw new IllegalArgumentException("'gpuCode." + key + "' holds a non-string");
      }
      result.add(name);
    }
    return result;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> object(Object value, String what) {
    if (!(value instanceof Map)) {
      throw new IllegalArgumentException(what + " is not an object");
    }
    return (Map<String, Object>) value;
  }

  private static String string(Map<String, Object> map, String key, boolean nullable) {
    Object value = map.get(key);
    if (value == null && nullable) {
      return null;
    }
    if (!(value instanceof String s)) {
      throw new IllegalArgumentException("'" + key + "' is " + (value == null ? "missing" : "not a string"));
    }
    return s;
  }

  private static Long number(Map<String, Object> map, String key) {
    Object value = map.get(key);
    if (value == null) {
      return null;
    }
    if (!(value instanceof Long n)) {
      throw new IllegalArgumentException("'" + key + "' is not an integer");
    }
    return n;
  }
}
