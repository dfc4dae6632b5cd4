package dev.tewheel.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * docs/architecture.md's rules, held to every module's class files: no package cycle, the module dependency rules,
 * and the dynamic loader's inputs read by the loader model only.
 */
class ArchitectureTest {
  /**
   * Classes that name the loader's inputs without interpreting them, and why they may: they hold the shipped bytes to
   * a policy, or name a search step in a report.
   */
  static final Map<String, String> NAMING_ONLY = Map.of(
      "dev.tewheel.core.check.te.TeRunpathOriginCheck",
      "TE-RUNPATH: TE's DT_RUNPATH/DT_RPATH text must be $ORIGIN-relative",
      "dev.tewheel.core.check.ncclep.NcclEpNoRunpathCheck", "NCCL EP ships without a DT_RUNPATH/DT_RPATH",
      "dev.tewheel.runtime.report.Dependency", "FoundBy: the reports' word for each step of the search");

  /** te-runtime's internal packages, lowest first: each imports only those before it. */
  static final String INTERNAL = "dev.tewheel.runtime.internal";
  static final List<String> INTERNAL_LAYERS = List.of("ffm", "host", "search", "load");

  private final JavaClasses all = TeWheelClasses.all();

  /** No package of any module reaches a package that reaches back; te-runtime's split by job included. */
  @Test
  void noModuleHasAPackageCycle() {
    Rules.noPackageCycles("dev.tewheel").check(all);
  }

  /**
   * te-runtime's layering (docs/architecture.md): reports and errors name no other te-runtime package; internal
   * names only them; NCCL, NCCL EP and TE never name the entry point.
   */
  @Test
  void theRuntimePackagesAreLayered() {
    noClasses().that().resideInAnyPackage("dev.tewheel.runtime.report", "dev.tewheel.runtime.error")
        .should().dependOnClassesThat().resideInAnyPackage("dev.tewheel.runtime", "dev.tewheel.runtime.internal..",
            "dev.tewheel.runtime.nccl", "dev.tewheel.runtime.ncclep", "dev.tewheel.runtime.te").check(all);
    noClasses().that().resideInAPackage("dev.tewheel.runtime.internal..").should().dependOnClassesThat()
        .resideInAnyPackage("dev.tewheel.runtime", "dev.tewheel.runtime.nccl", "dev.tewheel.runtime.ncclep",
            "dev.tewheel.runtime.te", "dev.tewheel.runtime.cli").check(all);
    noClasses().that().resideInAnyPackage("dev.tewheel.runtime.nccl", "dev.tewheel.runtime.ncclep",
        "dev.tewheel.runtime.te").should().dependOnClassesThat().resideInAPackage("dev.tewheel.runtime").check(all);
  }

  /**
   * te-runtime's internal packages, each one job (docs/architecture.md): the FFM bindings name nothing of the live
   * host, the host nothing of the search, the search nothing of the load sequence; every class sits in one of them;
   * NCCL, NCCL EP and TE call through the bindings and the loaded library, never the host or the search; only the
   * bindings bind a native function.
   */
  @Test
  void theRuntimeInternalPackagesAreLayered() {
    Rules.layered(INTERNAL, INTERNAL_LAYERS).check(all);
    classes().that().resideInAPackage(INTERNAL + "..").should().resideInAnyPackage(
        INTERNAL_LAYERS.stream().map(p -> INTERNAL + "." + p).toArray(String[]::new)).check(all);
    noClasses().that().resideInAnyPackage("dev.tewheel.runtime.nccl", "dev.tewheel.runtime.ncclep",
        "dev.tewheel.runtime.te").should().dependOnClassesThat()
        .resideInAnyPackage(INTERNAL + ".host", INTERNAL + ".search").check(all);
    noClasses().that().resideInAnyPackage(INTERNAL + ".host", INTERNAL + ".search", INTERNAL + ".load").should()
        .dependOnClassesThat()
        .haveNameMatching("java\\.lang\\.foreign\\.(Linker|SymbolLookup|FunctionDescriptor)\\b.*")
        .because("binding a native function is internal.ffm's job").check(all);
  }

  @Test
  void onlyTheLoaderModelReadsTheLoadersInputs() {
    noClasses().that().resideOutsideOfPackages("dev.tewheel.elf..", "dev.tewheel.loader..")
        .and(DescribedPredicate.not(Rules.namedOrNestedIn(NAMING_ONLY.keySet())))
        .should(Rules.readLoaderInputs()).check(all);
  }

  @Test
  void theNamingOnlyClassesStillNameIt() {
    Set<String> listed = NAMING_ONLY.keySet();
    Map<String, List<String>> reading = new TreeMap<>();
    for (String name : listed) {
      List<String> reasons = all.stream().filter(Rules.namedOrNestedIn(Set.of(name))::test)
          .flatMap(c -> Rules.loaderInputsRead(c).stream()).toList();
      reading.put(name, reasons);
    }
    Set<String> stopped = reading.entrySet().stream().filter(e -> e.getValue().isEmpty()).map(Map.Entry::getKey)
        .collect(Collectors.toSet());
    assertEquals(Set.of(), stopped, "no longer read the loader's inputs: take them off the lists");
  }

  @Test
  void elfBundleJsonAndLoaderUseOnlyTheJdkAndTheModulesBelow() {
    classes().that().resideInAPackage("dev.tewheel.json..").should().onlyDependOnClassesThat()
        .resideInAnyPackage("java..", "dev.tewheel.json..").check(all);
    classes().that().resideInAPackage("dev.tewheel.elf..").should().onlyDependOnClassesThat()
        .resideInAnyPackage("java..", "dev.tewheel.json..", "dev.tewheel.elf..").check(all);
    classes().that().resideInAPackage("dev.tewheel.bundle..").should().onlyDependOnClassesThat()
        .resideInAnyPackage("java..", "dev.tewheel.json..", "dev.tewheel.elf..", "dev.tewheel.bundle..").check(all);
    classes().that().resideInAPackage("dev.tewheel.loader..").should().onlyDependOnClassesThat()
        .resideInAnyPackage("java..", "dev.tewheel.elf..", "dev.tewheel.bundle..", "dev.tewheel.loader..")
        .check(all);
  }

  @Test
  void theLoaderModelIsPureJava17() {
    noClasses().that().resideInAPackage("dev.tewheel.loader..").should().dependOnClassesThat()
        .resideInAPackage("java.lang.foreign..").check(all);
  }

  @Test
  void coreNeverDependsOnThePluginTheRuntimeOrMaven() {
    noClasses().that().resideInAPackage("dev.tewheel.core..").should().dependOnClassesThat()
        .resideInAnyPackage("dev.tewheel.plugin..", "dev.tewheel.runtime..", "dev.tewheel.cli..", "org.apache.maven..")
        .check(all);
  }

  @Test
  void theRuntimeNeverDependsOnCoreThePluginOrAThirdParty() {
    classes().that().resideInAPackage("dev.tewheel.runtime..").should().onlyDependOnClassesThat()
        .resideInAnyPackage("java..", "dev.tewheel.json..", "dev.tewheel.elf..", "dev.tewheel.bundle..",
            "dev.tewheel.loader..", "dev.tewheel.runtime..").check(all);
  }

  @Test
  void nothingDependsOnThePlugin() {
    noClasses().that().resideOutsideOfPackage("dev.tewheel.plugin..").should().dependOnClassesThat()
        .resideInAPackage("dev.tewheel.plugin..").check(all);
  }
}
