package dev.tewheel.core.verify;

import dev.tewheel.core.check.CheckCatalogue;
import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.check.Finding;
import dev.tewheel.core.check.PlatformTag;
import dev.tewheel.core.check.Severity;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SuggestedPlatform;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.check.WheelZipCheck;
import dev.tewheel.core.wheel.UnreadableZipException;
import dev.tewheel.core.wheel.WheelName;
import dev.tewheel.elf.GpuCode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/** The release gate: every check of the catalogue on a wheel_lib folder or a .whl, suppressions applied. */
public final class Verifier {
  /** report.json's key for the most compatible platform tag the libraries allow. */
  public static final String SUGGESTED_TAG = "suggestedPlatformTag";

  /**
   * Runs the checks and writes the reports when a report folder is given.
   *
   * @throws IOException when the input cannot be read at all (a missing folder or file); a file that is no zip
   *     archive is a WHEEL-ZIP finding
   */
  public VerifyReport verify(VerifyRequest request) throws IOException {
    if (request.wheel() != null) {
      return verifyWheel(request);
    }
    PlatformTag platform = platform(request, null);
    CheckSettings settings = request.settings().withPlatform(platform);
    Subject subject = FolderSubject.read(request.wheelLib(), request.layout(), settings);
    return finish(request, subject, platform);
  }

  /**
   * Verifies the .whl at {@code request.wheel()} as if it sat at {@code shownAs}: its platform comes from that name
   * and findings name that path, before suppressions match them. Pack verifies a new wheel beside its target, under
   * the same file name, before renaming it into place; its verdict and report are then those verify gives the
   * wheel at the target.
   */
  public VerifyReport verifyAs(VerifyRequest request, Path shownAs) throws IOException {
    if (request.wheel() == null) {
      throw new IllegalArgumentException("verifyAs takes a .whl, not a wheel_lib folder");
    }
    return verifyWheel(request, shownAs);
  }

  /** The .whl branch: the wheel is opened in place and closed when the checks are done. */
  private VerifyReport verifyWheel(VerifyRequest request) throws IOException {
    return verifyWheel(request, request.wheel());
  }

  private VerifyReport verifyWheel(VerifyRequest request, Path shownAs) throws IOException {
    String fromName;
    Integer variant = request.settings().cudaMajor();
    try {
      WheelName name = WheelName.parse(shownAs.getFileName().toString());
      fromName = name.platforms().get(0);
      if (variant == null && name.cudaMajor().isPresent()) {
        variant = name.cudaMajor().getAsInt(); // the configured cudaMajor wins; else the _cuNN of the name
      }
    } catch (IllegalArgumentException e) {
      fromName = null; // WHEEL-TAGS reports the name; the platform falls back to this machine
    }
    PlatformTag platform = platform(request, fromName);
    CheckSettings settings = request.settings().withPlatform(platform).withCudaMajor(variant);
    UnaryOperator<Finding> shown = shownAs.equals(request.wheel()) ? UnaryOperator.identity()
        : shownAt(request.wheel().toString(), shownAs.toString());
    WheelSubject opened;
    try {
      opened = WheelSubject.open(request.wheel(), request.wheelLibPath(), request.layout(), settings);
    } catch (UnreadableZipException e) {
      // pip refuses such a file too: a verdict with a check ID, not a missing one.
      List<Finding> findings = WheelZipCheck.unreadable(request.wheel().toString(), e);
      Severity override = request.severityOverrides().get(WheelZipCheck.ID);
      return report(request, "wheel_lib " + shownAs.getFileName() + "!" + request.wheelLibPath(), platform,
          (override == null ? findings : findings.stream().map(f -> f.withSeverity(override)).toList()).stream()
              .map(shown).toList(),
          Map.of("libraries", List.of()));
    }
    try (WheelSubject wheel = opened) {
      return report(request, wheel.subject().description(), platform,
          CheckCatalogue.run(wheel.subject(), request.severityOverrides()).stream().map(shown).toList(),
          details(wheel.subject()));
    }
  }

  /** A finding about the file at {@code actual} (or inside it) named as if it sat at {@code shownAs}. */
  private static UnaryOperator<Finding> shownAt(String actual, String shownAs) {
    return finding -> !finding.file().startsWith(actual) ? finding : new Finding(finding.checkId(),
        finding.severity(), shownAs + finding.file().substring(actual.length()), finding.found(), finding.expected(),
        finding.fix());
  }

  static PlatformTag platform(VerifyRequest request, String fromWheelName) {
    if (request.platformTag() != null && !request.platformTag().isBlank()) {
      return PlatformTag.parse(request.platformTag());
    }
    return fromWheelName != null ? PlatformTag.parse(fromWheelName) : PlatformTag.ofThisMachine();
  }

  /** Per library, for report.json: its path in wheel_lib and the CUDA device code it carries (null: unreadable). */
  static List<Object> libraries(Subject subject) {
    List<Object> libraries = new ArrayList<>();
    for (SubjectFile library : subject.libraries()) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("path", library.path());
      try {
        GpuCode code = subject.gpuCode(library);
        entry.put("sass", List.copyOf(code.sass()));
        entry.put("ptx", List.copyOf(code.ptx()));
      } catch (IOException e) {
        entry.put("sass", null);
        entry.put("ptx", null);
      }
      libraries.add(entry);
    }
    return libraries;
  }

  /**
   * report.json's keys before the findings: the libraries' GPU code and, when there are libraries of the platform's
   * architecture, the most compatible tag they allow ({@link SuggestedPlatform}) and what limits it.
   */
  static Map<String, Object> details(Subject subject) {
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("libraries", libraries(subject));
    SuggestedPlatform.of(subject).ifPresent(suggestion -> {
      details.put(SUGGESTED_TAG, suggestion.tag());
      details.put("suggestedPlatformTagLimits", suggestion.limits());
    });
    return details;
  }

  VerifyReport finish(VerifyRequest request, Subject subject, PlatformTag platform) throws IOException {
    return report(request, subject.description(), platform, CheckCatalogue.run(subject, request.severityOverrides()),
        details(subject));
  }

  /** The report of these findings, suppressions applied, written when a report folder is given. */
  private static VerifyReport report(VerifyRequest request, String description, PlatformTag platform,
      List<Finding> findings, Map<String, Object> details) throws IOException {
    Suppression.Applied applied = Suppression.apply(request.suppressions(), findings);
    VerifyReport report = new VerifyReport(description, platform.tag(), request.failOn(),
        CheckCatalogue.forLayout(request.layout()), applied.active(), applied.suppressed(), "verify-wheel-lib",
        details, applied.unmatched());
    if (request.reportDirectory() != null) {
      new ReportWriter(report).write(request.reportDirectory());
    }
    return report;
  }
}
