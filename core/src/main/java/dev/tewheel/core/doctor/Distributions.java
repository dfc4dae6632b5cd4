package dev.tewheel.core.doctor;

import dev.tewheel.core.wheel.Metadata;
import dev.tewheel.core.wheel.RecordFile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The distributions installed in an environment's folders, read from their {@code .dist-info} (METADATA's header,
 * WHEEL's presence, RECORD's paths), and which of them installed a given file. Only those three files are read, each
 * bounded; nothing is imported or run.
 */
public final class Distributions {
  /** A RECORD longer than this is refused (core's bound for a wheel's RECORD). */
  static final int MAX_RECORD = RecordFile.MAX_BYTES;
  /** METADATA's header (before the long description) is a few KiB; more is not read. */
  static final int MAX_HEADER = 1 << 20;

  private final List<Distribution> all;
  private final Map<Path, List<Distribution>> owners = new HashMap<>();
  private final List<String> problems;

  private Distributions(List<Distribution> all, List<String> problems) {
    this.all = List.copyOf(all);
    this.problems = List.copyOf(problems);
    for (Distribution d : all) {
      for (Path file : d.files()) {
        List<Distribution> list = owners.computeIfAbsent(file, f -> new ArrayList<>());
        if (!list.contains(d)) {
          list.add(d);
        }
      }
    }
  }

  /** Reads every {@code *.dist-info} directly in each folder, in folder order, then by name. */
  public static Distributions read(List<Path> folders) {
    List<Distribution> all = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    for (Path folder : folders) {
      if (!Files.isDirectory(folder)) {
        continue;
      }
      List<Path> infos = new ArrayList<>();
      try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder, "*.dist-info")) {
        entries.forEach(infos::add);
      } catch (IOException e) {
        problems.add(folder + ": could not be listed (" + e.getMessage() + ")");
        continue;
      }
      infos.sort(null);
      for (Path info : infos) {
        try {
          read(info).ifPresent(all::add);
        } catch (IOException | IllegalArgumentException e) {
          problems.add(info + ": " + e.getMessage());
        }
      }
    }
    return new Distributions(all, problems);
  }

  private static Optional<Distribution> read(Path info) throws IOException {
    Path metadata = info.resolve("METADATA");
    if (!Files.isRegularFile(metadata, LinkOption.NOFOLLOW_LINKS)) {
      return Optional.empty();
    }
    String header = header(read(metadata, MAX_HEADER, false));
    String name = Metadata.name(header);
    String version = Metadata.version(header);
    if (name == null || version == null) {
      throw new IOException("METADATA has no Name: or Version: line; expected both, as every wheel's METADATA has");
    }
    List<String> requires = new ArrayList<>();
    for (String line : header.split("\n")) {
      if (line.startsWith("Requires-Dist:")) {
        requires.add(line.substring("Requires-Dist:".length()).strip());
      }
    }
    List<Path> files = new ArrayList<>();
    Path record = info.resolve("RECORD");
    if (Files.isRegularFile(record, LinkOption.NOFOLLOW_LINKS)) {
      Path base = info.getParent();
      for (RecordFile.Row row : RecordFile.parse(read(record, MAX_RECORD, true))) {
        if (!row.fields().isEmpty() && !row.fields().get(0).isEmpty()) {
          files.add(base.resolve(row.fields().get(0)).normalize());
        }
      }
    }
    return Optional.of(new Distribution(name, version, info, purelibWheel(files), requires, files));
  }

  /** TE's rule: the WHEEL file RECORD lists says {@code Root-Is-Purelib: true}. */
  private static boolean purelibWheel(List<Path> files) throws IOException {
    for (Path file : files) {
      if (file.getFileName() != null && file.getFileName().toString().equals("WHEEL")
          && Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
        for (String line : read(file, MAX_HEADER, false).split("\n")) {
          if (line.startsWith("Root-Is-Purelib:")) {
            return line.substring("Root-Is-Purelib:".length()).strip().equalsIgnoreCase("true");
          }
        }
        return false;
      }
    }
    return false;
  }

  /** METADATA's header: up to the first empty line, continuation lines kept. */
  static String header(String text) {
    String normalized = text.replace("\r\n", "\n");
    int end = normalized.indexOf("\n\n");
    return end < 0 ? normalized : normalized.substring(0, end + 1);
  }

  private static String read(Path file, int max, boolean whole) throws IOException {
    try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
      byte[] bytes = in.readNBytes(max);
      if (whole && in.read() >= 0) {
        throw new IOException(file.getFileName() + " is larger than " + max + " bytes; expected a RECORD pip"
            + " wrote (reinstall the distribution)");
      }
      return new String(bytes, StandardCharsets.UTF_8);
    }
  }

  public List<Distribution> all() {
    return all;
  }

  /** What could not be read, one line each (the distribution is then unknown, not an error of the import). */
  public List<String> problems() {
    return problems;
  }

  /** The distributions whose RECORD lists {@code file} (normally one; two when installs overwrote each other). */
  public List<Distribution> owners(Path file) {
    return owners.getOrDefault(file.toAbsolutePath().normalize(), List.of());
  }

  /** The first distribution of that (normalized) name. */
  public Optional<Distribution> named(String name) {
    String key = Distribution.normalize(name);
    return all.stream().filter(d -> d.key().equals(key)).findFirst();
  }
}
