package dev.tewheel.core.diff;

import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.check.Finding;
import dev.tewheel.core.check.PlatformTag;
import dev.tewheel.core.check.Severity;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.verify.FolderSubject;
import dev.tewheel.core.verify.ReportWriter;
import dev.tewheel.core.verify.Suppression;
import dev.tewheel.core.verify.VerifyReport;
import dev.tewheel.core.verify.WheelSubject;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.GpuCode;
import dev.tewheel.elf.VersionNeed;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Compares a release's wheel_lib with the previous release's, as japicmp and revapi compare Java APIs: files
 * added, removed and changed; per library its SONAME, DT_NEEDED, exported symbols, GLIBC/GLIBCXX ceilings,
 * BIND_NOW and CUDA architectures; the total size against a growth budget. The result is a {@link VerifyReport}
 * (goal diff-wheel), so it prints, writes JSON and JUnit XML, and fails exactly as verify does.
 */
public final class WheelDiff {
  private static final Pattern VERSION = Pattern.compile("(GLIBC|GLIBCXX|CXXABI)_(\\d+(?:\\.\\d+)*)");

  /** Compares and writes the reports when a report folder is given. */
  public VerifyReport diff(DiffRequest request) throws IOException {
    try (Side baseline = Side.open(request.baseline(), request); Side current = Side.open(request.current(), request)) {
      List<Finding> findings = new ArrayList<>();
      Map<String, Object> details = new LinkedHashMap<>();
      details.put("baseline", baseline.subject.description());
      details.put("current", current.subject.description());
      compareFiles(baseline.subject, current.subject, request, findings, details);
      compareLibraries(baseline.subject, current.subject, findings);
      List<Finding> judged = new ArrayList<>();
      for (DiffRule rule : DiffRule.all()) {
        Severity override = request.severityOverrides().get(rule.id());
        for (Finding f : findings) {
          if (f.checkId().equals(rule.id())) {
            judged.add(override == null ? f : f.withSeverity(override));
          }
        }
      }
      Suppression.Applied applied = Suppression.apply(request.suppressions(), judged);
      List<Finding> active = new ArrayList<>(applied.active());
      active.sort(Comparator.comparing(Finding::severity).reversed());
      VerifyReport report = new VerifyReport(current.subject.description() + " against "
          + baseline.subject.description(), "-", request.failOn(), DiffRule.all(), active, applied.suppressed(),
          "diff-wheel", details, applied.unmatched());
      if (request.reportDirectory() != null) {
        new ReportWriter(report).write(request.reportDirectory());
      }
      return report;
    }
  }

  private static void compareFiles(Subject baseline, Subject current, DiffRequest request, List<Finding> findings,
      Map<String, Object> details) throws IOException {
    long before = 0;
    long after = 0;
    List<Object> files = new ArrayList<>();
    SortedSet<String> paths = new TreeSet<>();
    baseline.files().forEach(f -> paths.add(f.path()));
    current.files().forEach(f -> paths.add(f.path()));
    for (String path : paths) {
      Optional<SubjectFile> old = baseline.file(path);
      Optional<SubjectFile> now = current.file(path);
      long oldSize = old.isPresent() ? old.get().size() : -1;
      long newSize = now.isPresent() ? now.get().size() : -1;
      before += Math.max(oldSize, 0);
      after += Math.max(newSize, 0);
      String change;
      if (old.isEmpty()) {
        change = "added";
        findings.add(DiffRule.FILES.finding(now.get().origin(), "a new file of " + bytes(newSize),
            "no " + path + " in the baseline", "nothing to fix if it belongs in the release"));
      } else if (now.isEmpty()) {
        change = "removed";
        findings.add(DiffRule.FILES.finding(old.get().origin(), "the file (" + bytes(oldSize) + ") removed",
            path + " as in the baseline", "nothing to fix if users no longer need it"));
      } else if (oldSize != newSize || !baseline.sha256(old.get()).equals(current.sha256(now.get()))) {
        change = "changed";
        findings.add(DiffRule.FILES.finding(now.get().origin(), "changed content: " + bytes(oldSize) + " -> "
            + bytes(newSize) + " (" + signed(newSize - oldSize) + " bytes)", "a new build of " + path,
            "nothing to fix if the change is intended"));
      } else {
        change = "unchanged";
      }
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("path", path);
      entry.put("change", change);
      entry.put("baselineSize", old.isPresent() ? oldSize : null);
      entry.put("size", now.isPresent() ? newSize : null);
      files.add(entry);
    }
    details.put("files", files);
    double growth = before == 0 ? (after == 0 ? 0 : Double.POSITIVE_INFINITY) : 100.0 * (after - before) / before;
    Map<String, Object> total = new LinkedHashMap<>();
    total.put("baseline", before);
    total.put("current", after);
    total.put("growthPercent", Double.isInfinite(growth) ? null : String.format(Locale.ROOT, "%.2f", growth));
    total.put("maxGrowthPercent", String.format(Locale.ROOT, "%.2f", request.maxGrowthPercent()));
    details.put("totalSize", total);
    String found = "total size " + bytes(before) + " -> " + bytes(after) + " ("
        + (Double.isInfinite(growth) ? "from nothing" : String.format(Locale.ROOT, "%+.2f%%", growth)) + ")";
    String expected = "growth of at most " + String.format(Locale.ROOT, "%.2f%%", request.maxGrowthPercent())
        + " (maxGrowthPercent)";
    Finding size = DiffRule.SIZE.finding(current.description(), found, expected,
        "find what grew in the files listed under DIFF-FILES (a grafted library, debug info, a new architecture);"
            + " raise maxGrowthPercent if the growth is intended");
    findings.add(growth > request.maxGrowthPercent() ? size : size.withSeverity(Severity.INFO));
  }

