package dev.tewheel.runtime.internal.search;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.bundle.layout.WheelLibPaths;
import dev.tewheel.runtime.report.NcclVersion;
import dev.tewheel.runtime.report.Provenance;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * What the API was given; null means "not given", and then the system property (read when it is needed, so the
 * diagnostics show the current value) or the default applies.
 */
public record Config(Path wheelLib, Integer ncclEpMajor, Path ncclLibrary, NcclVersion minimumNcclVersion,
    Path cacheFolder, String resourceFolder, ClassLoader classLoader, Boolean verifyDigests) {
  public static final String WHEEL_LIB_PROPERTY = "te.wheelLib";
  public static final String WHEEL_LIB_ENV = "TE_WHEEL_LIB";
  public static final String NCCL_EP_HOME_ENV = "NCCL_EP_HOME";
  public static final String NCCL_EP_MAJOR_PROPERTY = "te.ncclEpMajor";
  public static final String NCCL_LIBRARY_PROPERTY = "te.ncclLibrary";
  public static final String MINIMUM_NCCL_PROPERTY = "te.minimumNcclVersion";
  public static final String RESOURCE_FOLDER_PROPERTY = "te.classpathBundle";
  public static final String VERIFY_DIGESTS_PROPERTY = "te.verifyDigests";

  /** NCCL EP major: the given one, else te.ncclEpMajor, else null. */
  public Integer effectiveNcclEpMajor() {
    if (ncclEpMajor != null) {
      return ncclEpMajor;
    }
    String text = property(NCCL_EP_MAJOR_PROPERTY);
    if (text == null) {
      return null;
    }
    try {
      int major = Integer.parseInt(text.strip());
      if (major >= 0) {
        return major;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("system property " + NCCL_EP_MAJOR_PROPERTY + "='" + text
        + "' is not an NCCL EP major version (a number >= 0, e.g. 0)");
  }

  public Provenance ncclEpMajorSource() {
    return ncclEpMajor != null
        ? new Provenance(Provenance.Origin.API, "configured: TeRuntime.Builder.ncclEpMajor")
        : property(NCCL_EP_MAJOR_PROPERTY) != null ? new Provenance(Provenance.Origin.SYSTEM_PROPERTY,
            "system property " + NCCL_EP_MAJOR_PROPERTY) : null;
  }

  public Path effectiveNcclLibrary() {
    Path file = ncclLibrary;
    if (file == null) {
      String text = property(NCCL_LIBRARY_PROPERTY);
      file = text == null ? null : path("system property " + NCCL_LIBRARY_PROPERTY, text);
    }
    return file == null ? null : file.toAbsolutePath().normalize();
  }

  public NcclVersion effectiveMinimumNcclVersion() {
    if (minimumNcclVersion != null) {
      return minimumNcclVersion;
    }
    String text = property(MINIMUM_NCCL_PROPERTY);
    try {
      return text == null ? NcclVersion.EP_MINIMUM : NcclVersion.parse(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("system property " + MINIMUM_NCCL_PROPERTY + ": " + e.getMessage(), e);
    }
  }

  public Path effectiveCacheFolder() {
    if (cacheFolder != null) {
      return cacheFolder.toAbsolutePath().normalize();
    }
    String text = property(ClasspathBundle.CACHE_PROPERTY);
    return (text == null ? ClasspathBundle.defaultCacheFolder() : path("system property "
        + ClasspathBundle.CACHE_PROPERTY, text)).toAbsolutePath().normalize();
  }

  public String effectiveResourceFolder() {
    if (resourceFolder != null) {
      return resourceFolder;
    }
    String text = property(RESOURCE_FOLDER_PROPERTY);
    return text == null ? Layout.RESOURCE_FOLDER : text;
  }

  public ClassLoader effectiveClassLoader() {
    if (classLoader != null) {
      return classLoader;
    }
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    return context != null ? context : Config.class.getClassLoader();
  }

  public boolean effectiveVerifyDigests() {
    if (verifyDigests != null) {
      return verifyDigests;
    }
    String text = property(VERIFY_DIGESTS_PROPERTY);
    return text != null && (text.isEmpty() || text.strip().toLowerCase(Locale.ROOT).equals("true"));
  }

  /**
   * {@code text} as a path; {@code source} (e.g. {@code system property te.wheelLib}) names it when it is none.
   *
   * @throws IllegalArgumentException naming the source and the value, control characters escaped, instead of the
   *     JDK's InvalidPathException
   */
  static Path path(String source, String text) {
    try {
      return Path.of(text);
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException(source + "=" + WheelLibPaths.quoted(text) + " is not a path ("
          + e.getReason() + "): give a folder or file name", e);
    }
  }

  static String property(String name) {
    return nonBlank(System.getProperty(name));
  }

  /** A property's or variable's value, null when unset or blank. */
  static String nonBlank(String value) {
    return value == null || value.isBlank() ? null : value;
  }
}
