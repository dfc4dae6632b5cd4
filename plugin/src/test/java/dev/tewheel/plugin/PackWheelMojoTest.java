package dev.tewheel.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.standins.StandIns;
import dev.tewheel.standins.StandIns.Defect;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.maven.api.plugin.testing.InjectMojo;
import org.apache.maven.api.plugin.testing.MojoTest;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@MojoTest
class PackWheelMojoTest {
  private static final String POM = "src/test/resources/pack/pom.xml";
  private static final String WHEEL = "transformer_engine_cu13-2.9.0-py3-none-manylinux_2_34_x86_64.whl";

  @TempDir Path temp;

  private Path stage(Path teLibrary) throws Exception {
    Path lib = Files.createDirectories(temp.resolve("wheel/transformer_engine/wheel_lib"));
    Files.writeString(lib.getParent().resolve("__init__.py"), "");
    Files.copy(teLibrary, lib.resolve("libtransformer_engine.so"));
    return temp.resolve("wheel");
  }

  @Test
  @InjectMojo(goal = "pack-wheel", pom = POM)
  void packsTheCudaVariantAndVerifiesIt(PackWheelMojo mojo) throws Exception {
    assertEquals("13", mojo.cudaMajor);
    mojo.stagingDirectory = stage(StandIns.transformerEngine()).toFile();
    mojo.wheelDirectory = temp.resolve("dist").toFile();
    mojo.reportDirectory = temp.resolve("reports").toFile();
    mojo.execute();
    assertTrue(Files.isRegularFile(temp.resolve("dist").resolve(WHEEL)));
    assertTrue(Files.readString(temp.resolve("reports/report.json")).contains("\"passed\": true"));
  }

  @Test
  @InjectMojo(goal = "pack-wheel", pom = POM)
  void aWheelThatFailsVerificationNeverLeavesTheGoal(PackWheelMojo mojo) throws Exception {
    mojo.stagingDirectory = stage(StandIns.defect(Defect.TE_LAZY_BINDING)).toFile();
    mojo.wheelDirectory = temp.resolve("dist").toFile();
    mojo.reportDirectory = temp.resolve("reports").toFile();
    MojoFailureException e = assertThrows(MojoFailureException.class, mojo::execute);
    assertTrue(e.getMessage().contains("FAILED: 1 error") && e.getMessage().contains(WHEEL + ".rejected"),
        e.getMessage());
    assertFalse(Files.exists(temp.resolve("dist").resolve(WHEEL)));
    assertTrue(Files.exists(temp.resolve("dist").resolve(WHEEL + ".rejected")));
  }

  @Test
  @InjectMojo(goal = "pack-wheel", pom = POM)
  void aBadLevelIsAConfigurationError(PackWheelMojo mojo) throws Exception {
    mojo.stagingDirectory = stage(StandIns.transformerEngine()).toFile();
    mojo.wheelDirectory = temp.resolve("dist").toFile();
    mojo.compressionLevel = "11";
    MojoExecutionException e = assertThrows(MojoExecutionException.class, mojo::execute);
    assertTrue(e.getMessage().startsWith("te:pack-wheel: te.compressionLevel must be 0 to 9, got 11"), e.getMessage());
  }

  @Test
  @InjectMojo(goal = "pack-wheel", pom = POM)
  void aMissingVersionIsNamedAsUsersTypeIt(PackWheelMojo mojo) throws Exception {
    mojo.stagingDirectory = stage(StandIns.transformerEngine()).toFile();
    mojo.wheelDirectory = temp.resolve("dist").toFile();
    mojo.version = null;
    MojoExecutionException e = assertThrows(MojoExecutionException.class, mojo::execute);
    assertEquals("te:pack-wheel: te.version is required", e.getMessage());
  }
}
