package dev.tewheel.core.verify;

import dev.tewheel.core.check.catalogue.CheckCatalogue;
import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.policy.PlatformTag;
import dev.tewheel.core.policy.PlatformTags;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.platform.SuggestedPlatform;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.check.wheel.WheelBombCheck;
import dev.tewheel.core.check.wheel.WheelZipCheck;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Gate;
import dev.tewheel.core.gate.GateReport;
import dev.tewheel.core.gate.ReportKind;
import dev.tewheel.core.gate.ReportWriter;
import dev.tewheel.core.zip.OverBoundException;
import dev.tewheel.core.zip.UnreadableZipException;
import dev.tewheel.core.wheel.WheelName;
import dev.tewheel.elf.GpuCode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/** The release gate: every check of the catalogue on a wheel_lib folder or a .whl, judged by {@link Gate}. */
public final class Verifier {
  /** report.json's key for the most compatible platform tag the libraries allow. */
  public static final String SUGGESTED_TAG = "suggestedPlatformTag";

  /**
   * Runs the checks and writes the reports when a report folder is given.
   *
   * @throws IOException when the input cannot be read at all (a missing folder or file); a file that is no zip
   *     archive is a WHEEL-ZIP finding
   */
  public GateReport verify(VerifyRequest request) throws IOException {
    return request.input() instanceof VerifyRequest.Wheel wheel ? verifyWheel(request, wheel.path())
        : verifyFolder(request, request.input().path());
  }

  private GateReport verifyFolder(VerifyRequest request, Path wheelLib) throws IOException {
    PlatformTags platform = platform(request, null);
    CheckSettings settings = request.settings().withPlatform(platform);
    Subject subject = FolderSubject.read(wheelLib, request.layout(), settings);
    return finish(request, subject, platform);
  }

  /**
   * Verifies the .whl at the request's .whl as if it sat at {@code shownAs}: its platform comes from that name
   * and findings name that path, before suppressions match them. Pack verifies a new wheel beside its target, under
   * the same file name, before renaming it into place; its verdict and report are then those verify gives the
   * wheel at the target.
   */
  public GateReport verifyAs(VerifyRequest request, Path shownAs) throws IOException {
    wheelOf(request, "verifyAs");
    return verifyWheel(request, shownAs);
  }

  /**
   * A verdict and what {@code facts} read of the same opened wheel, while it was open (te:verify-release's matrix
   * reads each wheel once, with the checks).
   *
   * @param facts null when the wheel could not be opened (its verdict says why)
   */
  public record Verified<T>(GateReport report, T facts) {}

  /** Verifies a .whl and reads {@code facts} of its subject before the wheel is closed. */
  public <T> Verified<T> verifyWith(VerifyRequest request, Function<Subject, T> facts) throws IOException {
    Path wheel = wheelOf(request, "verifyWith");
    List<T> read = new ArrayList<>(1);
    GateReport report = verifyWheel(request, wheel, subject -> read.add(facts.apply(subject)));
    return new Verified<>(report, read.isEmpty() ? null : read.get(0));
  }

  private static Path wheelOf(VerifyRequest request, String method) {
    if (request.input() instanceof VerifyRequest.Wheel wheel) {
      return wheel.path();
    }
    throw new IllegalArgumentException(method + " takes a .whl, not a wheel_lib folder");
  }

  private GateReport verifyWheel(VerifyRequest request, Path shownAs) throws IOException {
    return verifyWheel(request, shownAs, subject -> {});
  }

