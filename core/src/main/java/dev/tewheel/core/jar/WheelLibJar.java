package dev.tewheel.core.jar;

import dev.tewheel.bundle.io.AtomicFiles;
import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.bundle.manifest.Manifest;
import dev.tewheel.bundle.manifest.ManifestEntry;
import dev.tewheel.bundle.manifest.ManifestException;
import dev.tewheel.bundle.manifest.ManifestFiles;
import dev.tewheel.core.check.catalogue.CheckCatalogue;
import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.check.deps.CudaVariantCheck;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.verify.FolderSubject;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.ElfMachine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

/**
 * Packs a wheel_lib written by te:assemble-wheel-lib into a jar under a class-path resource folder (default
 * {@code META-INF/te-wheel/wheel_lib/}), which te-runtime extracts and loads from the class path. Only the files its
 * manifest lists, and the manifest, go in: each opened without following a symbolic link anywhere under wheel_lib
 * ({@link ConfinedFolder}) and packed only with the manifest's size and sha256, checked on the bytes as they are
 * copied; entries are sorted and
 * carry one fixed time, so the same wheel_lib always gives the same bytes. Written beside the target and renamed
 * into place.
 */
public final class WheelLibJar {
  public static final String DEFAULT_RESOURCE_FOLDER = Layout.RESOURCE_FOLDER;
  /** The jar manifest attribute holding the CUDA variant the jar was made for, e.g. {@code 12}. */
  public static final String CUDA_MAJOR_ATTRIBUTE = Layout.CUDA_MAJOR_ATTRIBUTE;
  /** 1980-01-01T00:00:00, the earliest time a zip entry can hold: the time when none is configured. */
  private static final LocalDateTime EARLIEST = LocalDateTime.of(1980, 1, 1, 0, 0, 0);

  /**
   * What to pack.
   *
   * @param wheelLib the wheel_lib folder; its te-wheel-lib.json lists what goes in
   * @param resourceFolder the class-path folder the files go under
   * @param target the jar to write
   * @param time every entry's time; null: 1980-01-01
   * @param cudaMajor the CUDA variant the jar is published for (its classifier's {@code -cu<N>}): CUDA-VARIANT holds
   *     the libraries to it before anything is written; null: the libraries need only agree on one CUDA major
   */
  public record Request(Path wheelLib, String resourceFolder, Path target, FileTime time, Integer cudaMajor) {
    public Request(Path wheelLib, String resourceFolder, Path target, FileTime time) {
      this(wheelLib, resourceFolder, target, time, null);
    }

    public Request {
      Objects.requireNonNull(wheelLib, "wheelLib");
      Objects.requireNonNull(resourceFolder, "resourceFolder");
      Objects.requireNonNull(target, "target");
      String folder = resourceFolder.replaceAll("^/+|/+$", "");
      if (folder.isEmpty() || folder.contains("..") || folder.contains("\\")) {
        throw new IllegalArgumentException("resourceFolder '" + resourceFolder + "' is not a class-path folder such as "
            + DEFAULT_RESOURCE_FOLDER);
      }
      resourceFolder = folder;
    }
  }

  /** What was written: the jar, its entry count, and the machine of the bundle's libraries. */
  public record Written(Path jar, int files, Optional<String> arch) {}

  private WheelLibJar() {}

  /**
   * The platform part of a classifier for this wheel_lib: {@code linux-<arch>} from its TE (else NCCL EP) library's
   * ELF machine, then {@code -cu<N>} when a CUDA major is given, e.g. {@code linux-x86_64-cu12}.
   */
  /**
   * The classifier to attach the jar with: {@code configured} when given (it must be a Maven classifier: letters,
   * digits, '.', '_', '-'), else {@link #classifier(Path, Integer)}.
   *
   * @throws IllegalArgumentException for a configured value that is no Maven classifier
   */
  public static String classifier(String configured, Path wheelLib, Integer cudaMajor) throws IOException {
    if (configured == null || configured.isBlank()) {
      return classifier(wheelLib, cudaMajor);
    }
    if (!configured.matches("[A-Za-z0-9][A-Za-z0-9._-]*")) {
      throw new IllegalArgumentException("'" + configured + "' is not a Maven classifier (letters, digits, '.', '_',"
          + " '-', starting with a letter or digit)");
    }
    return configured;
  }

