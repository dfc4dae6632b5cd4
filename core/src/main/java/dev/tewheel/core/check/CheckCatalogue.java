package dev.tewheel.core.check;

import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Rule;
import dev.tewheel.core.gate.RuleSet;
import dev.tewheel.core.gate.Severity;
import java.util.List;

/**
 * Every check, once: assemble, verify and pack all judge by these objects, through {@link dev.tewheel.core.gate.Gate}.
 * IDs are listed in docs/checks.md.
 */
public final class CheckCatalogue implements RuleSet<Subject> {
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

  /** The catalogue as the gate runs it. */
  public static final CheckCatalogue CHECKS = new CheckCatalogue(ALL);
  /** Under layout=any: {@link AnyLayout}'s checks only; every ID stays known (a suppression of another is harmless). */
  private static final CheckCatalogue ANY_LAYOUT = new CheckCatalogue(ALL.stream().filter(AnyLayout::runs).toList());

  private final List<Check> checks;

  private CheckCatalogue(List<Check> checks) {
    this.checks = checks;
  }

  public static List<Check> all() {
    return ALL;
  }

  /** The catalogue that runs on a subject of this layout: under layout=any, {@link AnyLayout}'s checks. */
  public static CheckCatalogue forLayout(dev.tewheel.bundle.layout.Layout layout) {
    return layout.any() ? ANY_LAYOUT : CHECKS;
  }

  /** The check with this ID; an unknown one is {@link RuleSet#requireKnown}'s error. */
  public static Check check(String id) {
    return (Check) CHECKS.requireKnown(id);
  }

  @Override
  public String noun() {
    return "check";
  }

  @Override
  public List<Check> rules() {
    return checks;
  }

  @Override
  public java.util.Optional<Rule> byId(String id) {
    return ALL.stream().<Rule>map(c -> c).filter(c -> c.id().equals(id)).findFirst();
  }

  /** One check's findings, in the order it made them, each at the severity it gave (GPU-ARCHS: PTX below SASS). */
  @Override
  public List<Finding> run(Rule rule, Subject subject) {
    return ((Check) rule).run(subject);
  }
}
