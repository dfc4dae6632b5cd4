package dev.tewheel.core.diff;

import dev.tewheel.core.check.Finding;
import dev.tewheel.core.check.Rule;
import dev.tewheel.core.check.Severity;
import java.util.List;
import java.util.Optional;

/**
 * What te:diff-wheel compares, each with a stable ID for reports, severity overrides and suppressions. A rule
 * reports some findings below its default severity (an added export is information, a removed one an error).
 */
public enum DiffRule implements Rule {
  FILES("DIFF-FILES", Severity.INFO, "files added, removed or changed between the releases, with their sizes"),
  SONAME("DIFF-SONAME", Severity.ERROR, "no library changed its SONAME (loaders and dependants look it up by name)"),
  NEEDED("DIFF-NEEDED", Severity.WARNING, "DT_NEEDED entries added or removed per library"),
  EXPORTS("DIFF-EXPORTS", Severity.ERROR,
      "no exported dynamic symbol was removed (an ABI break: error); added exports are information"),
  GLIBC("DIFF-GLIBC", Severity.WARNING, "the highest GLIBC_/GLIBCXX_/CXXABI_ version each library needs did not change"),
  BIND_NOW("DIFF-BIND-NOW", Severity.WARNING, "each library kept its BIND_NOW (-z now) setting"),
  GPU_ARCHS("DIFF-GPU-ARCHS", Severity.WARNING,
      "no CUDA architecture (SASS or PTX) was dropped (warning); added ones are information"),
  SIZE("DIFF-SIZE", Severity.ERROR, "the total size grew by no more than maxGrowthPercent");

  private final String id;
  private final Severity severity;
  private final String title;

  DiffRule(String id, Severity severity, String title) {
    this.id = id;
    this.severity = severity;
    this.title = title;
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public String title() {
    return title;
  }

  @Override
  public Severity defaultSeverity() {
    return severity;
  }

  public static List<DiffRule> all() {
    return List.of(values());
  }

  public static Optional<DiffRule> byId(String id) {
    return all().stream().filter(r -> r.id.equals(id)).findFirst();
  }

  Finding finding(String file, String found, String expected, String fix) {
    return new Finding(id, severity, file, found, expected, fix);
  }
}
