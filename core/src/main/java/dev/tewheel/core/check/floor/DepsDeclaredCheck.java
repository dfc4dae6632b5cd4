package dev.tewheel.core.check.floor;

import dev.tewheel.core.check.Libraries;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.check.WheelCheck;
import dev.tewheel.core.check.deps.NvidiaDistributions.Distribution;
import dev.tewheel.core.check.deps.NvidiaDistributions;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.policy.PlatformTag;
import dev.tewheel.core.policy.PlatformTags;
import dev.tewheel.core.requirement.Marker;
import dev.tewheel.core.requirement.PyVersion;
import dev.tewheel.core.requirement.Requirement;
import dev.tewheel.core.requirement.Specifier;
import dev.tewheel.core.wheel.DistInfo;
import dev.tewheel.core.wheel.Metadata;
import dev.tewheel.core.zip.WheelArchive;
import dev.tewheel.elf.ElfFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The wheel's declared minimums of NVIDIA's distributions are the floors its libraries were proven to bind on: every
 * {@code Requires-Dist} naming a distribution of {@link NvidiaDistributions} is of the wheel's CUDA major, and its
 * lower bound is the version of a floor wheel SYMBOL-FLOOR passed ({@link SymbolFloorCheck#prove}); a floor wheel
 * that passed and is not declared is a warning with the line to add. Pip keeps an older installed library when the
 * wheel declares no minimum, and the import then fails on an undefined symbol.
 */
public final class DepsDeclaredCheck extends WheelCheck {
  public static final String ID = "DEPS-DECLARED";
  /** The Python versions a marker is tried with: a requirement counts when it applies to any of them. */
  private static final List<String> PYTHONS = List.of("3.8", "3.9", "3.10", "3.11", "3.12", "3.13", "3.14");

  public DepsDeclaredCheck() {
    super(ID, "every Requires-Dist on NVIDIA's distributions is of the wheel's CUDA major, and its minimum is a floor"
        + " wheel the libraries were proven to bind on (SYMBOL-FLOOR)", Severity.ERROR);
  }

  /** One Requires-Dist on a distribution of the table, where METADATA says it. */
  private record Declared(Requirement requirement, Distribution distribution, int line, String text) {}

  @Override
  protected List<Finding> check(WheelArchive wheel, Subject subject) {
    List<SubjectFile> libraries = Libraries.of(subject);
    Optional<String> folder = DistInfo.folder(wheel);
    if (libraries.isEmpty() || folder.isEmpty()) {
      return List.of(); // nothing to declare, or WHEEL-TAGS says why there is no METADATA
    }
    String file = wheel.path() + "!" + folder.get() + "/METADATA";
    String text;
    try {
      Optional<String> read = wheel.text(folder.get() + "/METADATA", Metadata.MAX_BYTES);
      if (read.isEmpty()) {
        return List.of();
      }
      text = read.get();
    } catch (IOException e) {
      return List.of(finding(file, "a METADATA that cannot be read (" + e.getMessage() + ")", "a readable METADATA",
          "rebuild the wheel"));
    }
    List<Finding> findings = new ArrayList<>();
    Integer variant = subject.settings().cudaMajor();
    List<Map<String, String>> environments = environments(subject, text);
    List<Declared> declared = new ArrayList<>();
    java.util.Set<String> applying = new java.util.HashSet<>();
    for (Metadata.Header header : Metadata.headers(text, "Requires-Dist")) {
      Requirement requirement;
      try {
        requirement = Requirement.parse(header.value());
      } catch (IllegalArgumentException e) {
        findings.add(finding(file, "Requires-Dist: " + header.value() + ", which pip cannot read (" + e.getMessage()
            + ")", "a PEP 508 requirement", "write it as name[extras] specifiers; marker, e.g. nvidia-nccl-cu12"
                + ">=2.30.4; sys_platform == \"linux\"").atLine(header.line()));
        continue;
      }
      Optional<Distribution> distribution = NvidiaDistributions.named(requirement.name());
      Optional<String> applies = applies(requirement, environments);
      if (applies != null && applies.isPresent()) {
        applying.add(requirement.canonicalName());
      }
      if (distribution.isEmpty()) {
        continue;
      }
      if (applies == null) {
        findings.add(finding(file, "Requires-Dist: " + header.value() + ", whose marker pip cannot evaluate on this"
            + " wheel's platform", "a marker of the variables pip knows (sys_platform, platform_machine,"
            + " python_version, extra, ...)", "fix the marker; pip stops installing the wheel on it")
            .atLine(header.line()));
        continue;
      }
      if (applies.isPresent()) {
        declared.add(new Declared(requirement, distribution.get(), header.line(), header.value()));
      }
    }
    SymbolFloorCheck.Proof proof = SymbolFloorCheck.prove(subject);
    List<FloorWheel> floors = subject.settings().floorLibraries().stream().map(FloorWheel::of)
        .flatMap(Optional::stream).toList();
    for (FloorWheel floor : floors) {
      if (floor.problem() != null) {
        findings.add(finding(floor.input().toString(), "a floor wheel whose version is unknown: " + floor.problem(),
            "a floor wheel whose file name and METADATA name one distribution at one version",
            "give the wheel as pip downloaded it (pip download <name>==<version> --no-deps)"));
      }
    }
    for (Declared d : declared) {
      judge(d, variant, floors, proof, file, findings);
    }
    for (FloorWheel floor : floors) {
      boolean otherMajor = variant != null && NvidiaDistributions.named(floor.name())
          .filter(dist -> dist.cudaMajor() != variant).isPresent();
      if (floor.version() != null && proof.passed(floor.input()) && !otherMajor && !applying.contains(floor.name())) {
        findings.add(new Finding(ID, Severity.WARNING, file, "no Requires-Dist on " + floor.name() + ", though the"
            + " libraries were proven to bind on its floor wheel " + floor.input().getFileName() + ": pip keeps any"
            + " older " + floor.name() + " already installed", "Requires-Dist: " + floor.requirement(),
            "add the line 'Requires-Dist: " + floor.requirement() + "' (te:pack-wheel writes it with"
                + " te.declareFloors=true)"));
      }
    }
    if (subject.settings().floorLibraries().isEmpty()) {
      findings.add(new Finding(ID, Severity.INFO, file, "no floorLibraries, so no Requires-Dist minimum is proven"
          + neededText(libraries, subject, variant), "floor wheels of the oldest NVIDIA distributions the release"
          + " supports, whose versions the Requires-Dist minimums are", "give them in te.floorLibraries (pip"
          + " download <name>==<version> --no-deps) and pack with te.declareFloors=true"));
    }
    return findings;
  }

  private void judge(Declared d, Integer variant, List<FloorWheel> floors, SymbolFloorCheck.Proof proof, String file,
      List<Finding> findings) {
    Distribution dist = d.distribution();
    String line = "Requires-Dist: " + d.text();
    if (variant != null && NvidiaDistributions.knows(variant) && dist.cudaMajor() != variant) {
      String counterpart = NvidiaDistributions.providing(dist.sonames().get(0), variant).map(Distribution::name)
          .orElse("the CUDA " + variant + " distribution");
      findings.add(finding(file, line + ": " + dist.name() + " is a CUDA " + dist.cudaMajor() + " distribution"
          + " (" + String.join(", ", dist.sonames()) + " in " + dist.folder() + ") in a cu" + variant + " wheel",
          counterpart + " for a cu" + variant + " wheel", "declare " + counterpart + " with its proven minimum"
              + " instead, or pack this wheel as cu" + dist.cudaMajor() + " (te.cudaMajor=" + dist.cudaMajor() + ")")
          .atLine(d.line()));
      return;
    }
    List<Specifier> legacy = d.requirement().specifiers().legacy();
    if (!legacy.isEmpty()) {
      findings.add(finding(file, line + ": " + legacy.stream().map(Specifier::toString).collect(Collectors.joining(
          ", ")) + " is no PEP 440 version specifier", "PEP 440 clauses such as >=2.30.4", "write the minimum as"
              + " >=<version> of a floor wheel that passes").atLine(d.line()));
      return;
    }
    List<FloorWheel> ofDist = floors.stream().filter(f -> f.name().equals(dist.name()) && f.version() != null)
        .toList();
    Optional<FloorWheel> passing = ofDist.stream().filter(f -> proof.passed(f.input())).findFirst();
    Optional<PyVersion> lower = d.requirement().specifiers().lowerBound();
    if (lower.isEmpty()) {
      findings.add(finding(file, line + ": no minimum, so pip keeps any older " + dist.name() + " already installed",
          "a minimum a floor wheel proves, e.g. " + passing.map(FloorWheel::requirement).orElse(dist.name()
              + ">=<version of a passing floor wheel>"), passing.map(f -> "declare " + f.requirement())
              .orElse("give the oldest supported " + dist.name() + " wheel in te.floorLibraries and declare >= its"
                  + " version")).atLine(d.line()));
      return;
    }
    String wanted = dist.name() + " " + lower.get();
    Optional<FloorWheel> exact = ofDist.stream().filter(f -> f.version().equals(lower.get())).findFirst();
    String raise = "raise the minimum to a version whose wheel passes and give that wheel as the floor";
    if (exact.isEmpty()) {
      String given = ofDist.isEmpty() ? "no floor wheel of " + dist.name() + " is given"
          : "the floor wheel given is " + ofDist.stream().map(f -> f.version() + " (" + f.input().getFileName() + ")")
              .collect(Collectors.joining(", "));
      findings.add(finding(file, line + ": the minimum " + lower.get() + " is not proven: " + given,
          "a floor wheel of " + wanted + " in floorLibraries on which every shipped library binds (SYMBOL-FLOOR)",
          "give the " + wanted + " wheel in te.floorLibraries (pip download " + dist.name() + "==" + lower.get()
              + " --no-deps), or " + passing.map(f -> "declare " + f.requirement() + ", the version proven")
              .orElse(raise)).atLine(d.line()));
      return;
    }
    FloorWheel floor = exact.get();
    List<String> failures = proof.failures().getOrDefault(floor.input(), List.of());
    if (!failures.isEmpty()) {
      findings.add(finding(file, line + ": the libraries do not bind on its floor wheel " + floor.input()
          .getFileName() + ": " + String.join("; ", failures.subList(0, Math.min(5, failures.size())))
          + (failures.size() > 5 ? " and " + (failures.size() - 5) + " more" : ""), "every symbol and version the"
          + " shipped libraries bind in " + dist.name() + " defined by its " + lower.get() + " wheel",
          raise + ", or rebuild the libraries against " + wanted + " so they no longer need what it lacks")
          .atLine(d.line()));
    } else if (!proof.used().contains(floor.input())) {
      findings.add(finding(file, line + ": its floor wheel " + floor.input().getFileName() + " gives no library a"
          + " shipped library NEEDS, so nothing was proven on it", "a floor wheel of " + wanted + " holding the"
          + " libraries the shipped ones NEED", "check the floor wheel (SYMBOL-FLOOR names what it holds), or drop"
          + " the Requires-Dist if the libraries do not use " + dist.name()).atLine(d.line()));
    } else if (!d.requirement().specifiers().contains(floor.version())) {
      findings.add(finding(file, line + ": the set excludes its own floor " + floor.version() + ", so what pip may"
          + " install was never proven", "a minimum the set admits (>=" + floor.version() + ")", "declare "
          + floor.requirement()).atLine(d.line()));
    }
  }

  /**
   * Whether the requirement applies on the wheel's platform for some Python and extra: the marker's first true
   * environment, empty when it is false in all, null when pip cannot evaluate it.
   */
  private static Optional<String> applies(Requirement requirement, List<Map<String, String>> environments) {
    try {
      for (Map<String, String> env : environments) {
        if (requirement.appliesIn(env)) {
          return Optional.of(env.get("extra"));
        }
      }
      return Optional.empty();
    } catch (Marker.EvaluationException e) {
      return null;
    }
  }

  /** The wheel's platform (Linux, its machine) with every Python of {@link #PYTHONS} and every extra it provides. */
  private static List<Map<String, String>> environments(Subject subject, String metadata) {
    String machine = Optional.ofNullable(subject.settings().platform()).flatMap(PlatformTags::primary)
        .map(PlatformTag::arch).orElse(PlatformTag.ofThisMachine().arch());
    List<String> extras = new ArrayList<>(List.of(""));
    Metadata.headers(metadata, "Provides-Extra").forEach(h -> extras.add(h.value()));
    List<Map<String, String>> environments = new ArrayList<>();
    for (String extra : extras) {
      for (String python : PYTHONS) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("implementation_name", "cpython");
        env.put("implementation_version", python + ".0");
        env.put("os_name", "posix");
        env.put("platform_machine", machine);
        env.put("platform_release", "");
        env.put("platform_system", "Linux");
        env.put("platform_version", "");
        env.put("python_full_version", python + ".0");
        env.put("platform_python_implementation", "CPython");
        env.put("python_version", python);
        env.put("sys_platform", "linux");
        env.put("extra", extra);
        environments.add(env);
      }
    }
    return environments;
  }

  /** The NVIDIA distributions the shipped libraries NEED, for the info line. */
  private static String neededText(List<SubjectFile> libraries, Subject subject, Integer variant) {
    TreeSet<String> needed = new TreeSet<>();
    for (SubjectFile library : libraries) {
      Optional<ElfFile> elf = subject.elfIfReadable(library);
      elf.ifPresent(e -> e.needed().forEach(n -> (variant != null ? NvidiaDistributions.providing(n, variant).stream()
          : NvidiaDistributions.providingAny(n).stream()).forEach(d -> needed.add(d.name() + " (" + n + ")"))));
    }
    return needed.isEmpty() ? "" : "; the libraries NEED " + String.join(", ", needed);
  }
}
