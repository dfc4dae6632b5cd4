package dev.tewheel.core.check;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/** Every check, once: assemble, verify and pack all run these objects. IDs are listed in docs/checks.md. */
public final class CheckCatalogue {
  private static final List<Check> ALL = List.of(
      new LayoutRequiredFilesCheck(),
      new LayoutUnexpectedCheck(),
      new FileTypesCheck(),
      new ManifestDigestsCheck(),
      new ElfSharedObjectCheck(),
      new ElfOneMachineCheck(),
      new PlatformCheck(),
      new DependenciesResolveCheck(),
      new VerneedNeededCheck(),
      new CudaVariantCheck(),
      new SymbolFloorCheck(),
      new SonameFileNameCheck(),
      new DuplicateContentCheck(),
      new TeBindNowCheck(),
      new TeForbiddenNeededCheck(),
      new TeUndefinedNcclEpCheck(),
      new TeRunpathOriginCheck(),
      new NcclEpSonameCheck(),
      new NcclEpFileVersionCheck(),
      new NcclEpNoRunpathCheck(),
      new NcclEpExportsCheck(),
      new HeadersSelfContainedCheck(),
      new BakedBuildPathsCheck(),
      new WheelRecordCheck(),
      new WheelPathsCheck(),
      new WheelTagsCheck(),
      new WheelBombCheck(),
      new WheelZipCheck(),
      new WheelSizeCheck(),
      new GpuArchsCheck(),
      new ExecStackCheck(),
      new IsaLevelCheck(),
      new Aarch64BranchProtectionCheck());

  private CheckCatalogue() {}

  public static List<Check> all() {
    return ALL;
  }

  /** The checks that run on a subject of this layout: under layout=any, {@link AnyLayout}'s. */
  public static List<Check> forLayout(dev.tewheel.bundle.layout.Layout layout) {
    return layout.any() ? ALL.stream().filter(AnyLayout::runs).toList() : ALL;
  }

  public static Optional<Check> byId(String id) {
    return ALL.stream().filter(c -> c.id().equals(id)).findFirst();
  }

  /**
   * Checks a configured check ID (a severity override's, a suppression's) before any check runs.
   *
   * @throws IllegalArgumentException naming the unknown ID and listing the valid ones
   */
  public static void requireKnown(String id) {
    if (byId(id).isEmpty()) {
      throw new IllegalArgumentException("no check has the ID '" + id + "'; the check IDs are "
          + ALL.stream().map(Check::id).collect(Collectors.joining(", ")));
    }
  }

  /**
   * Runs every check; findings in catalogue order, each at the severity its check gave it (a check may report some
   * findings below its default, as GPU-ARCHS does for PTX it must JIT) unless an override sets them all.
   */
  public static List<Finding> run(Subject subject, Map<String, Severity> overrides) {
    overrides.keySet().forEach(CheckCatalogue::requireKnown);
    List<Finding> findings = new ArrayList<>();
    for (Check check : forLayout(subject.layout())) {
      Severity severity = overrides.get(check.id());
      check.run(subject).forEach(f -> findings.add(severity == null ? f : f.withSeverity(severity)));
    }
    findings.sort(Comparator.comparing(Finding::severity).reversed()); // stable: catalogue order within a level
    return findings;
  }
}
