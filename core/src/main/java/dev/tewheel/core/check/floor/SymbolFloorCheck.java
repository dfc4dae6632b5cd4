package dev.tewheel.core.check.floor;

import dev.tewheel.bundle.ncclep.NcclGate;
import dev.tewheel.core.check.BaseCheck;
import dev.tewheel.core.check.Libraries;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.check.deps.NvidiaDistributions;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.SymbolScope;
import dev.tewheel.loader.NeededClosure;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Every version a shipped library needs from an external library, and every symbol it binds there, is defined by the
 * oldest version of that library the release supports (its floor, {@code floorLibraries}): what ld.so does when the
 * library loads on a machine that has only the floor. The scope is the library's DT_NEEDED closure in glibc's order
 * ({@link NeededClosure}, as te-runtime's loader search walks it), each name the floor of that SONAME, else the
 * shipped file glibc would find ({@link Subject#shippedNeeded}), else unknown; what glibc does there is
 * {@link SymbolScope}'s verdict, te-runtime's load prediction's too, and each finding names the floor that decides. A version the floor lacks stops any load (error); a missing symbol, or the abort of glibc
 * before 2.41, stops a BIND_NOW library (error), while a lazy one loads and fails at the first call (warning). NCCL EP
 * is loaded only after NCCL's gate ({@link NcclGate}), so its NCCL imports are held only to a floor NCCL that passes
 * it.
 */
public final class SymbolFloorCheck extends BaseCheck {
  public static final String ID = "SYMBOL-FLOOR";
  /**
   * The glibc whose rules judge the floors: a wheel installs on every glibc its platform tag allows, and each of
   * those before 2.41 aborts on a versioned import of a floor without symbol versioning (SymbolScope.Glibc).
   */
  private static final SymbolScope.Glibc GLIBC = SymbolScope.Glibc.BEFORE_2_41;
  /**
   * glibc's and GCC's runtime libraries version every symbol they export, and the static linker records that version
   * in the reference; so an unversioned reference was never linked against one of them, and their having no floor
   * leaves it unambiguous.
   */
  private static final Pattern VERSIONED_RUNTIME = Pattern.compile("(libc\\.so\\.6|libm\\.so\\.6|libdl\\.so\\.2"
      + "|libpthread\\.so\\.0|librt\\.so\\.1|libutil\\.so\\.1|ld-linux[-a-z0-9_.]*\\.so\\.[0-9]+|libstdc\\+\\+\\.so\\.6"
      + "|libgcc_s\\.so\\.1)");

  public SymbolFloorCheck() {
    super(ID, "every version a library needs from an external library and every symbol it binds there are defined"
        + " by that library's floor (the oldest version the release supports)", Severity.ERROR);
  }

  /**
   * What SYMBOL-FLOOR proved, shared with DEPS-DECLARED: its findings, and per floorLibraries entry the imports it
   * failed to define (empty: it passed) and whether any shipped library bound on it.
   *
   * @param findings SYMBOL-FLOOR's findings
   * @param failures per entry, each failure in words: the symbol or version, the library needing it, the floor
   * @param used the entries that gave a library some shipped library NEEDS
   */
  record Proof(List<Finding> findings, Map<java.nio.file.Path, List<String>> failures,
      Set<java.nio.file.Path> used) {
    /** Whether the entry was read, bound on and defined everything asked of it. */
    boolean passed(java.nio.file.Path input) {
      return used.contains(input) && failures.getOrDefault(input, List.of()).isEmpty();
    }
  }

  @Override
  public List<Finding> run(Subject subject) {
    return prove(subject).findings();
  }

  /** SYMBOL-FLOOR's proof on the subject, worked out once for both checks that read it. */
  static Proof prove(Subject subject) {
    return subject.derived(ID, () -> new SymbolFloorCheck().work(subject));
  }

  private Proof work(Subject subject) {
    Map<java.nio.file.Path, List<String>> failures = new LinkedHashMap<>();
    Set<java.nio.file.Path> usedInputs = new HashSet<>();
    List<SubjectFile> libraries = Libraries.of(subject);
    if (libraries.isEmpty()) {
      return new Proof(List.of(), failures, usedInputs);
    }
    List<Finding> findings = new ArrayList<>();
    if (subject.settings().floorLibraries().isEmpty()) {
      findings.add(new Finding(ID, Severity.INFO, libraries.get(0).origin(), "no floorLibraries, so no symbol was held"
          + " to the oldest external libraries the release supports: SYMBOL-FLOOR did not run",
          "the floor libraries (oldest supported NCCL, CUDA runtime, cuBLAS, cuDNN, ...) to check against",
          "set te.floorLibraries to the oldest supported libraries, their folders or their pip wheels"
              + " (comma-separated)"));
      return new Proof(findings, failures, usedInputs);
    }
    // A release's floors hold both CUDA variants' wheels (nvidia-nccl-cu12 and -cu13 share libnccl.so.2); a wheel of
    // an NVIDIA distribution of another CUDA major is no floor of this variant.
    Integer variant = subject.settings().cudaMajor();
    List<java.nio.file.Path> inputs = new ArrayList<>();
    for (java.nio.file.Path input : subject.settings().floorLibraries()) {
      Optional<NvidiaDistributions.Distribution> other = variant == null ? Optional.empty()
          : FloorWheel.of(input).flatMap(f -> NvidiaDistributions.named(f.name()))
              .filter(d -> d.cudaMajor() != variant);
      if (other.isPresent()) {
        findings.add(new Finding(ID, Severity.INFO, input.toString(), "a floor wheel of " + other.get().name()
            + ", a CUDA " + other.get().cudaMajor() + " distribution: not a floor of this cu" + variant + " wheel",
            "the floors of the wheel's CUDA variant", "nothing to fix for a release's list of floors; give this"
                + " variant's own (" + NvidiaDistributions.providing(other.get().sonames().get(0), variant)
                .map(NvidiaDistributions.Distribution::name).orElse("its CUDA " + variant + " distribution")
                + ") too"));
      } else {
        inputs.add(input);
      }
    }
    FloorLibraries floors = FloorLibraries.read(inputs);
    for (FloorLibraries.Problem p : floors.problems()) {
      findings.add(finding(p.input(), p.found(), p.expected(), p.fix()));
      floors.inputs().stream().filter(i -> p.input().startsWith(i.toString())).forEach(i -> failures
          .computeIfAbsent(i, k -> new ArrayList<>()).add(p.found()));
    }
    Map<String, Set<String>> withoutFloor = new LinkedHashMap<>();
    Set<String> used = new HashSet<>();
    for (SubjectFile library : libraries) {
      Optional<ElfFile> elf = subject.readableElf(library, this, findings);
      if (elf.isPresent()) {
        check(subject, library, elf.get(), floors, findings, withoutFloor, used, failures);
      }
    }
    if (!withoutFloor.isEmpty()) {
      findings.add(new Finding(ID, Severity.INFO, libraries.get(0).origin(), "DT_NEEDED without a floor, not checked: "
          + withoutFloor.entrySet().stream().map(e -> e.getKey() + " (" + String.join(", ", e.getValue()) + ")")
              .collect(Collectors.joining(", ")), "a floor for each external library whose version the release"
          + " pins", "add the oldest supported version of each to te.floorLibraries; the system's own (libc, libm,"
          + " ...) follow the platform tag instead (PLATFORM)"));
    }
    // A folder or wheel may hold more than the shipped libraries need; an entry giving none of them is a mistake.
    Map<java.nio.file.Path, List<String>> unusedInputs = new LinkedHashMap<>();
    floors.all().forEach(f -> unusedInputs.computeIfAbsent(f.input(), k -> new ArrayList<>()).add(f.soname()));
    floors.all().stream().filter(f -> used.contains(f.soname())).forEach(f -> unusedInputs.remove(f.input()));
    unusedInputs.forEach((input, sonames) -> findings.add(new Finding(ID, Severity.INFO, input.toString(),
        "a floorLibraries entry whose libraries (" + String.join(", ", sonames) + ") no shipped library NEEDS",
        "floors of the libraries the shipped ones NEED", "check the floors' SONAMEs (readelf -d), or drop the entry"
            + " from te.floorLibraries")));
    floors.all().stream().filter(f -> used.contains(f.soname())).forEach(f -> usedInputs.add(f.input()));
    return new Proof(List.copyOf(findings), failures, usedInputs);
  }

  private void check(Subject subject, SubjectFile library, ElfFile elf, FloorLibraries floors, List<Finding> findings,
      Map<String, Set<String>> withoutFloor, Set<String> used, Map<java.nio.file.Path, List<String>> failures) {
    String name = library.path().substring(library.path().lastIndexOf('/') + 1);
    boolean ncclEp = subject.ncclEpLibrary().filter(library::equals).isPresent();
    Map<String, FloorLibraries.Floor> inScope = new LinkedHashMap<>();
    List<SymbolScope.Member> members = new ArrayList<>();
    Set<String> gated = new HashSet<>();
    // Where each name binds on a machine with only the floors: the floor of that SONAME, else the shipped file glibc
    // would find (only from a shipped object: a floor's own DT_NEEDED are not in the tree), else unknown.
    record Bound(Optional<FloorLibraries.Floor> floor, Optional<SubjectFile> shipped, Optional<ElfFile> elf) {}
    Set<String> names = new HashSet<>(Set.of(name));
    elf.soname().ifPresent(names::add);
    NeededClosure.walk(library, elf, names, new NeededClosure.Binder<SubjectFile, Bound>() {
      @Override
      public Bound bind(NeededClosure.Node<SubjectFile> owner, String needed) {
        Optional<FloorLibraries.Floor> floor = floors.provider(needed);
        if (floor.isPresent()) {
          return new Bound(floor, Optional.empty(), Optional.of(floor.get().elf()));
        }
        Optional<SubjectFile> shipped = owner.file() == null ? Optional.empty()
            : subject.shippedNeeded(owner.file(), owner.elf(), needed);
        Optional<ElfFile> shippedElf = shipped.flatMap(subject::elfIfReadable);
        return shippedElf.isPresent() ? new Bound(Optional.empty(), shipped, shippedElf)
            : new Bound(Optional.empty(), Optional.empty(), Optional.empty());
      }

      @Override
      public Optional<NeededClosure.Next<SubjectFile>> next(Bound bound) {
        return bound.elf().map(e -> new NeededClosure.Next<>(bound.shipped().orElse(null), e));
      }
    }, (owner, needed, bound, first) -> {
      if (!first) {
        return;
      }
      if (bound.floor().isPresent()) {
        FloorLibraries.Floor floor = bound.floor().get();
        used.add(needed);
        if (ncclEp && floor.isNccl() && !floor.nccl().map(NcclRelease::passesGate).orElse(false)) {
          findings.add(belowGate(library, floor));
          gated.add(needed); // it still binds what it defines; what it lacks is not NCCL EP's problem there
        } else {
          inScope.put(needed, floor);
        }
        members.add(SymbolScope.Member.of(needed, floor.elf()));
      } else if (bound.elf().isPresent()) {
        members.add(SymbolScope.Member.of(needed, bound.elf().get()));
      } else {
        members.add(SymbolScope.Member.unknown(needed));
        if (owner.file() == library) {
          withoutFloor.computeIfAbsent(needed, k -> new LinkedHashSet<>()).add(name);
        }
      }
    });
    Severity severity = elf.bindNow() ? Severity.ERROR : Severity.WARNING;
    SymbolScope.Verdict verdict = SymbolScope.of(members, GLIBC).judge(elf);
    for (SymbolScope.MissingVersion m : verdict.missingVersions()) {
      FloorLibraries.Floor floor = inScope.get(m.file());
      if (floor != null) {
        findings.add(versionMissing(library, name, m, floor)); // the load fails, lazy or not
        failures.computeIfAbsent(floor.input(), k -> new ArrayList<>()).add("version " + m.version() + " (needed by "
            + name + "), which " + floor.describe() + " does not define");
      }
    }
    List<String> ambiguous = new ArrayList<>();
    Set<String> mayDefine = new LinkedHashSet<>();
    for (SymbolScope.Unbound unbound : verdict.unbound()) {
      if (verdict.ofMissingVersion(unbound)) {
        continue; // its version's finding says why
      }
      List<FloorLibraries.Floor> lacking;
      if (unbound.symbol().version().isPresent()) {
        lacking = unbound.expectedFrom().stream().map(inScope::get).filter(java.util.Objects::nonNull).toList();
      } else if (unbound.expectedFrom().stream().anyMatch(gated::contains)) {
        continue; // an unversioned symbol a gated NCCL may be meant to define: NCCL's, not judged there
      } else {
        lacking = List.copyOf(inScope.values()); // glibc looks in every one, versioned or not
      }
      if (lacking.isEmpty()) {
        continue; // no floor's business
      }
      List<String> unversionedUnknown = unbound.unknown().stream()
          .filter(n -> !VERSIONED_RUNTIME.matcher(n).matches()).toList();
      if (unbound.symbol().version().isEmpty() && !unversionedUnknown.isEmpty()) {
        ambiguous.add(unbound.describe()); // it may be meant for a library without a floor
        mayDefine.addAll(unversionedUnknown);
        continue;
      }
      Finding finding = unbound.abortsAt().isPresent()
          ? aborts(library, name, elf.bindNow(), unbound, inScope.get(unbound.abortsAt().get()))
          : missing(library, name, elf.bindNow(), unbound, lacking, inScope);
      List<FloorLibraries.Floor> blamed = unbound.abortsAt().isPresent() && inScope.get(unbound.abortsAt().get()) != null
          ? List.of(inScope.get(unbound.abortsAt().get())) : lacking;
      for (FloorLibraries.Floor floor : blamed) {
        failures.computeIfAbsent(floor.input(), k -> new ArrayList<>()).add(unbound.describe() + " (needed by " + name
            + "), which " + floor.describe() + " does not define");
      }
      findings.add(finding.withSeverity(severity));
    }
    if (!ambiguous.isEmpty()) {
      String others = String.join(", ", mayDefine);
      findings.add(new Finding(ID, Severity.INFO, library.origin(), ambiguous.size() + " unversioned symbol"
          + (ambiguous.size() == 1 ? "" : "s") + " that no floor defines and " + others + " (no floor) may: "
          + String.join(", ", ambiguous) + "; not judged", "a floor for every library an unversioned symbol may"
          + " come from", "add the oldest supported " + others + " to te.floorLibraries"));
    }
  }

  private Finding missing(SubjectFile library, String name, boolean bindNow, SymbolScope.Unbound unbound,
      List<FloorLibraries.Floor> lacking, Map<String, FloorLibraries.Floor> inScope) {
    List<FloorLibraries.Floor> expected = unbound.expectedFrom().stream().map(inScope::get)
        .filter(java.util.Objects::nonNull).toList();
    String from = (expected.isEmpty() ? lacking : expected).stream().map(FloorLibraries.Floor::soname)
        .collect(Collectors.joining(", "));
    String floors = lacking.stream().map(FloorLibraries.Floor::describe).collect(Collectors.joining(", "));
    String when = bindNow ? "a BIND_NOW library fails to load where a symbol is missing"
        : "a lazily bound library loads, then fails at the first call of a missing function";
    String which = lacking.size() == 1 ? "which the floor " + floors + " does not define"
        : "which none of the floors " + floors + " defines";
    List<String> refused = unbound.refused().stream()
        .filter(r -> inScope.containsKey(r.member()) && r.definition().defined())
        .map(r -> inScope.get(r.member()).origin() + " has " + r.definition().nameWithVersion() + ", which "
            + r.reason()).distinct().toList();
    String why = refused.isEmpty() ? "" : " (glibc binds none of what they have: " + String.join("; ", refused) + ")";
    return finding(library.origin(), unbound.describe() + " (needed from " + from + "), " + which + why,
        "every symbol " + name + " binds in " + from + " defined by its floor (" + when + ")",
        "raise the release's pinned " + from + " to a version that defines " + unbound.symbol().name() + ", or build "
            + name + " against the floor's headers and library so it does not need it");
  }

  /** glibc before 2.41 aborts the process while binding the import (SymbolScope.Glibc). */
  private Finding aborts(SubjectFile library, String name, boolean bindNow, SymbolScope.Unbound unbound,
      FloorLibraries.Floor floor) {
    String file = floor == null ? unbound.abortsAt().get() : floor.soname();
    String origin = floor == null ? file : floor.describe();
    return finding(library.origin(), unbound.describe() + " (needed from " + file + "), which the floor " + origin
        + " defines without any symbol versioning (no version definitions or needs): glibc before 2.41 aborts the"
        + " process binding a versioned import to the very file its version need names (an assertion in"
        + " dl-lookup.c)" + (bindNow ? ", as " + name + " loads" : ", at the first call"),
        "a floor " + file + " that defines version " + unbound.symbol().version().get().name() + ", as the library "
            + name + " was linked against does", "give the floor as its package ships it (with its version"
            + " definitions), or link " + name + " against an unversioned " + file + " so its imports carry no"
            + " version");
  }

  /** A version the library needs that its floor lacks: dlopen fails before any symbol is bound, lazy or not. */
  private Finding versionMissing(SubjectFile library, String name, SymbolScope.MissingVersion m,
      FloorLibraries.Floor floor) {
    List<String> symbols = m.symbols();
    String which = symbols.isEmpty() ? "" : " by " + String.join(", ", symbols.subList(0, Math.min(5,
        symbols.size()))) + (symbols.size() > 5 ? " and " + (symbols.size() - 5) + " more" : "");
    return new Finding(ID, Severity.ERROR, library.origin(), "version " + m.version() + " (needed from " + m.file()
        + which + "), which the floor " + floor.describe() + " does not define (its versions: "
        + String.join(", ", m.defined()) + "): glibc refuses to load " + name + " (version `" + m.version()
        + "' not found), lazily bound or not", "every version " + name + " needs from " + m.file()
        + " (DT_VERNEED) defined by its floor (DT_VERDEF)", "raise the release's pinned " + m.file() + " to a"
        + " version that defines " + m.version() + ", or build " + name + " against the floor so it does not need"
        + " it");
  }

  private Finding belowGate(SubjectFile library, FloorLibraries.Floor floor) {
    String release = floor.nccl().map(r -> "NCCL " + r + ", below NCCL EP's gate (" + NcclGate.MINIMUM + ")")
        .orElse("an NCCL whose release its files do not say (no 'NCCL version' text, no libnccl.so.X.Y.Z name, no"
            + " nvidia-nccl wheel)");
    return new Finding(ID, Severity.INFO, library.origin(), "the floor " + floor.origin() + " of " + floor.soname()
        + " is " + release + ": TE loads NCCL EP only on NCCL >= " + NcclGate.MINIMUM + ", so NCCL EP's imports from"
        + " " + floor.soname() + " are not held to it", "a floor NCCL at or above NCCL EP's gate to hold NCCL EP's"
        + " imports to", "verify once more with te.floorLibraries naming the oldest NCCL >= " + NcclGate.MINIMUM
        + " the release supports for NCCL EP");
  }
}