  private static void compareLibraries(Subject baseline, Subject current, List<Finding> findings) {
    for (SubjectFile now : current.libraries()) {
      Optional<SubjectFile> old = baseline.file(now.path());
      if (old.isEmpty()) {
        continue; // DIFF-FILES reports it as added
      }
      Optional<ElfFile> a = baseline.elfIfReadable(old.get());
      Optional<ElfFile> b = current.elfIfReadable(now);
      if (a.isEmpty() || b.isEmpty()) {
        continue; // verify's ELF-SHARED-OBJECT is the place for unreadable libraries
      }
      String file = now.origin();
      String name = now.path();
      ElfFile before = a.get();
      ElfFile after = b.get();
      if (!before.soname().equals(after.soname())) {
        findings.add(DiffRule.SONAME.finding(file, "SONAME " + after.soname().orElse("(none)"), "SONAME "
                + before.soname().orElse("(none)") + " as in the baseline",
            "keep the SONAME unless the ABI broke on purpose; then every dependant must be rebuilt and the release"
                + " notes must say so"));
      }
      for (String n : minus(after.needed(), before.needed())) {
        findings.add(DiffRule.NEEDED.finding(file, "a new DT_NEEDED " + n, "the baseline's DT_NEEDED "
            + before.needed(), "make sure " + n + " is shipped or on every user's system (verify's DEPS-RESOLVE)"));
      }
      for (String n : minus(before.needed(), after.needed())) {
        findings.add(DiffRule.NEEDED.finding(file, "DT_NEEDED " + n + " removed", "the baseline's DT_NEEDED "
            + before.needed(), "nothing to fix if the dependency is gone on purpose").withSeverity(Severity.INFO));
      }
      List<String> removed = minus(List.copyOf(before.definedSymbolNames()), List.copyOf(after.definedSymbolNames()));
      List<String> added = minus(List.copyOf(after.definedSymbolNames()), List.copyOf(before.definedSymbolNames()));
      if (!removed.isEmpty()) {
        findings.add(DiffRule.EXPORTS.finding(file, removed.size() + " exported symbol" + (removed.size() == 1 ? "" : "s")
                + " removed: " + list(removed), "every symbol " + name + " exported in the baseline",
            "restore the symbols (callers built against the baseline fail to load or to resolve them), or bump the"
                + " SONAME and say so in the release notes if the break is intended"));
      }
      if (!added.isEmpty()) {
        findings.add(DiffRule.EXPORTS.finding(file, added.size() + " exported symbol" + (added.size() == 1 ? "" : "s")
            + " added: " + list(added), "the baseline's exports", "nothing to fix: new API")
            .withSeverity(Severity.INFO));
      }
      Map<String, String> ceilingsBefore = ceilings(before);
      Map<String, String> ceilingsAfter = ceilings(after);
      for (String family : List.of("GLIBC", "GLIBCXX", "CXXABI")) {
        String x = ceilingsBefore.get(family);
        String y = ceilingsAfter.get(family);
        if (x != null && y != null && !x.equals(y) || (x == null) != (y == null)) {
          boolean raised = y != null && (x == null || PlatformTag.compareVersions(y, x) > 0);
          Finding f = DiffRule.GLIBC.finding(file, family + " ceiling " + (x == null ? "none" : family + "_" + x)
                  + " -> " + (y == null ? "none" : family + "_" + y), family + " ceiling as in the baseline",
              raised ? "build on the same (oldest supported) system as the baseline, or check the platform tag still"
                  + " allows " + family + "_" + y + " (verify's PLATFORM)" : "nothing to fix: it needs less now");
          findings.add(raised ? f : f.withSeverity(Severity.INFO));
        }
      }
      if (before.bindNow() != after.bindNow()) {
        findings.add(DiffRule.BIND_NOW.finding(file, after.bindNow() ? "BIND_NOW now set" : "BIND_NOW dropped",
            "BIND_NOW " + (before.bindNow() ? "set" : "not set") + " as in the baseline",
            "link with the same -z now/-z lazy as the baseline (BOLT needs -z now on libtransformer_engine.so)"));
      }
      try {
        GpuCode x = baseline.gpuCode(old.get());
        GpuCode y = current.gpuCode(now);
        List<String> archsBefore = archs(x);
        List<String> archsAfter = archs(y);
        List<String> dropped = minus(archsBefore, archsAfter);
        List<String> gained = minus(archsAfter, archsBefore);
        if (!dropped.isEmpty()) {
          findings.add(DiffRule.GPU_ARCHS.finding(file, "CUDA code dropped: " + String.join(", ", dropped),
              "the baseline's " + String.join(", ", archsBefore), "restore the -gencode entries, or announce that"
                  + " the release no longer supports these GPUs (verify's GPU-ARCHS with cudaArchitectures)"));
        }
        if (!gained.isEmpty()) {
          findings.add(DiffRule.GPU_ARCHS.finding(file, "CUDA code added: " + String.join(", ", gained),
              "the baseline's " + String.join(", ", archsBefore), "nothing to fix: more GPUs supported")
              .withSeverity(Severity.INFO));
        }
      } catch (IOException e) {
        // verify's GPU-ARCHS reports unreadable fat binaries
      }
    }
  }

