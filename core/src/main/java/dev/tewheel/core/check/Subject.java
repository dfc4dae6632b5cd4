package dev.tewheel.core.check;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.bundle.manifest.Manifest;
import dev.tewheel.bundle.manifest.Placement;
import dev.tewheel.bundle.ncclep.NcclEpVersion;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.zip.WheelArchive;
import dev.tewheel.elf.ByteSource;
import dev.tewheel.elf.CudaFatBinary;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.GnuProperties;
import dev.tewheel.elf.GpuCode;
import dev.tewheel.loader.OwnSearch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What checks examine: a wheel_lib's files by their path inside it (planned by assemble, a folder, or a .whl's
 * entries), the layout they follow, and the settings of the run. Immutable: {@code with*} return copies. ELF files
 * and header texts are read once per subject and shared by all checks.
 */
public final class Subject {
  /** Headers over this size are not read as text: no JIT header comes close. */
  static final int MAX_HEADER_BYTES = 4 << 20;

  private final String description;
  private final Layout layout;
  private final SortedMap<String, SubjectFile> files;
  private final CheckSettings settings;
  private final ReadOnce<ElfFile> elfs = new ReadOnce<>(file -> {
    try (ByteSource source = file.open()) {
      return ElfFile.read(source);
    }
  });
  private final ReadOnce<String> digests = new ReadOnce<>(SubjectFile::sha256);
  private final ReadOnce<GpuCode> gpuCodes = new ReadOnce<>(file -> {
    ElfFile elf = elf(file);
    try (ByteSource source = file.open()) {
      return CudaFatBinary.read(source, elf);
    }
  });
  private final ReadOnce<GnuProperties> properties = new ReadOnce<>(file -> {
    ElfFile elf = elf(file);
    try (ByteSource source = file.open()) {
      return GnuProperties.read(source, elf);
    }
  });
  private final ReadOnce<Boolean> elfMagic = new ReadOnce<>(file -> {
    if (file.type() != SubjectFile.EntryType.FILE) {
      return false; // a link or a fifo is not opened
    }
    try (ByteSource source = file.open()) { // a wheel's entry: from the bytes its one inflating pass kept
      return ElfFile.startsWithMagic(source);
    }
  });
  /** Results several checks share (SYMBOL-FLOOR's proof), each worked out once per subject. */
  private final java.util.concurrent.ConcurrentHashMap<String, Object> derived =
      new java.util.concurrent.ConcurrentHashMap<>();
  private final Manifest manifest;
  private final WheelArchive wheel;
  private volatile List<SubjectFile> libraries;

  public Subject(String description, Layout layout, Collection<SubjectFile> files, CheckSettings settings) {
    this(description, layout, byPath(description, files), settings, null, null);
  }

  private Subject(String description, Layout layout, SortedMap<String, SubjectFile> files, CheckSettings settings,
      Manifest manifest, WheelArchive wheel) {
    this.description = Objects.requireNonNull(description, "description");
    this.layout = Objects.requireNonNull(layout, "layout");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.files = files;
    this.manifest = manifest;
    this.wheel = wheel;
  }

  private static SortedMap<String, SubjectFile> byPath(String description, Collection<SubjectFile> files) {
    SortedMap<String, SubjectFile> byPath = new TreeMap<>();
    for (SubjectFile file : files) {
      if (byPath.put(file.path(), file) != null) {
        throw new IllegalArgumentException(description + " has two files at " + file.path());
      }
    }
    return java.util.Collections.unmodifiableSortedMap(byPath);
  }

  /** A result several checks share, worked out once per subject under {@code key}. */
  @SuppressWarnings("unchecked")
  public <T> T derived(String key, java.util.function.Supplier<T> compute) {
    return (T) derived.computeIfAbsent(key, k -> compute.get());
  }

  /** The manifest the subject carries (a folder or wheel assemble wrote), if any. */
  public Optional<Manifest> manifest() {
    return Optional.ofNullable(manifest);
  }

  /** The .whl the subject was read from, for the wheel-level checks. */
  public Optional<WheelArchive> wheel() {
    return Optional.ofNullable(wheel);
  }

  /** A copy with its manifest; this subject is unchanged. */
  public Subject withManifest(Manifest value) {
    return new Subject(description, layout, files, settings, value, wheel);
  }

  /** A copy with the wheel it came from; this subject is unchanged. */
  public Subject withWheel(WheelArchive value) {
    return new Subject(description, layout, files, settings, manifest, value);
  }

  /** SHA-256 of the file's bytes in lower-case hex, computed once per subject. */
  public String sha256(SubjectFile file) throws IOException {
    return digests.get(file);
  }

  /** For messages: e.g. "wheel_lib planned in /x/target/wheel/transformer_engine/wheel_lib". */
  public String description() {
    return description;
  }

  public Layout layout() {
    return layout;
  }

  public CheckSettings settings() {
    return settings;
  }

  public Collection<SubjectFile> files() {
    return files.values();
  }

  public Optional<SubjectFile> file(String path) {
    return Optional.ofNullable(files.get(path));
  }

  /**
   * The shipped file glibc would load for {@code needed} of {@code library} (read as {@code elf}) once wheel_lib is
   * installed, if any: the loader model's {@link OwnSearch} with this subject as the tree (DEPS-RESOLVE, SYMBOL-FLOOR,
   * the suggested platform).
   */
  public Optional<SubjectFile> shippedNeeded(SubjectFile library, ElfFile elf, String needed) {
    return OwnSearch.find(library.path(), elf, needed, path -> files.containsKey(path)).flatMap(this::file);
  }

