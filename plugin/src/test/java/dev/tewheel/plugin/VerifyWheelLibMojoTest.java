package dev.tewheel.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.core.assemble.AssembleRequest;
import dev.tewheel.core.assemble.Assembler;
import dev.tewheel.standins.StandIns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.maven.api.plugin.testing.InjectMojo;
import org.apache.maven.api.plugin.testing.MojoTest;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@MojoTest
class VerifyWheelLibMojoTest {
  private static final String POM = "src/test/resources/verify/pom.xml";

  @TempDir Path temp;
  private Path wheelLib;

  @BeforeEach
  void assemble() throws Exception {
    wheelLib = temp.resolve("wheel_lib");
    new Assembler(line -> {}).assemble(AssembleRequest.of(StandIns.transformerEngine(), StandIns.ncclEpHome(), wheelLib));
  }

  @Test
  @InjectMojo(goal = "verify-wheel-lib", pom = POM)
  void passesWithTheSuppressionAndWritesReports(VerifyWheelLibMojo mojo) throws Exception {
    assertEquals("warning", mojo.failOn);
    assertEquals(1, mojo.suppressions.size());
    mojo.wheelLib = wheelLib.toFile();
    mojo.reportDirectory = temp.resolve("reports").toFile();
    mojo.execute();
    assertTrue(Files.readString(temp.resolve("reports/report.json")).contains("\"passed\": true"));
  }

  @Test
  @InjectMojo(goal = "verify-wheel-lib", pom = POM)
  void aFindingAtFailOnFailsTheBuildWithTheSummary(VerifyWheelLibMojo mojo) throws Exception {
    Files.writeString(wheelLib.resolve("notes.txt"), "stray");
    mojo.wheelLib = wheelLib.toFile();
    mojo.reportDirectory = temp.resolve("reports").toFile();
    MojoFailureException e = assertThrows(MojoFailureException.class, mojo::execute);
    assertTrue(e.getMessage().startsWith("FAILED: 0 errors, 1 warning, 3 suppressed;"), e.getMessage());
  }

  @Test
  @InjectMojo(goal = "verify-wheel-lib", pom = POM)
  void onGitHubActionsEachFindingIsAnAnnotationAndEachIsLoggedAtItsLevel(VerifyWheelLibMojo mojo) throws Exception {
    Files.writeString(wheelLib.resolve("notes.txt"), "stray");
    mojo.wheelLib = wheelLib.toFile();
    mojo.reportDirectory = temp.resolve("reports").toFile();
    RecordingLog log = new RecordingLog();
    mojo.setLog(log);
    List<String> commands = new ArrayList<>();
    mojo.workflowOutput = commands::add;
    mojo.environment = Map.of("GITHUB_ACTIONS", "true")::get;
    assertThrows(MojoFailureException.class, mojo::execute);
    assertEquals(2, commands.size(), "LAYOUT-UNEXPECTED and SYMBOL-FLOOR's info: " + commands);
    assertTrue(commands.get(0).startsWith("::warning file=" + wheelLib.resolve("notes.txt")
        + ",title=LAYOUT-UNEXPECTED::LAYOUT-UNEXPECTED: found "), commands.get(0));
    assertTrue(commands.get(1).startsWith("::notice file=" + wheelLib.resolve("libtransformer_engine.so")
        + ",title=SYMBOL-FLOOR::SYMBOL-FLOOR: found no floorLibraries"), commands.get(1));
    assertTrue(log.warnings().stream().anyMatch(l -> l.startsWith("LAYOUT-UNEXPECTED ") && l.contains("notes.txt")),
        log.lines.toString());
    assertTrue(log.infos().stream().anyMatch(l -> l.startsWith("reports: ") && l.endsWith("verify.sarif")),
        log.lines.toString());
    assertTrue(Files.readString(temp.resolve("reports/verify.sarif")).contains("\"ruleId\": \"LAYOUT-UNEXPECTED\""));

    commands.clear();
    mojo.environment = Map.<String, String>of()::get; // not on GitHub Actions: no workflow commands
    assertThrows(MojoFailureException.class, mojo::execute);
    assertEquals(List.of(), commands);
  }

