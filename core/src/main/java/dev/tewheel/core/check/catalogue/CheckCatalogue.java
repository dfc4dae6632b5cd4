package dev.tewheel.core.check.catalogue;

import dev.tewheel.core.check.library.Aarch64BranchProtectionCheck;
import dev.tewheel.core.check.headers.BakedBuildPathsCheck;
import dev.tewheel.core.check.Check;
import dev.tewheel.core.check.deps.CudaVariantCheck;
import dev.tewheel.core.check.deps.DependenciesResolveCheck;
import dev.tewheel.core.check.floor.DepsDeclaredCheck;
import dev.tewheel.core.check.layout.DuplicateContentCheck;
import dev.tewheel.core.check.library.ElfOneMachineCheck;
import dev.tewheel.core.check.library.ElfSharedObjectCheck;
import dev.tewheel.core.check.library.ExecStackCheck;
import dev.tewheel.core.check.layout.FileTypesCheck;
import dev.tewheel.core.check.library.GpuArchsCheck;
import dev.tewheel.core.check.headers.HeadersSelfContainedCheck;
import dev.tewheel.core.check.platform.IsaLevelCheck;
import dev.tewheel.core.check.layout.LayoutRequiredFilesCheck;
import dev.tewheel.core.check.layout.LayoutUnexpectedCheck;
import dev.tewheel.core.check.layout.ManifestDigestsCheck;
import dev.tewheel.core.check.ncclep.NcclEpExportsCheck;
import dev.tewheel.core.check.ncclep.NcclEpFileVersionCheck;
import dev.tewheel.core.check.ncclep.NcclEpNoRunpathCheck;
import dev.tewheel.core.check.ncclep.NcclEpSonameCheck;
import dev.tewheel.core.check.platform.PlatformCheck;
import dev.tewheel.core.check.layout.SonameFileNameCheck;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.floor.SymbolFloorCheck;
import dev.tewheel.core.check.te.TeBindNowCheck;
import dev.tewheel.core.check.te.TeForbiddenNeededCheck;
import dev.tewheel.core.check.te.TeRunpathOriginCheck;
import dev.tewheel.core.check.te.TeUndefinedNcclEpCheck;
import dev.tewheel.core.check.library.VerneedNeededCheck;
import dev.tewheel.core.check.wheel.WheelBombCheck;
import dev.tewheel.core.check.wheel.WheelPathsCheck;
import dev.tewheel.core.check.wheel.WheelRecordCheck;
import dev.tewheel.core.check.wheel.WheelSizeCheck;
import dev.tewheel.core.check.wheel.WheelTagsCheck;
import dev.tewheel.core.check.wheel.WheelZipCheck;
import dev.tewheel.core.gate.RuleSet;
import dev.tewheel.core.gate.Severity;
import java.util.List;

/**
 * Every check, once: assemble, verify and pack all judge by these objects, through {@link dev.tewheel.core.gate.Gate}.
 * IDs are listed in docs/checks.md.
 */
public final class CheckCatalogue extends RuleSet<Subject> {
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
      new DepsDeclaredCheck(),
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

  private CheckCatalogue(List<Check> checks) {
    // Every ID stays known under layout=any; a check's findings come in the order it made them, each at the
    // severity it gave (GPU-ARCHS: PTX below SASS).
    super("check", checks, ALL, (check, subject) -> ((Check) check).run(subject));
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
}
