package dev.tewheel.core.assemble;

import dev.tewheel.bundle.io.AtomicFiles;
import dev.tewheel.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the last run copied from where, kept beside wheel_lib (not in it, so the tree stays reproducible): a
 * re-run compares each source's size and mtime with it and copies only what changed.
 */
final class AssembleState {
  private static final String SCHEMA = "te-wheel-assemble-state/1";

  /** One shipped file: its source's path, size and mtime then, and the digest of what was shipped. */
  record Entry(String source, long size, long mtimeMillis, String sha256) {}

  private final String settings;
  private final Map<String, Entry> files;

  AssembleState(String settings, Map<String, Entry> files) {
    this.settings = settings;
    this.files = new TreeMap<>(files);
  }

  static Path fileFor(Path outputDirectory) {
    return outputDirectory.resolveSibling("." + outputDirectory.getFileName() + ".te-wheel-state.json");
  }

  String settings() {
    return settings;
  }

  Map<String, Entry> files() {
    return files;
  }

  /** The state of the last run, or an empty one when there is none or it cannot be read (then all is copied). */
  @SuppressWarnings("unchecked")
  static AssembleState read(Path file) {
    try {
      Map<String, Object> root = (Map<String, Object>) Json.parse(Files.readString(file, StandardCharsets.UTF_8));
      if (!SCHEMA.equals(root.get("schema"))) {
        return empty();
      }
      Map<String, Entry> files = new TreeMap<>();
      for (Map.Entry<String, Object> e : ((Map<String, Object>) root.get("files")).entrySet()) {
        Map<String, Object> v = (Map<String, Object>) e.getValue();
        files.put(e.getKey(), new Entry((String) v.get("source"), (Long) v.get("size"), (Long) v.get("mtime"),
            (String) v.get("sha256")));
      }
      return new AssembleState((String) root.get("settings"), files);
    } catch (IOException | RuntimeException e) {
      return empty();
    }
  }

  static AssembleState empty() {
    return new AssembleState("", Map.of());
  }

  void write(Path file) throws IOException {
    Map<String, Object> list = new LinkedHashMap<>();
    files.forEach((target, e) -> list.put(target, Json.object("source", e.source(), "size", e.size(), "mtime",
        e.mtimeMillis(), "sha256", e.sha256())));
    Map<String, Object> root = Json.object("schema", SCHEMA, "settings", settings, "files", list);
    AtomicFiles.writeString(file, Json.write(root));
  }
}
