package dev.tewheel.runtime.internal.search;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.bundle.layout.WheelLibPaths;
import dev.tewheel.bundle.manifest.Manifest;
import dev.tewheel.bundle.manifest.ManifestEntry;
import dev.tewheel.bundle.manifest.ManifestException;
import dev.tewheel.elf.ByteSource;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.ElfMachine;
import dev.tewheel.runtime.internal.ffm.Libc;
import dev.tewheel.runtime.internal.ffm.VersionGetter;
import dev.tewheel.runtime.internal.host.LiveLoader;
import dev.tewheel.runtime.report.Dependency;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;

/**
 * Every bundle on the class path under one resource folder (the cu12 and cu13 classifier jars of one TE release),
 * each read from its own jar, never mixed; the CUDA variant of each; and the choice among them by the CUDA runtime
 * that would load (docs/runtime.md, "Several class-path bundles").
 */
final class ClasspathBundles {
  /** The jar manifest attribute te:jar-wheel-lib writes: the CUDA major the jar was made for (core's WheelLibJar). */
  public static final String CUDA_MAJOR_ATTRIBUTE = dev.tewheel.bundle.layout.Layout.CUDA_MAJOR_ATTRIBUTE;
  /** The property that picks the variant, over every signal: {@code 13} or {@code cu13}. */
  public static final String CUDA_VARIANT_PROPERTY = "te.cudaVariant";
  /** The CUDA libraries whose SONAME major is the CUDA major in 12 and 13 (core's CudaSonames is the full table). */
  private static final Pattern CUDA_SONAME =
      Pattern.compile("(?:libcudart|libcublas|libcublasLt|libnvrtc|libnvJitLink)\\.so\\.([1-9][0-9]{0,3})");
  private static final Pattern VARIANT = Pattern.compile("(?:cu)?([1-9][0-9]{0,3})");
  /** The TE library is read whole only when the jar manifest does not say the variant; larger ones stay unknown. */
  private static final long MAX_ELF_BYTES = Integer.MAX_VALUE - 16;

  /**
   * One class-path bundle.
   *
   * @param where the jar (or folder) it is in
   * @param files its files, read from that jar only
   * @param variant its CUDA major, when known
   * @param variantSource where that came from
   */
  public record Found(String where, ClasspathBundle.BundleFiles files, Optional<Integer> variant,
      String variantSource) {
    String describe() {
      return where + " (" + variant.map(v -> "cu" + v).orElse("CUDA variant unknown") + ", " + variantSource + ")";
    }
  }

  /**
   * What the machine says of CUDA.
   *
   * @param driverVersion cuDriverGetVersion's answer, e.g. 12090, when a driver was found and answered
   * @param driver how the driver was found, or why not
   * @param cudarts each variant's libcudart.so.N the loader search finds, and where
   */
  public record Signals(Optional<Integer> driverVersion, String driver, Map<Integer, Path> cudarts) {}

  /**
   * The bundle chosen.
   *
   * @param chosen the bundle
   * @param reason why, for people
   * @param warnings an ambiguous choice, for people
   */
  public record Choice(Found chosen, String reason, List<String> warnings) {}

  private ClasspathBundles() {}

  /** Every bundle whose manifest is under {@code folder}, in class-path order, each once. */
  public static List<Found> find(ClassLoader loader, String folder) throws BundleProblem {
    Enumeration<URL> urls;
    try {
      urls = loader.getResources(folder + "/" + Layout.MANIFEST);
    } catch (IOException e) {
      throw new BundleProblem("could not list the class path resources " + folder + "/" + Layout.MANIFEST + ": "
          + e.getMessage(), e);
    }
    Map<String, Found> found = new LinkedHashMap<>();
    for (URL url : Collections.list(urls)) {
      found.computeIfAbsent(url.toString(), u -> of(url, folder));
    }
    return List.copyOf(found.values());
  }

