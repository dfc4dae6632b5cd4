package dev.tewheel.core.check.wheel;

import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.WheelCheck;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.wheel.DistInfo;
import dev.tewheel.core.wheel.Metadata;
import dev.tewheel.core.zip.WheelArchive;
import dev.tewheel.core.wheel.WheelFile;
import dev.tewheel.core.wheel.WheelName;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The wheel's name, its one dist-info folder and its WHEEL and METADATA files agree: the distribution and version
 * of the file name are the dist-info folder's and METADATA's, WHEEL says {@code Wheel-Version: 1.0} and {@code Root-Is-Purelib: false}, and its
 * {@code Tag:} lines are exactly the tags the file name expands to. TE's release repacks its wheel per CUDA major,
 * renaming the file, the folder and the tags by hand: this is where such a repack goes wrong.
 */
public final class WheelTagsCheck extends WheelCheck {
  /**
   * A file of the dist-info folder that pip requires, and what a finding says when it is missing or unreadable.
   *
   * @param name its name in the folder
   * @param maxBytes the most of it read
   * @param readable what an unreadable one should be
   * @param contents what a missing one should hold
   * @param fix the fix of a missing one (METADATA's also of a wrong Name or Version)
   */
  private record DistInfoFile(String name, int maxBytes, String readable, String contents, String fix) {
    String in(WheelArchive wheel, String folder) {
      return wheel.path() + "!" + folder + "/" + name;
    }
  }

  private static final DistInfoFile METADATA = new DistInfoFile("METADATA", Metadata.MAX_BYTES, "a readable METADATA",
      "METADATA with Metadata-Version, Name and Version", "write METADATA as the tool that built the wheel does"
          + " (te:pack-wheel, wheel pack keep it); pip refuses a wheel whose METADATA is missing or names another"
          + " distribution or version");
  private static final DistInfoFile WHEEL = new DistInfoFile("WHEEL", WheelFile.MAX_BYTES, "a readable WHEEL file",
      "WHEEL with Wheel-Version, Root-Is-Purelib and Tag lines", "build the wheel with a PEP 427 tool (wheel pack,"
          + " pip wheel), which writes WHEEL");

  public WheelTagsCheck() {
    super("WHEEL-TAGS",
        "the file name, the dist-info folder, METADATA's Name and Version and WHEEL's Wheel-Version,"
            + " Root-Is-Purelib and Tag lines agree", Severity.ERROR);
  }

  @Override
  protected List<Finding> check(WheelArchive wheel, Subject subject) {
    List<Finding> findings = new ArrayList<>();
    WheelName name = null;
    try {
      name = WheelName.parse(wheel.fileName());
    } catch (WheelName.Malformed e) {
      findings.add(finding(wheel.path(), "a file name PEP 427 does not allow: " + e.reason(), WheelName.TEMPLATE,
          "name the file as the tool that built the wheel did, e.g."
              + " transformer_engine_cu12-2.9.0-py3-none-manylinux_2_28_x86_64.whl"));
    }
    String expectedFolder = name == null ? "<distribution>-<version>.dist-info" : name.distInfo();
    SortedSet<String> folders = DistInfo.folders(wheel);
    if (folders.size() != 1) {
      findings.add(finding(wheel.path(), folders.isEmpty() ? "no *.dist-info folder"
          : folders.size() + " dist-info folders (" + String.join(", ", folders) + ")",
          "exactly one dist-info folder, " + expectedFolder, "build the wheel with one tool in one go (wheel pack,"
              + " pip wheel); when repacking, rename the dist-info folder instead of adding one"));
    }
    if (folders.isEmpty()) {
      return findings;
    }
    String folder = DistInfo.folder(wheel).orElseGet(() -> folders.stream()
        .filter(f -> wheel.entries().stream().anyMatch(e -> e.name().equals(f + "/WHEEL"))).findFirst()
        .orElse(folders.first()));
    if (name != null && !name.isDistInfo(folder)) {
      findings.add(finding(wheel.path() + "!" + folder + "/", "dist-info folder " + folder, expectedFolder
          + " as the file name says (compared lower-case, runs of -_. as one)", "rename the dist-info folder and"
              + " METADATA's Name together with the file (TE's per-CUDA repack renames all three)"));
    }
    checkWheelFile(wheel, folder, name, findings);
    checkMetadata(wheel, folder, name, findings);
    return findings;
  }