  private static List<String> archs(GpuCode code) {
    List<String> names = new ArrayList<>(code.sass());
    names.addAll(code.ptx());
    return names;
  }

  /** Highest version needed per family: GLIBC -> 2.34. */
  private static Map<String, String> ceilings(ElfFile elf) {
    Map<String, String> result = new TreeMap<>();
    for (VersionNeed need : elf.versionNeeds()) {
      for (String v : need.versions()) {
        Matcher m = VERSION.matcher(v);
        if (m.matches()) {
          result.merge(m.group(1), m.group(2), (p, q) -> PlatformTag.compareVersions(p, q) >= 0 ? p : q);
        }
      }
    }
    return result;
  }

  private static List<String> minus(List<String> a, List<String> b) {
    List<String> result = new ArrayList<>(a);
    result.removeAll(b);
    return result;
  }

  private static String list(List<String> names) {
    return names.size() <= 20 ? String.join(", ", names)
        : String.join(", ", names.subList(0, 20)) + " and " + (names.size() - 20) + " more (see report.json)";
  }

  private static String bytes(long n) {
    return n + " bytes";
  }

  private static String signed(long n) {
    return (n >= 0 ? "+" : "") + n;
  }

  /** One side of the comparison, open until closed (a wheel keeps its archive open). */
  private static final class Side implements Closeable {
    final Subject subject;
    private final Closeable resource;

    private Side(Subject subject, Closeable resource) {
      this.subject = subject;
      this.resource = resource;
    }

    static Side open(Path path, DiffRequest request) throws IOException {
      if (Files.isDirectory(path)) {
        return new Side(FolderSubject.read(path, request.layout(), CheckSettings.defaults()), null);
      }
      if (!Files.isRegularFile(path)) {
        throw new IOException(path + " is neither a .whl nor a wheel_lib folder");
      }
      WheelSubject wheel = WheelSubject.open(path, request.wheelLibPath(), request.layout(), CheckSettings.defaults());
      return new Side(wheel.subject(), wheel);
    }

    @Override
    public void close() throws IOException {
      if (resource != null) {
        resource.close();
      }
    }
  }
}
