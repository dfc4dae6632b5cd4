package dev.tewheel.core.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.loader.te.TePythonImport;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * In every environment, the loads doctor's replay plans (loader's model of TE's import) are the loads Python's
 * ctypes performs in TE's order with the real glibc: the same files in the same order, the same refusal where TE
 * raises, and, where glibc refuses a load, that load next in the plan.
 */
class ImportPlanMatchesCtypesTest extends EveryEnvironment {
  @ParameterizedTest
  @MethodSource("names")
  void thePlanIsWhatCtypesLoads(String name) throws Exception {
    DoctorEnvironments.Environment env = environments.make(name);
    TeImportOracle oracle = TeImportOracle.run(env);
    if (!oracle.ok() && oracle.stage().equals("packages")) {
      return; // TE raises before any load: the package checks are held to this in PackageChecksTest
    }
    PythonEnvironment python = PythonEnvironment.ofFolders(List.of(env.sitePackages()));
    TePythonImport.Plan plan = ImportReplay.replay(python, Distributions.read(List.of(env.sitePackages())),
        env.variables()).plan();
    List<String> planned = plan.loads().stream().map(l -> l.file().toString()).toList();
    String context = name + ": oracle " + oracle + "\nplan " + plan;
    assertTrue(planned.size() >= oracle.loaded().size(), context);
    assertEquals(oracle.loaded(), planned.subList(0, oracle.loaded().size()), context);
    if (!oracle.ok() && oracle.kind().equals("runtime-error") && oracle.stage().equals("extension")) {
      // TE's extension checks its packages' versions before anything of it loads: doctor's package checks say so.
      assertTrue(List.of("torch", "jax", "extension").contains(plan.loads().get(oracle.loaded().size()).stage()),
          context);
      assertTrue(PackageChecks.check(Distributions.read(List.of(env.sitePackages()))).stream()
          .anyMatch(f -> f.id().equals("DOCTOR-TE-PACKAGES") && f.message().contains("framework extension")), context);
    } else if (oracle.ok()) {
      assertEquals(oracle.loaded().size(), planned.size(), context);
      assertTrue(plan.refusal().isEmpty(), context);
    } else if (List.of("not-found", "runtime-error").contains(oracle.kind())) {
      assertEquals(oracle.loaded().size(), planned.size(), context);
      assertEquals(oracle.stage(), plan.refusal().orElseThrow(() -> new AssertionError(context)).stage(), context);
    } else {
      TePythonImport.Load next = plan.loads().get(oracle.loaded().size());
      assertEquals(oracle.library(), next.file().getFileName().toString(), context);
      assertEquals(oracle.stage(), next.stage(), context);
    }
  }
}