  /** The .whl branch: the wheel is opened in place and closed when the checks are done. */
  private GateReport verifyWheel(VerifyRequest request, Path shownAs, java.util.function.Consumer<Subject> whileOpen)
      throws IOException {
    Path whl = wheelOf(request, "verify");
    List<String> fromName;
    Integer variant = request.settings().cudaMajor();
    try {
      WheelName name = WheelName.parse(shownAs.getFileName().toString());
      fromName = name.platforms(); // every tag of the set: pip installs the wheel through any one of them
      if (variant == null && name.cudaMajor().isPresent()) {
        variant = name.cudaMajor().getAsInt(); // the configured cudaMajor wins; else the _cuNN of the name
      }
    } catch (IllegalArgumentException e) {
      fromName = null; // WHEEL-TAGS reports the name; the platform falls back to this machine
    }
    PlatformTags platform = platform(request, fromName);
    CheckSettings settings = request.settings().withPlatform(platform).withCudaMajor(variant);
    UnaryOperator<Finding> shown = shownAs.equals(whl) ? UnaryOperator.identity()
        : shownAt(whl.toString(), shownAs.toString());
    WheelSubject opened;
    try {
      opened = WheelSubject.open(whl, request.wheelLibPath(), request.layout(), settings);
    } catch (UnreadableZipException | OverBoundException e) {
      // pip refuses such a file too, and one over the entry bound is not read on: a verdict with a check ID.
      List<Finding> findings = e instanceof OverBoundException bomb
          ? List.of(WheelBombCheck.refused(whl.toString(), bomb))
          : WheelZipCheck.unreadable(whl.toString(), (UnreadableZipException) e);
      return report(request, Gate.judge(ReportKind.VERIFY, CheckCatalogue.forLayout(request.layout()),
          findings.stream().map(shown).toList(), "wheel_lib " + shownAs.getFileName() + "!"
              + request.wheelLibPath(), request.policy()), platform, new VerifyDetails(List.of(), null));
    }
    try (WheelSubject wheel = opened) {
      Subject subject = wheel.subject();
      whileOpen.accept(subject);
      return report(request, Gate.judge(ReportKind.VERIFY, CheckCatalogue.forLayout(subject.layout()).mapFindings(shown),
          subject, subject.description(), request.policy()), platform, details(subject));
    }
  }

  /** A finding about the file at {@code actual} (or inside it) named as if it sat at {@code shownAs}. */
  private static UnaryOperator<Finding> shownAt(String actual, String shownAs) {
    return finding -> !finding.file().startsWith(actual) ? finding
        : finding.inFile(shownAs + finding.file().substring(actual.length()));
  }

  /**
   * The tags the libraries are held to: the configured tag or set, else every tag of the wheel's file name (PLATFORM
   * adds its WHEEL Tag lines and reports a tag it cannot read), else this machine's linux_&lt;arch&gt;.
   */
  static PlatformTags platform(VerifyRequest request, List<String> fromWheelName) {
    if (request.platformTag() != null && !request.platformTag().isBlank()) {
      return PlatformTags.parse(request.platformTag());
    }
    return fromWheelName != null ? PlatformTags.carried(fromWheelName) : PlatformTags.of(PlatformTag.ofThisMachine());
  }

  /** Per library, for report.json: its path in wheel_lib and the CUDA device code it carries (null: unreadable). */
  static List<VerifyDetails.LibraryCode> libraries(Subject subject) {
    List<VerifyDetails.LibraryCode> libraries = new ArrayList<>();
    for (SubjectFile library : subject.libraries()) {
      List<String> sass = null;
      List<String> ptx = null;
      try {
        GpuCode code = subject.gpuCode(library);
        sass = List.copyOf(code.sass());
        ptx = List.copyOf(code.ptx());
      } catch (IOException e) {
        // unreadable: both null, as the schema allows; GPU-ARCHS and ELF-SHARED-OBJECT say why
      }
      libraries.add(new VerifyDetails.LibraryCode(library.path(), sass, ptx));
    }
    return libraries;
  }

  /**
   * report.json's keys before the findings: the libraries' GPU code and, when there are libraries of the platform's
   * architecture, the most compatible tag they allow ({@link SuggestedPlatform}) and what limits it.
   */
  static VerifyDetails details(Subject subject) {
    return new VerifyDetails(libraries(subject), SuggestedPlatform.of(subject).orElse(null));
  }

  GateReport finish(VerifyRequest request, Subject subject, PlatformTags platform) throws IOException {
    return report(request, Gate.judge(ReportKind.VERIFY, CheckCatalogue.forLayout(subject.layout()), subject,
        subject.description(), request.policy()), platform, details(subject));
  }

  /** The judged report with verify's details, written when a report folder is given. */
  private static GateReport report(VerifyRequest request, GateReport judged, PlatformTags platform,
      VerifyDetails details) throws IOException {
    GateReport report = judged.withPlatformTag(platform.text()).withDetails(details);
    ReportWriter.write(report, request.reportDirectory(), request.projectBase());
    return report;
  }
}
