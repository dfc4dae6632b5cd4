package dev.tewheel.loader.te;

import dev.tewheel.loader.Host;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The site-packages TE's pip-wheel step searches: the one an installed TE wheel's wheel_lib sits in, else a
 * configured one ({@code te.sitePackages}), else {@code $VIRTUAL_ENV/lib/python3.*}{@code /site-packages} (the
 * highest Python).
 *
 * @param folder the site-packages; empty when none is known
 * @param source where it came from ({@code installed TE wheel}, {@code system property te.sitePackages}, ...)
 * @param installedWheel whether {@code folder} is the one an installed TE wheel's wheel_lib sits in (its
 *     dist-info then names TE's CUDA variant)
 */
public record TeSitePackages(Optional<Path> folder, String source, boolean installedWheel) {
  /** Site-packages given outright (a Python environment's purelib). */
  public static TeSitePackages of(Path folder, String source) {
    return new TeSitePackages(Optional.of(folder.toAbsolutePath().normalize()), source, false);
  }

  /**
   * The site-packages for a bundle folder.
   *
   * @param bundleFolder the wheel_lib in use, if any
   * @param configured the configured folder and its source ({@code system property te.sitePackages}), if any
   * @param host whose {@code VIRTUAL_ENV} is read
   */
  public static TeSitePackages choose(Optional<Path> bundleFolder, Optional<TeSitePackages> configured, Host host) {
    if (bundleFolder.isPresent()) {
      Path folder = bundleFolder.get().toAbsolutePath().normalize();
      Path te = folder.getParent();
      if (folder.getFileName() != null && folder.getFileName().toString().equals("wheel_lib") && te != null
          && te.getFileName() != null && te.getFileName().toString().equals("transformer_engine")
          && te.getParent() != null) {
        return new TeSitePackages(Optional.of(te.getParent()), "installed TE wheel", true);
      }
    }
    if (configured.isPresent()) {
      return configured.get();
    }
    Optional<String> venv = TeLoadSequence.env(host, "VIRTUAL_ENV");
    if (venv.isPresent()) {
      Path lib = Path.of(venv.get(), "lib");
      try (Stream<Path> pythons = Files.list(lib)) {
        Optional<Path> site = pythons.filter(p -> p.getFileName().toString().startsWith("python3"))
            .map(p -> p.resolve("site-packages")).filter(Files::isDirectory)
            .max(Comparator.comparing(p -> Versions.key(p.getParent().getFileName().toString().substring(6))));
        if (site.isPresent()) {
          return new TeSitePackages(site, "environment VIRTUAL_ENV", false);
        }
      } catch (IOException e) {
        // no lib/ folder: not a venv we can read
      }
    }
    return new TeSitePackages(Optional.empty(), "none", false);
  }
}