  private static Found of(URL manifest, String folder) {
    try {
      if (manifest.getProtocol().equals("jar")) {
        JarURLConnection connection = (JarURLConnection) manifest.openConnection();
        connection.setUseCaches(false);
        URL jarUrl = connection.getJarFileURL();
        if (jarUrl.getProtocol().equals("file")) {
          Path jar = Path.of(jarUrl.toURI());
          ClasspathBundle.BundleFiles files = name -> open(jar, folder + "/" + name);
          String attribute;
          try (JarFile file = new JarFile(jar.toFile(), false)) {
            java.util.jar.Manifest mf = file.getManifest();
            attribute = mf == null ? null : mf.getMainAttributes().getValue(CUDA_MAJOR_ATTRIBUTE);
          }
          return withVariant(jar.toString(), files, attribute, "the jar's " + CUDA_MAJOR_ATTRIBUTE);
        }
      } else if (manifest.getProtocol().equals("file")) {
        Path dir = Path.of(manifest.toURI()).getParent();
        ClasspathBundle.BundleFiles files = name -> {
          Path file = WheelLibPaths.inside(dir, name);
          return file == null || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) ? null
              : Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS);
        };
        return withVariant(dir.toString(), files, null, null);
      }
    } catch (IOException | URISyntaxException | ClassCastException | IllegalArgumentException e) {
      // read through the URL below
    }
    String base = manifest.toString().substring(0, manifest.toString().length() - Layout.MANIFEST.length());
    ClasspathBundle.BundleFiles files = name -> {
      try {
        return java.net.URI.create(base + name).toURL().openStream();
      } catch (java.io.FileNotFoundException | IllegalArgumentException e) {
        return null;
      }
    };
    return withVariant(base, files, null, null);
  }

  /** A jar entry's stream that closes its jar with it; null when the jar lacks it. */
  private static InputStream open(Path jar, String entry) throws IOException {
    JarFile file = new JarFile(jar.toFile(), false);
    ZipEntry found = file.getEntry(entry);
    if (found == null || found.isDirectory()) {
      file.close();
      return null;
    }
    return new FilterInputStream(file.getInputStream(found)) {
      @Override
      public void close() throws IOException {
        try {
          super.close();
        } finally {
          file.close();
        }
      }
    };
  }

  private static Found withVariant(String where, ClasspathBundle.BundleFiles files, String attribute,
      String attributeSource) {
    if (attribute != null) {
      Matcher m = VARIANT.matcher(attribute.strip());
      if (m.matches()) {
        return new Found(where, files, Optional.of(Integer.parseInt(m.group(1))), attributeSource);
      }
    }
    // No (or no usable) attribute: the CUDA SONAME majors TE's library NEEDS.
    try {
      Manifest manifest;
      try (InputStream in = files.open(Layout.MANIFEST)) {
        if (in == null) {
          return new Found(where, files, Optional.empty(), "no " + Layout.MANIFEST);
        }
        manifest = Manifest.parse(new String(in.readNBytes(Manifest.MAX_BYTES), StandardCharsets.UTF_8),
            where + "!" + Layout.MANIFEST);
      }
      Optional<ManifestEntry> te = manifest.transformerEngineLibrary();
      if (te.isEmpty() || te.get().size() > MAX_ELF_BYTES) {
        return new Found(where, files, Optional.empty(), te.isEmpty() ? "no TE library listed"
            : "its TE library is too large to read for its DT_NEEDED");
      }
      byte[] bytes;
      try (InputStream in = files.open(te.get().path())) {
        if (in == null) {
          return new Found(where, files, Optional.empty(), te.get().path() + " missing");
        }
        bytes = in.readNBytes((int) te.get().size());
      }
      TreeSet<Integer> majors = new TreeSet<>();
      String needs = null;
      for (String needed : ElfFile.read(ByteSource.of(bytes, te.get().path())).needed()) {
        Matcher m = CUDA_SONAME.matcher(needed);
        if (m.matches()) {
          majors.add(Integer.parseInt(m.group(1)));
          needs = needed;
        }
      }
      if (majors.size() == 1) {
        return new Found(where, files, Optional.of(majors.first()), te.get().path() + " NEEDS " + needs);
      }
      return new Found(where, files, Optional.empty(), majors.isEmpty()
          ? "no " + CUDA_MAJOR_ATTRIBUTE + " and " + te.get().path() + " NEEDS no CUDA library"
          : te.get().path() + " NEEDS CUDA libraries of majors " + majors);
    } catch (IOException | ManifestException e) {
      return new Found(where, files, Optional.empty(), "unreadable: " + e.getMessage());
    }
  }

  /** The variant {@code te.cudaVariant} names, or null when unset. */
  public static Integer configuredVariant() {
    String text = Config.property(CUDA_VARIANT_PROPERTY);
    if (text == null) {
      return null;
    }
    Matcher m = VARIANT.matcher(text.strip());
    if (!m.matches()) {
      throw new IllegalArgumentException("system property " + CUDA_VARIANT_PROPERTY + "='" + text
          + "' is no CUDA variant: give a CUDA major such as 12 or cu13");
    }
    return Integer.parseInt(m.group(1));
  }

  /**
   * The bundle to use: the configured variant's, else the newest variant the driver runs (all, when no driver
   * answers) whose libcudart.so.N the loader search finds, else the newest the driver runs, else the first on the
   * class path, with a warning.
   *
   * @throws BundleProblem when the configured variant is on no bundle
   */
  public static Choice choose(List<Found> bundles, Integer configured, Supplier<Signals> probe)
      throws BundleProblem {
    String all = bundles.stream().map(Found::describe).collect(Collectors.joining("; "));
    List<String> warnings = new ArrayList<>();
    if (configured != null) {
      List<Found> matching = bundles.stream().filter(b -> b.variant().equals(Optional.of(configured))).toList();
      if (matching.isEmpty()) {
        throw new BundleProblem("system property " + CUDA_VARIANT_PROPERTY + " asks for cu" + configured
            + ", but no class-path bundle is: " + all + ". Put the cu" + configured + " jar on the class path, or"
            + " set " + CUDA_VARIANT_PROPERTY + " to a variant there");
      }
      return new Choice(matching.get(0), "cu" + configured + ": system property " + CUDA_VARIANT_PROPERTY,
          duplicates(matching, configured, warnings));
    }
    if (bundles.size() == 1) {
      return new Choice(bundles.get(0), "the only class-path bundle", warnings);
    }
    TreeSet<Integer> variants = new TreeSet<>();
    bundles.forEach(b -> b.variant().ifPresent(variants::add));
    Signals signals = probe.get();
    Optional<Integer> driverMajor = signals.driverVersion().map(v -> v / 1000);
    String driver = signals.driverVersion().map(v -> "the driver supports CUDA " + v / 1000 + "." + v % 1000 / 10
        + " (" + signals.driver() + ")").orElse("no CUDA driver answered (" + signals.driver() + ")");
    TreeSet<Integer> runnable = new TreeSet<>(variants);
    driverMajor.ifPresent(d -> runnable.removeIf(v -> v > d));
    TreeSet<Integer> withCudart = new TreeSet<>(runnable);
    withCudart.retainAll(signals.cudarts().keySet());
    String cudarts = signals.cudarts().isEmpty() ? "no libcudart.so.N of a bundle's variant is found"
        : signals.cudarts().entrySet().stream().map(e -> "libcudart.so." + e.getKey() + " is found at "
            + e.getValue()).collect(Collectors.joining(", "));
    Integer variant;
    String reason;
    if (!withCudart.isEmpty()) {
      variant = withCudart.last();
      reason = "libcudart.so." + variant + " is found at " + signals.cudarts().get(variant) + " and " + driver;
    } else if (driverMajor.isPresent() && !runnable.isEmpty()) {
      variant = runnable.last();
      reason = driver + ", the newest variant it runs; " + cudarts;
    } else if (driverMajor.isPresent() && !variants.isEmpty()) {
      variant = variants.first();
      reason = driver;
      warnings.add("no class-path bundle's CUDA variant runs on this driver, which supports CUDA "
          + driverMajor.get() + " at most; using the oldest, cu" + variant + ". Update the NVIDIA driver, or put a"
          + " cu" + driverMajor.get() + " jar on the class path");
    } else {
      Found first = bundles.get(0);
      warnings.add("nothing says which CUDA runtime would load (" + driver + "; " + cudarts + "), so the first"
          + " class-path bundle is used, " + first.where() + ". Set -D" + CUDA_VARIANT_PROPERTY + "=<major> to choose");
      return new Choice(first, "the first on the class path; nothing says which CUDA runtime would load", warnings);
    }
    final Integer picked = variant;
    List<Found> matching = bundles.stream().filter(b -> b.variant().equals(Optional.of(picked))).toList();
    List<Found> unknown = bundles.stream().filter(b -> b.variant().isEmpty()).toList();
    if (!unknown.isEmpty()) {
      warnings.add("the CUDA variant of " + unknown.stream().map(Found::describe).collect(Collectors.joining("; "))
          + " is unknown, so it was not chosen. Make the jar with te:jar-wheel-lib given cudaMajor");
    }
    return new Choice(matching.get(0), "cu" + variant + ": " + reason, duplicates(matching, variant, warnings));
  }

  private static List<String> duplicates(List<Found> matching, int variant, List<String> warnings) {
    if (matching.size() > 1) {
      warnings.add(matching.size() + " class-path bundles are cu" + variant + ": " + matching.stream()
          .map(Found::where).collect(Collectors.joining(", ")) + "; using the first, " + matching.get(0).where()
          + ". Keep one jar per CUDA variant on the class path");
    }
    return List.copyOf(warnings);
  }

  /** The driver's supported CUDA version and the libcudart.so.N the loader search finds, for these variants. */
  public static Signals probe(Iterable<Integer> variants, ElfMachine machine) {
    Map<Integer, Path> cudarts = new TreeMap<>();
    for (int variant : variants) {
      LiveLoader.byNameInNamedFolders("libcudart.so." + variant, machine, new ArrayList<>())
          .flatMap(Dependency::file)
          .ifPresent(file -> cudarts.put(variant, file));
    }
    // Loaded below: found in named folders only (UnnamedFolders).
    Optional<Path> libcuda = LiveLoader.byNameInNamedFolders("libcuda.so.1", machine, new ArrayList<>())
        .flatMap(Dependency::file);
    if (libcuda.isEmpty()) {
      return new Signals(Optional.empty(), "libcuda.so.1 not found", cudarts);
    }
    String where = "cuDriverGetVersion of " + libcuda.get();
    // Opened for one call and closed: loading the driver is what any CUDA program does first, and it needs no cuInit.
    // CUresult cuDriverGetVersion(int *) has the version getters' shape.
    Libc.Opened opened = Libc.dlopen(libcuda.get().toString(), Libc.RTLD_LAZY | Libc.RTLD_LOCAL);
    if (!opened.ok()) {
      return new Signals(Optional.empty(), "could not open " + libcuda.get() + ": " + opened.error(), cudarts);
    }
    try {
      Optional<MemorySegment> function = Libc.dlsym(opened.handle(), "cuDriverGetVersion");
      if (function.isEmpty()) {
        return new Signals(Optional.empty(), libcuda.get() + " lacks cuDriverGetVersion", cudarts);
      }
      int[] version = new int[1];
      int status = VersionGetter.call(function.get(), version);
      if (status != 0 || version[0] <= 0) {
        return new Signals(Optional.empty(), where + " returned " + status, cudarts);
      }
      return new Signals(Optional.of(version[0]), where, cudarts);
    } finally {
      Libc.dlclose(opened.handle());
    }
  }
}