  @Test
  @InjectMojo(goal = "verify-wheel-lib", pom = POM)
  void malformedParametersAreConfigurationErrors(VerifyWheelLibMojo mojo) {
    mojo.wheelLib = wheelLib.toFile();
    mojo.reportDirectory = temp.resolve("reports").toFile();
    mojo.suppressions = List.of("BAKED-BUILD-PATHS");
    MojoExecutionException e = assertThrows(MojoExecutionException.class, mojo::execute);
    assertTrue(e.getMessage().contains("is not of the form ID[@file[:line]]: reason"), e.getMessage());
    mojo.suppressions = List.of();
    mojo.failOn = "fatal";
    e = assertThrows(MojoExecutionException.class, mojo::execute);
    assertTrue(e.getMessage().startsWith("te:verify-wheel-lib: te.failOn = 'fatal': "), e.getMessage());
  }

  @Test
  @InjectMojo(goal = "verify-wheel-lib", pom = POM)
  void anUnknownCheckIdListsTheValidOnesBeforeAnyCheckRuns(VerifyWheelLibMojo mojo) {
    mojo.wheelLib = temp.resolve("no-such-folder").toFile(); // reading it would fail: nothing may run first
    mojo.reportDirectory = temp.resolve("reports").toFile();
    mojo.severities = List.of("TE-BIND-LATER=warning");
    MojoExecutionException e = assertThrows(MojoExecutionException.class, mojo::execute);
    assertTrue(e.getMessage().startsWith("te:verify-wheel-lib: te.severities = ['TE-BIND-LATER=warning']: no check has"
        + " the ID 'TE-BIND-LATER'; the check IDs are LAYOUT-REQUIRED, "), e.getMessage());
    mojo.severities = List.of();
    mojo.suppressions = List.of("TE-BIND-LATER: typo");
    e = assertThrows(MojoExecutionException.class, mojo::execute);
    assertTrue(e.getMessage().contains("no check has the ID 'TE-BIND-LATER'; the check IDs are"), e.getMessage());
    assertTrue(Files.notExists(temp.resolve("reports")));
  }

  @Test
  @InjectMojo(goal = "verify-wheel-lib", pom = POM)
  void aMaxWheelSizeWithoutAUnitOfKibMibOrGibIsAConfigurationError(VerifyWheelLibMojo mojo) {
    mojo.wheelLib = wheelLib.toFile();
    mojo.reportDirectory = temp.resolve("reports").toFile();
    mojo.maxWheelSize = "1GB";
    MojoExecutionException e = assertThrows(MojoExecutionException.class, mojo::execute);
    assertEquals("te:verify-wheel-lib: te.maxWheelSize = '1GB': '1GB' is not a size: expected a number with KiB, MiB"
        + " or GiB (e.g. 500MiB, 1.5GiB), or a number of bytes", e.getMessage());
  }

  @Test
  @InjectMojo(goal = "verify-wheel-lib", pom = POM)
  void floorLibrariesHoldTheLibrariesToTheOldestSupportedNccl(VerifyWheelLibMojo mojo) throws Exception {
    Path window = temp.resolve("window/wheel_lib");
    new Assembler(line -> {}).assemble(AssembleRequest.of(StandIns.defect(StandIns.Defect.TE_CALLS_WINDOW_REGISTER),
        StandIns.ncclEpHome(), window));
    mojo.wheelLib = window.toFile();
    mojo.reportDirectory = temp.resolve("reports").toFile();
    mojo.floorLibraries = List.of(StandIns.oldestNcclLibDir().toString());
    MojoFailureException e = assertThrows(MojoFailureException.class, mojo::execute);
    assertTrue(e.getMessage().startsWith("FAILED: 2 errors,"), e.getMessage());
    String report = Files.readString(temp.resolve("reports/report.json"));
    assertTrue(report.contains("ncclCommWindowRegister (needed from libnccl.so.2), which the floor "), report);

    mojo.floorLibraries = List.of(StandIns.ncclLibDir().toString());
    mojo.execute();
    assertTrue(Files.readString(temp.resolve("reports/report.json")).contains("\"passed\": true"));
  }

  @Test
  @InjectMojo(goal = "verify-wheel-lib", pom = POM)
  void aFloorPathThatIsNoPathIsAConfigurationError(VerifyWheelLibMojo mojo) {
    mojo.wheelLib = wheelLib.toFile();
    mojo.reportDirectory = temp.resolve("reports").toFile();
    mojo.floorLibraries = List.of("nccl\0/lib");
    MojoExecutionException e = assertThrows(MojoExecutionException.class, mojo::execute);
    assertTrue(e.getMessage().startsWith("te:verify-wheel-lib: te.floorLibraries = ['nccl\\0/lib']: "),
        e.getMessage());
  }
}