  public static String classifier(Path wheelLib, Integer cudaMajor) throws IOException {
    Manifest manifest = manifest(wheelLib);
    String arch = arch(wheelLib, manifest).orElseThrow(() -> new IOException("the wheel_lib " + wheelLib
        + " has no TE or NCCL EP library to tell its machine; give the classifier"));
    return "linux-" + arch + (cudaMajor == null ? "" : "-cu" + cudaMajor);
  }

  /** The CUDA major a classifier ends in, 12 for {@code linux-x86_64-cu12}; null for one without {@code -cu<N>}. */
  public static Integer cudaMajorOf(String classifier) {
    java.util.regex.Matcher m = CUDA_SUFFIX.matcher(classifier);
    return m.find() ? Integer.valueOf(m.group(1)) : null;
  }

  private static final java.util.regex.Pattern CUDA_SUFFIX = java.util.regex.Pattern.compile("-cu([1-9][0-9]{0,3})$");

  public static Written write(Request request) throws IOException {
    try (ConfinedFolder folder = ConfinedFolder.open(request.wheelLib())) {
      return write(request, folder);
    }
  }

  /**
   * Packs the files of {@code folder} its manifest lists, each opened without following any link and packed only
   * when its bytes have the manifest's size and sha256 (checked as they are copied, so what was checked is what
   * is packed); else nothing is written.
   */
  private static Written write(Request request, ConfinedFolder folder) throws IOException {
    byte[] manifestBytes = manifestBytes(request.wheelLib(), folder);
    Manifest manifest = parse(request.wheelLib(), manifestBytes);
    List<String> problems = new ArrayList<>();
    for (ManifestEntry entry : manifest.files()) {
      try (ConfinedFolder.Opened file = folder.openFile(entry.path())) {
        if (file.size() != entry.size()) {
          problems.add(entry.path() + " is " + file.size() + " bytes, the manifest says " + entry.size());
        }
      } catch (IOException e) {
        problems.add(entry.path() + ": " + e.getMessage());
      }
    }
    if (!problems.isEmpty()) {
      throw new IOException("the wheel_lib " + request.wheelLib() + " does not match its manifest: "
          + String.join("; ", problems) + ". Run te:assemble-wheel-lib again");
    }
    requireCudaVariant(request);
    LocalDateTime given = request.time() == null ? EARLIEST
        : LocalDateTime.ofInstant(request.time().toInstant(), ZoneOffset.UTC);
    LocalDateTime time = given.isBefore(EARLIEST) ? EARLIEST : given;
    TreeSet<String> names = new TreeSet<>();
    names.add(Layout.MANIFEST);
    manifest.files().forEach(e -> names.add(e.path()));
    TreeSet<String> jarFolders = new TreeSet<>();
    String prefix = request.resourceFolder() + "/";
    for (String name : names) {
      String path = prefix + name;
      for (int slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', slash + 1)) {
        jarFolders.add(path.substring(0, slash + 1));
      }
    }
    jarFolders.remove("META-INF/");
    Files.createDirectories(request.target().toAbsolutePath().getParent());
    java.util.jar.Manifest jarManifest = new java.util.jar.Manifest();
    jarManifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    jarManifest.getMainAttributes().putValue("Created-By", "te-wheel");
    jarManifest.getMainAttributes().putValue("TE-Wheel-Lib", request.resourceFolder());
    if (request.cudaMajor() != null) {
      // te-runtime reads it to choose among several class-path bundles (bundle's Layout.CUDA_MAJOR_ATTRIBUTE).
      jarManifest.getMainAttributes().putValue(CUDA_MAJOR_ATTRIBUTE, request.cudaMajor().toString());
    }
    AtomicFiles.write(request.target(), out -> {
      JarOutputStream jar = new JarOutputStream(out);
      jar.putNextEntry(entry("META-INF/", time));
      jar.closeEntry();
      jar.putNextEntry(entry("META-INF/MANIFEST.MF", time));
      jarManifest.write(jar);
      jar.closeEntry();
      for (String jarFolder : jarFolders) {
        jar.putNextEntry(entry(jarFolder, time));
        jar.closeEntry();
      }
      for (String name : names) {
        jar.putNextEntry(entry(prefix + name, time));
        if (name.equals(Layout.MANIFEST)) {
          jar.write(manifestBytes);
        } else {
          copyChecked(folder, manifest.file(name).orElseThrow(), jar, request.wheelLib());
        }
        jar.closeEntry();
      }
      jar.finish();
    });
    return new Written(request.target(), names.size(), arch(request.wheelLib(), manifest));
  }