  /**
   * METADATA is there, by its exact name, and its Name and Version are the file name's: pip reads it from the
   * dist-info folder and refuses a wheel without it, or whose Name or Version is not the file name's.
   */
  private void checkMetadata(WheelArchive wheel, String folder, WheelName name, List<Finding> findings) {
    Optional<String> text = read(wheel, folder, METADATA, findings);
    if (text.isEmpty()) {
      return;
    }
    String file = METADATA.in(wheel, folder);
    String fix = METADATA.fix();
    if (name == null) {
      return;
    }
    String declared = Metadata.name(text.get());
    if (declared == null || !WheelName.normalize(declared).equals(WheelName.normalize(name.distribution()))) {
      findings.add(finding(file, declared == null ? "no Name line" : "Name: " + declared, "Name: "
          + name.distribution() + " as the file name says (compared lower-case, runs of -_. as one)", fix));
    }
    String version = Metadata.version(text.get());
    if (version == null || !version.equalsIgnoreCase(name.version())) {
      findings.add(finding(file, version == null ? "no Version line" : "Version: " + version, "Version: "
          + name.version() + " as the file name says", fix));
    }
  }

  private void checkWheelFile(WheelArchive wheel, String folder, WheelName name, List<Finding> findings) {
    Optional<String> text = read(wheel, folder, WHEEL, findings);
    if (text.isEmpty()) {
      return;
    }
    String file = WHEEL.in(wheel, folder);
    WheelFile parsed = WheelFile.parse(text.get());
    String version = parsed.wheelVersion();
    String purelib = parsed.rootIsPurelib();
    String build = parsed.build();
    SortedSet<String> tags = new TreeSet<>(parsed.tags());
    if (version == null || !version.matches("1(\\.\\d+)?")) {
      findings.add(finding(file, version == null ? "no Wheel-Version line" : "Wheel-Version: " + version,
          "Wheel-Version: 1.0", "write WHEEL as PEP 427 says (wheel pack writes Wheel-Version: 1.0); installers"
              + " refuse a wheel of another major version"));
    }
    if (purelib == null || !purelib.equalsIgnoreCase("false")) {
      findings.add(finding(file, purelib == null ? "no Root-Is-Purelib line" : "Root-Is-Purelib: " + purelib,
          "Root-Is-Purelib: false for a wheel carrying native libraries", "mark the wheel platform-specific"
              + " (Root-Is-Purelib: false; setuptools does so when the distribution has ext_modules or"
              + " has_ext_modules() returns true)"));
    }
    if (name == null) {
      return;
    }
    SortedSet<String> expected = new TreeSet<>(name.tags());
    if (!tags.equals(expected)) {
      SortedSet<String> missing = new TreeSet<>(expected);
      missing.removeAll(tags);
      SortedSet<String> extra = new TreeSet<>(tags);
      extra.removeAll(expected);
      findings.add(finding(file, (tags.isEmpty() ? "no Tag lines" : "Tag: " + String.join(", ", tags))
          + (missing.isEmpty() ? "" : " (missing " + String.join(", ", missing) + ")")
          + (extra.isEmpty() ? "" : " (not in the file name: " + String.join(", ", extra) + ")"),
          "Tag: " + String.join(", ", expected) + ", the tags of the file name " + wheel.fileName(),
          "write one Tag line per python-abi-platform combination of the file name (wheel pack and wheel tags"
              + " keep them in step); when repacking, change the Tag lines and the file name together"));
    }
    if (name.build().isPresent() && !name.build().get().equals(build)) {
      findings.add(finding(file, build == null ? "no Build line" : "Build: " + build,
          "Build: " + name.build().get() + " as the file name says", "write the build tag into WHEEL"
              + " (wheel pack --build-number does both)"));
    }
  }

  /** The file's text; empty, after a finding, when it is missing or cannot be read. */
  private Optional<String> read(WheelArchive wheel, String folder, DistInfoFile distInfoFile, List<Finding> findings) {
    String file = distInfoFile.in(wheel, folder);
    Optional<String> text;
    try {
      text = wheel.text(folder + "/" + distInfoFile.name(), distInfoFile.maxBytes());
    } catch (IOException e) {
      findings.add(finding(file, "a " + distInfoFile.name() + " that cannot be read (" + e.getMessage() + ")",
          distInfoFile.readable(), "rebuild the wheel"));
      return Optional.empty();
    }
    if (text.isEmpty()) {
      findings.add(finding(file, "no " + distInfoFile.name() + " file", distInfoFile.contents(), distInfoFile.fix()));
    }
    return text;
  }
}
