package dev.tewheel.core.check.wheel;

import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.WheelCheck;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.zip.UnreadableZipException;
import dev.tewheel.core.zip.WheelArchive;
import dev.tewheel.core.zip.ZipLayout;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The archive reads one way only. Installers read zips differently (Python's zipfile by the central directory,
 * streaming readers by the local headers), so an archive that allows two readings installs other files than the
 * gate checked. The rules are {@link ZipLayout}'s (the strict reading uv adopted, see docs/checks.md), plus the
 * CRC-32 of every entry's bytes, which Python's zipfile, so pip, verifies while the other checks only hash.
 */
public final class WheelZipCheck extends WheelCheck {
  public static final String ID = "WHEEL-ZIP";
  static final String FIX = "rebuild the wheel from its staged files with a PEP 427 tool (te:pack-wheel, wheel pack);"
      + " never patch, append to or concatenate a .whl: installers that read such an archive differently install"
      + " different files";

  public WheelZipCheck() {
    super(ID, "the archive reads one way only: local headers, data descriptors and CRC-32s agree with the"
        + " central directory; no bytes before, between, inside or after the entries", Severity.ERROR);
  }

  /**
   * The findings for a file no zip reader opens, so there is no subject to run on: what {@link ZipLayout} found,
   * else the reader's reason.
   */
  public static List<Finding> unreadable(String whl, UnreadableZipException e) {
    WheelZipCheck check = new WheelZipCheck();
    List<Finding> findings = new ArrayList<>();
    for (ZipLayout.Problem problem : e.problems()) {
      findings.add(check.finding(problem.entry().map(name -> whl + "!" + name).orElse(whl), problem.found(),
          problem.expected(), FIX));
    }
    if (findings.isEmpty()) {
      findings.add(check.finding(whl, "a file no zip reader opens (" + e.getMessage() + ")",
          "a zip archive (a .whl is one)", FIX));
    }
    return findings;
  }

  @Override
  protected List<Finding> check(WheelArchive wheel, Subject subject) {
    List<Finding> findings = new ArrayList<>();
    for (ZipLayout.Problem problem : wheel.zipProblems()) {
      findings.add(finding(problem.entry().map(wheel::origin).orElse(wheel.path()), problem.found(),
          problem.expected(), FIX));
    }
    Set<String> seen = new HashSet<>();
    for (WheelArchive.Entry entry : wheel.entries()) {
      if (entry.directory() || !seen.add(entry.name())) {
        continue; // a second entry of a name is WHEEL-PATHS' to report
      }
      try {
        wheel.sha256(entry.name()); // read once and kept: WHEEL-RECORD has read most entries already
      } catch (IOException e) {
        continue; // unreadable or refused (WHEEL-BOMB): the check that needed its bytes reports it
      }
      wheel.crcProblem(entry.name()).ifPresent(problem -> findings.add(finding(wheel.origin(entry.name()),
          problem.found(), problem.expected(), FIX)));
    }
    return findings;
  }
}
