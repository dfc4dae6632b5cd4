package dev.tewheel.core.doctor;

import dev.tewheel.core.requirement.Requirement;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * One installed distribution, from its {@code .dist-info}: what pip recorded when it installed it.
 *
 * @param name METADATA's Name, as written
 * @param version METADATA's Version
 * @param distInfo the .dist-info folder
 * @param purelibWheel whether RECORD lists a WHEEL file that says {@code Root-Is-Purelib: true}: TE's test of
 *     "installed from PyPI" ({@code _is_package_installed_from_wheel})
 * @param requiresDist METADATA's Requires-Dist values, in order
 * @param files the files RECORD lists, resolved against the folder the dist-info sits in
 */
public record Distribution(String name, String version, Path distInfo, boolean purelibWheel, List<String> requiresDist,
    List<Path> files) {
  public Distribution {
    requiresDist = List.copyOf(requiresDist);
    files = List.copyOf(files);
  }

  /** PEP 503's normalized name: lower case, runs of '-', '_' and '.' as one '-'. */
  public String key() {
    return normalize(name);
  }

  /** {@code name==version}, as pip freeze writes it. */
  public String label() {
    return name + "==" + version;
  }

  public static String normalize(String name) {
    return Requirement.canonicalize(name);
  }

  /**
   * The Requires-Dist entry for {@code distribution} (by normalized name), without its marker, if declared; read as
   * pip reads it ({@link Requirement}), an entry pip would refuse is no declaration.
   */
  public Optional<String> requirement(String distribution) {
    String wanted = normalize(distribution);
    for (String requirement : requiresDist) {
      try {
        if (Requirement.parse(requirement).canonicalName().equals(wanted)) {
          return Optional.of(requirement.split(";", 2)[0].strip());
        }
      } catch (IllegalArgumentException e) {
        // not a requirement pip would read
      }
    }
    return Optional.empty();
  }
}