  /**
   * CUDA-VARIANT, the check pack and verify run, on the bundle: a jar classified cu12 whose TE NEEDS
   * libcudart.so.13 is refused before it is written.
   */
  private static void requireCudaVariant(Request request) throws IOException {
    Subject subject = FolderSubject.read(request.wheelLib(), Layout.DEFAULT,
        CheckSettings.defaults().withCudaMajor(request.cudaMajor()));
    List<Finding> errors = CheckCatalogue.check(CudaVariantCheck.ID).run(subject).stream()
        .filter(f -> f.severity() == Severity.ERROR).toList();
    if (!errors.isEmpty()) {
      throw new IOException("the wheel_lib " + request.wheelLib() + " does not fit the jar's CUDA variant"
          + (request.cudaMajor() == null ? "" : " cu" + request.cudaMajor()) + ": "
          + errors.stream().map(Finding::message).collect(java.util.stream.Collectors.joining("; ")));
    }
  }

  private static JarEntry entry(String name, LocalDateTime time) {
    JarEntry entry = new JarEntry(name);
    entry.setTimeLocal(time);
    return entry;
  }

  private static Manifest manifest(Path wheelLib) throws IOException {
    try (ConfinedFolder folder = ConfinedFolder.open(wheelLib)) {
      return parse(wheelLib, manifestBytes(wheelLib, folder));
    }
  }

  /**
   * The manifest's bytes, read from the folder without following a link, at most {@link Manifest#MAX_BYTES} + 1:
   * what the jar carries and {@link #parse} reads.
   */
  private static byte[] manifestBytes(Path wheelLib, ConfinedFolder folder) throws IOException {
    if (!Files.exists(wheelLib.resolve(Layout.MANIFEST), java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      throw new IOException("no " + Layout.MANIFEST + " in " + wheelLib + ": te-runtime finds a class-path bundle by"
          + " its manifest. Run te:assemble-wheel-lib first, which writes it");
    }
    try (ConfinedFolder.Opened file = folder.openFile(Layout.MANIFEST)) {
      return file.in().readNBytes(Manifest.MAX_BYTES + 1);
    }
  }

  /** The manifest those bytes hold, held to {@link Manifest#MAX_BYTES} as every reader holds it. */
  private static Manifest parse(Path wheelLib, byte[] bytes) throws IOException {
    try {
      return Manifest.read(new java.io.ByteArrayInputStream(bytes), wheelLib.resolve(Layout.MANIFEST).toString());
    } catch (ManifestException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  /**
   * Copies the listed file into the jar, hashing what passes: bytes that are not the manifest's (a file changed or
   * swapped since assemble) fail the write, so the jar is not renamed into place.
   */
  private static void copyChecked(ConfinedFolder folder, ManifestEntry entry, java.io.OutputStream jar, Path wheelLib)
      throws IOException {
    ManifestFiles.Copied copied;
    try (ConfinedFolder.Opened file = folder.openFile(entry.path())) {
      copied = ManifestFiles.copy(file.in(), entry, jar);
    }
    if (!copied.matches()) {
      throw new IOException(wheelLib.resolve(entry.path()) + " holds " + (copied.bytes() > entry.size() ? "more than "
          : "") + copied.bytes() + " bytes of sha256 " + copied.sha256() + ", not the " + entry.size()
          + " bytes of sha256 " + entry.sha256() + " its manifest lists: it changed"
          + " since te:assemble-wheel-lib wrote it (or was swapped while being packed); nothing was written. Run"
          + " te:assemble-wheel-lib again");
    }
  }

  private static Optional<String> arch(Path wheelLib, Manifest manifest) {
    for (Optional<ManifestEntry> library : List.of(manifest.transformerEngineLibrary(), manifest.ncclEpLibrary())) {
      if (library.isPresent()) {
        try {
          ElfMachine machine = ElfFile.readWithoutSymbols(wheelLib.resolve(library.get().path())).header().machine();
          if (machine.equals(ElfMachine.X86_64)) {
            return Optional.of("x86_64");
          }
          if (machine.equals(ElfMachine.AARCH64)) {
            return Optional.of("aarch64");
          }
          return Optional.of(machine.toString().toLowerCase(java.util.Locale.ROOT));
        } catch (IOException e) {
          // the next library
        }
      }
    }
    return Optional.empty();
  }
}
