package dev.tewheel.core.check.floor;

import dev.tewheel.core.requirement.PyVersion;
import dev.tewheel.core.requirement.Requirement;
import dev.tewheel.core.wheel.DistInfo;
import dev.tewheel.core.wheel.Metadata;
import dev.tewheel.core.zip.WheelArchive;
import dev.tewheel.core.wheel.WheelName;
import dev.tewheel.core.zip.ZipBombBounds;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A floorLibraries entry that is a pip wheel, as a distribution at a version: what a {@code Requires-Dist} minimum
 * names. The version is the file name's, and its METADATA must say the same Name and Version (pip installs by
 * METADATA; a renamed file would prove another version than the one declared).
 *
 * @param input the floorLibraries entry
 * @param name the distribution's canonical name (PEP 503)
 * @param version the version, or null when the wheel's name and METADATA do not give one they agree on
 * @param problem why it gives no version, or null
 */
public record FloorWheel(Path input, String name, PyVersion version, String problem) {
  /** The entry read as a wheel; empty for a library or a folder. */
  public static Optional<FloorWheel> of(Path input) {
    if (input.getFileName() == null || !input.getFileName().toString().endsWith(".whl")) {
      return Optional.empty();
    }
    WheelName wheelName;
    try {
      wheelName = WheelName.parse(input.getFileName().toString());
    } catch (IllegalArgumentException e) {
      return Optional.of(new FloorWheel(input, "", null, "a file name PEP 427 does not allow (" + e.getMessage()
          + ")"));
    }
    String name = Requirement.canonicalize(wheelName.distribution());
    PyVersion named;
    try {
      named = PyVersion.parse(wheelName.version());
    } catch (IllegalArgumentException e) {
      return Optional.of(new FloorWheel(input, name, null, "a file name whose version " + e.getMessage()));
    }
    try (WheelArchive archive = WheelArchive.open(input, ZipBombBounds.DEFAULTS)) {
      Optional<String> folder = DistInfo.folder(archive);
      Optional<String> text = folder.isEmpty() ? Optional.empty()
          : archive.text(folder.get() + "/METADATA", Metadata.MAX_BYTES);
      if (text.isEmpty()) {
        return Optional.of(new FloorWheel(input, name, null, "no METADATA in its dist-info folder"));
      }
      String declaredName = Metadata.name(text.get());
      String declaredVersion = Metadata.version(text.get());
      if (declaredName == null || !Requirement.canonicalize(declaredName).equals(name)) {
        return Optional.of(new FloorWheel(input, name, null, "METADATA Name: " + declaredName + " where its file"
            + " name says " + wheelName.distribution()));
      }
      if (declaredVersion == null || !PyVersion.isValid(declaredVersion)
          || !PyVersion.parse(declaredVersion).equals(named)) {
        return Optional.of(new FloorWheel(input, name, null, "METADATA Version: " + declaredVersion + " where its"
            + " file name says " + wheelName.version()));
      }
      return Optional.of(new FloorWheel(input, name, named, null));
    } catch (IOException e) {
      return Optional.of(new FloorWheel(input, name, null, "a wheel that cannot be read (" + e.getMessage() + ")"));
    }
  }

  /** The Requires-Dist value this floor proves: {@code <name>>=<version>}. */
  public String requirement() {
    return name + ">=" + version;
  }
}