  public Optional<SubjectFile> transformerEngineLibrary() {
    if (layout.any()) {
      return Optional.empty();
    }
    return file(layout.transformerEngineLibrary());
  }

  /**
   * The NCCL EP library where the layout puts it. A layout path with {@code {major}} is filled with the required
   * major; when that is unknown, the one file that fits the pattern is taken.
   */
  public Optional<SubjectFile> ncclEpLibrary() {
    if (layout.any()) {
      return Optional.empty();
    }
    return Placement.ncclEpLibrary(layout, files.keySet(), requiredNcclEpMajor()).flatMap(this::file);
  }

  /** The shipped {@code nccl_ep.h}, under the layout's include root. */
  public Optional<SubjectFile> ncclEpHeader() {
    if (layout.any()) {
      return Optional.empty();
    }
    return file(layout.includeRoot() + "/" + NcclEpVersion.HEADER);
  }

  /** MAJOR.MINOR.PATCH of the shipped {@code nccl_ep.h}, when it is there and readable. */
  public Optional<NcclEpVersion> headerVersion() {
    return ncclEpHeader().flatMap(header -> {
      try {
        return Optional.of(NcclEpVersion.fromHeader(text(header)));
      } catch (IOException | IllegalArgumentException e) {
        return Optional.empty();
      }
    });
  }

  /** The configured major, else NCCL_EP_MAJOR of the shipped header. */
  public OptionalInt requiredNcclEpMajor() {
    return settings.requiredNcclEpMajor(() -> ncclEpHeader().flatMap(header -> {
      try {
        return Optional.of(text(header));
      } catch (IOException e) {
        return Optional.empty();
      }
    }));
  }

  /** The shipped headers: every file under the include root, keyed by its path relative to that root. */
  public SortedMap<String, SubjectFile> headers() {
    if (layout.any()) {
      return new TreeMap<>();
    }
    String root = layout.includeRoot() + "/";
    SortedMap<String, SubjectFile> headers = new TreeMap<>();
    files.subMap(root, root + Character.MAX_VALUE).forEach((path, file) -> headers.put(path.substring(root.length()), file));
    return headers;
  }

  /**
   * The file read as ELF, once per subject.
   *
   * @throws IOException the typed ELF error when it is not a readable ELF file
   */
  public ElfFile elf(SubjectFile file) throws IOException {
    return elfs.get(file);
  }

  /**
   * The CUDA device code the library carries (its fat-binary headers), read once per subject.
   *
   * @throws IOException the typed ELF error when the file or its fat binaries cannot be read
   */
  public GpuCode gpuCode(SubjectFile file) throws IOException {
    return gpuCodes.get(file);
  }

  /** The library's GNU property note (x86 ISA level, aarch64 BTI/PAC), read once per subject. */
  public GnuProperties gnuProperties(SubjectFile file) throws IOException {
    return properties.get(file);
  }

  /**
   * The files the library checks read, once per subject: the layout's two, then every other file named *.so or
   * *.so.N, or starting with the ELF magic.
   */
  public List<SubjectFile> libraries() {
    List<SubjectFile> found = libraries;
    if (found == null) {
      found = Libraries.find(this); // racy but idempotent: every thread finds the same list
      libraries = found;
    }
    return found;
  }

  /**
   * Whether the file starts with the ELF magic, reading at most its first four bytes, once per subject. A regular
   * file that cannot be read counts as ELF, so that the library checks say they could not read it: nothing passes
   * unread.
   */
  boolean startsAsElf(SubjectFile file) {
    try {
      return elfMagic.get(file);
    } catch (IOException e) {
      return true;
    }
  }

  /**
   * The file read as ELF for {@code check}. When it cannot be read, the check cannot judge it and says so: a finding
   * of {@code check} naming the file and the reader's reason goes to {@code findings}, and the result is empty. The
   * one place the "unreadable ELF" rule lives, so no check passes a file it could not read, whatever
   * ELF-SHARED-OBJECT's severity.
   */
  public Optional<ElfFile> readableElf(SubjectFile file, Check check, List<Finding> findings) {
    try {
      return Optional.of(elf(file));
    } catch (IOException e) {
      findings.add(check.finding(file.origin(), "a file that cannot be read as ELF (" + e.getMessage() + ")",
          "an ELF shared object " + check.id() + " can check",
          "ship the library the build wrote, not a copy, script or truncated file (ELF-SHARED-OBJECT says more)"));
      return Optional.empty();
    }
  }

  /** The file read as ELF, or empty when it is not one: for comparisons that report unreadable files themselves. */
  public Optional<ElfFile> elfIfReadable(SubjectFile file) {
    try {
      return Optional.of(elf(file));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** A header's text (UTF-8, malformed bytes replaced). */
  public String text(SubjectFile file) throws IOException {
    long size = file.size();
    if (size > MAX_HEADER_BYTES) {
      throw new IOException(file.origin() + " is " + size + " bytes, more than a header can be (" + MAX_HEADER_BYTES + ")");
    }
    try (ByteSource source = file.open()) {
      ByteBuffer bytes = source.read(0, (int) size);
      return StandardCharsets.UTF_8.decode(bytes).toString();
    }
  }
}
