package dev.tewheel.core.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The replay's findings name the file, its distribution and a fix, and the fix works under the real glibc. */
class ImportReplayTest {
  @TempDir static Path root;
  static DoctorEnvironments environments;

  @BeforeAll
  static void build() {
    environments = new DoctorEnvironments(root);
  }

  private static DoctorReport doctor(DoctorEnvironments.Environment env) {
    return Doctor.examine(new DoctorRequest(Optional.empty(), List.of(env.sitePackages()), env.variables()));
  }

  @Test
  void eachLoadNamesTheDistributionThatInstalledItsFile() throws Exception {
    DoctorEnvironments.Environment env = environments.make("healthy");
    DoctorReport report = doctor(env);
    DoctorReport.Load cudnn = report.loads().stream().filter(l -> l.file().getFileName().toString()
        .equals("libcudnn.so.9")).findFirst().orElseThrow();
    assertEquals("cudnn", cudnn.stage());
    assertEquals(env.sitePackages().resolve("nvidia/cudnn/lib/libcudnn.so.9"), cudnn.file());
    assertEquals(Optional.of("nvidia-cudnn-cu13==9.14.0.64"), cudnn.distribution());
    assertTrue(report.findings().isEmpty(), "pip's cuDNN, every part of it, shadows nothing: " + report.lines());
    assertEquals("RTLD_GLOBAL | RTLD_LAZY", report.loads().stream().filter(l -> l.stage().equals("core"))
        .findFirst().orElseThrow().mode());
  }

  /** The toolkit's cuDNN shadows pip's; doctor names both and TE's own first root as the fix, which ctypes proves. */
  @Test
  void aShadowedPipCopyIsNamedWithTheVariableThatFixesIt() throws Exception {
    DoctorEnvironments.Environment env = environments.make("shadowed-cudnn");
    assertEquals("core undefined-symbol cudnnGetVersion", TeImportOracle.run(env).outcome());
    Finding shadowed = doctor(env).findings().stream().filter(f -> f.id().equals("DOCTOR-SHADOWED")).findFirst()
        .orElseThrow();
    Path pip = env.sitePackages().resolve("nvidia/cudnn");
    assertEquals(Optional.of("export CUDNN_HOME=" + pip + " (TE searches $CUDNN_HOME first)"), shadowed.fix());
    assertEquals(Optional.of(env.root().resolve("cuda/targets/x86_64-linux/lib/libcudnn.so.9")), shadowed.file());
    assertTrue(shadowed.message().contains("nvidia-cudnn-cu13==9.14.0.64"), shadowed.message());
    Map<String, String> fixed = new HashMap<>(env.variables());
    fixed.put("CUDNN_HOME", pip.toString());
    assertEquals("ok", TeImportOracle.run(new DoctorEnvironments.Environment(env.name(), env.root(),
        env.sitePackages(), fixed, "ok")).outcome(), "the fix doctor names makes the import work");
  }

  /**
   * A symbol missing from a library TE never preloads, bound by the core's own DT_NEEDED search: doctor names that
   * file, the distribution that installed it and the minimum TE's core declares, not only the SONAME.
   */
  @Test
  void aSymbolMissingFromALibraryTheCoreBindsItselfNamesItsFileAndDistribution() throws Exception {
    DoctorEnvironments.Environment env = environments.make("toolkit-cublas-too-old");
    Finding symbol = doctor(env).findings().stream().filter(f -> f.id().equals("DOCTOR-SYMBOL")).findFirst()
        .orElseThrow();
    Path lt = env.sitePackages().resolve("nvidia/cu13/lib/libcublasLt.so.13");
    assertTrue(symbol.message().contains(lt + " (nvidia-cublas==13.0.0.19) lacks it"), symbol.message());
    assertEquals(Optional.of("pip install 'nvidia-cublas>=13.1.0.3'"), symbol.fix());
  }

  /** pip's cuDNN missing: TE raises; doctor names the wheel TE's core declares, and installing it fixes the import. */
  @Test
  void aMissingLibraryNamesTheDeclaredWheel() throws Exception {
    DoctorEnvironments.Environment env = environments.make("no-cudnn");
    DoctorReport report = doctor(env);
    assertEquals(DoctorReport.Verdict.FAILS, report.verdict());
    Finding missing = report.findings().get(0);
    assertEquals("DOCTOR-NOT-FOUND", missing.id());
    assertEquals(Optional.of("pip install 'nvidia-cudnn-cu13>=9.14'"), missing.fix());
    assertEquals("ok", TeImportOracle.run(environments.fixed("no-cudnn", "no-cudnn-fixed",
        List.of(environments.cudnn13()))).outcome(), "the fix doctor names makes the import work");
  }
}
