package dev.tewheel.core.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.standins.StandIns;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which distribution and version installed each file, read from what real pip wrote. */
class DistributionsTest {
  @TempDir static Path root;
  static DoctorEnvironments environments;

  @BeforeAll
  static void build() {
    environments = new DoctorEnvironments(root);
  }

  @Test
  void eachFileNamesTheDistributionPipInstalledItFrom() throws Exception {
    DoctorEnvironments.Environment env = environments.make("healthy");
    Distributions d = Distributions.read(List.of(env.sitePackages()));
    Path lt = env.sitePackages().resolve("nvidia/cu13/lib/libcublasLt.so.13");
    assertEquals(List.of("nvidia-cublas==" + DoctorEnvironments.CUBLAS_NEW),
        d.owners(lt).stream().map(Distribution::label).toList());
    Distribution core = d.named("transformer-engine-cu13").orElseThrow();
    assertEquals(Optional.of("nvidia-cublas>=" + DoctorEnvironments.CUBLAS_NEW), core.requirement("nvidia_cublas"));
    assertFalse(core.purelibWheel());
    assertTrue(d.named("transformer_engine").orElseThrow().purelibWheel());
    assertTrue(d.problems().isEmpty(), d.problems().toString());
  }

  @Test
  void twoMajorsOfOneLibraryBothClaimItsFile() throws Exception {
    DoctorEnvironments.Environment env = environments.make("two-cuda-majors");
    Distributions d = Distributions.read(List.of(env.sitePackages()));
    assertEquals(List.of("nvidia-nccl-cu12==" + StandIns.OLDEST_NCCL_RELEASE,
        "nvidia-nccl-cu13==" + StandIns.OLD_NCCL_RELEASE),
        d.owners(env.sitePackages().resolve("nvidia/nccl/lib/libnccl.so.2")).stream().map(Distribution::label)
            .sorted().toList());
  }
}
