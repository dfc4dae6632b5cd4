package dev.tewheel.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.core.goal.ParameterException;
import dev.tewheel.standins.StandIns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.api.plugin.testing.InjectMojo;
import org.apache.maven.api.plugin.testing.MojoParameter;
import org.apache.maven.api.plugin.testing.MojoTest;
import org.apache.maven.plugin.MojoExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * A parameter value the goals cannot use stops the goal before anything is written, with a message that names the
 * parameter as users type it ({@code te.xxx}), echoes the value and says what is expected. Values come through
 * Maven's own converters ({@code @MojoParameter}), as a POM or {@code -D} gives them.
 */
@MojoTest
class ParameterValuesTest {
  private static final String POM = "src/test/resources/pack/pom.xml";

  @TempDir Path temp;

  private void stage(PackWheelMojo mojo) throws Exception {
    Path lib = Files.createDirectories(temp.resolve("wheel/transformer_engine/wheel_lib"));
    Files.writeString(lib.getParent().resolve("__init__.py"), "");
    Files.copy(StandIns.transformerEngine(), lib.resolve("libtransformer_engine.so"));
    mojo.stagingDirectory = temp.resolve("wheel").toFile();
    mojo.wheelDirectory = temp.resolve("dist").toFile();
    mojo.reportDirectory = temp.resolve("reports").toFile();
  }

  /** Maven reads an Integer parameter with Integer.decode: cudaMajor 012 once packed a _cu10 wheel. */
  @Test
  @InjectMojo(goal = "pack-wheel", pom = POM)
  @MojoParameter(name = "cudaMajor", value = "012")
  void aCudaMajorWithALeadingZeroIsRefusedNotReadAsOctal(PackWheelMojo mojo) throws Exception {
    stage(mojo);
    MojoExecutionException e = assertThrows(MojoExecutionException.class, mojo::execute);
    assertEquals("te:pack-wheel: te.cudaMajor = '012': expected a CUDA major version such as 12 or 13: a decimal"
        + " number from 1 to 9999 without leading zeros (Maven alone would read 012 as an octal number)",
        e.getMessage());
    assertFalse(Files.exists(temp.resolve("dist")), "nothing was written");
  }

  /** Every spelling Integer.decode would take, and numbers out of range, are refused; plain decimals are read. */
  @Test
  @InjectMojo(goal = "pack-wheel", pom = POM)
  void majorsAreReadInDecimalOnly(PackWheelMojo mojo) throws Exception {
    List<String> refused = new ArrayList<>(List.of("0x0C", "0X0c", "#C", "-12", "+12", "12.0", "1e1", "12a", "0",
        "10000", "99999999999", "١٢"));
    for (int digits = 1; digits <= 3; digits++) {
      refused.add("0".repeat(digits) + "12");
      refused.add("0".repeat(digits) + "7");
    }
    for (String value : refused) {
      mojo.cudaMajor = value;
      MojoExecutionException e = refusal(mojo, () -> mojo.configuration().cudaMajor(), value);
      assertTrue(e.getMessage().startsWith("te:pack-wheel: te.cudaMajor = '" + value + "': expected a CUDA major"),
          e.getMessage());
    }
    for (int major : new int[] {1, 9, 12, 13, 100, 9999}) {
      mojo.cudaMajor = " " + major + " ";
      assertEquals(major, mojo.configuration().cudaMajor());
    }
    mojo.ncclEpMajor = "010";
    MojoExecutionException e = refusal(mojo, () -> mojo.configuration().ncclEpMajor(), "010");
    assertTrue(e.getMessage().startsWith("te:pack-wheel: te.ncclEpMajor = '010': expected NCCL EP's major version"),
        e.getMessage());
    mojo.ncclEpMajor = "0";
    assertEquals(0, mojo.configuration().ncclEpMajor());
  }

  /** What the goal reports when core's Configuration refuses the value {@code read} reads. */
  private static MojoExecutionException refusal(TeMojo mojo, Executable read, String value) {
    return mojo.configurationError(assertThrows(ParameterException.class, read, value));
  }

  /** A glibc number no int holds once ended in "For input string" from inside a check, naming nothing. */
  @Test
  @InjectMojo(goal = "pack-wheel", pom = POM)
  @MojoParameter(name = "platformTag", value = "manylinux_2_9999999999_x86_64")
  void aPlatformTagNoInstallerWritesIsRefusedNamingTheParameter(PackWheelMojo mojo) throws Exception {
    stage(mojo);
    MojoExecutionException e = assertThrows(MojoExecutionException.class, mojo::execute);
    assertTrue(e.getMessage().startsWith("te:pack-wheel: te.platformTag = 'manylinux_2_9999999999_x86_64': platform"
        + " tag 'manylinux_2_9999999999_x86_64': glibc version 2.9999999999 is not written as installers write it:"
        + " expected manylinux_<major>_<minor>_<arch>"), e.getMessage());
    assertFalse(Files.exists(temp.resolve("dist")), "nothing was written");
  }

  /** te.summary = "x\rRequires-Dist: evil-pkg" once gave a METADATA in which pip read an extra Requires-Dist. */
  @Test
  @InjectMojo(goal = "pack-wheel", pom = POM)
  void aLineBreakInAMetadataFieldIsRefusedNamingTheParameter(PackWheelMojo mojo) throws Exception {
    stage(mojo);
    mojo.summary = "x\rRequires-Dist: evil-pkg";
    MojoExecutionException e = assertThrows(MojoExecutionException.class, mojo::execute);
    assertTrue(e.getMessage().startsWith("te:pack-wheel: te.summary = 'x\\rRequires-Dist: evil-pkg' holds a line"
        + " break, U+000D CARRIAGE RETURN (CR), at character 2:"), e.getMessage());
    assertFalse(Files.exists(temp.resolve("dist")), "nothing was written");
  }

  /** maxGrowthPercent=Infinity once ended in a NumberFormatException, with no report. */
  @Test
  @InjectMojo(goal = "diff-wheel", pom = POM)
  @MojoParameter(name = "maxGrowthPercent", value = "Infinity")
  void aGrowthBudgetThatIsNoFiniteNumberIsRefusedNamingTheParameter(DiffWheelMojo mojo) throws Exception {
    Path folder = Files.createDirectories(temp.resolve("wheel_lib"));
    mojo.baseline = folder.toFile();
    mojo.wheelLib = folder.toFile();
    mojo.reportDirectory = temp.resolve("reports").toFile();
    MojoExecutionException e = assertThrows(MojoExecutionException.class, mojo::execute);
    assertTrue(e.getMessage().startsWith("te:diff-wheel: te.maxGrowthPercent = 'Infinity': maxGrowthPercent Infinity"
        + " is not a finite percentage of at least 0: expected e.g. 10"), e.getMessage());
    assertFalse(Files.exists(temp.resolve("reports")));
  }
}
