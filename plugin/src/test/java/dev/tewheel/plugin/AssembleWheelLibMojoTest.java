package dev.tewheel.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.bundle.manifest.Manifest;
import dev.tewheel.json.Json;
import dev.tewheel.standins.StandIns.Defect;
import dev.tewheel.standins.StandIns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.maven.api.plugin.testing.InjectMojo;
import org.apache.maven.api.plugin.testing.MojoTest;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.logging.SystemStreamLog;
import org.apache.maven.project.MavenProject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The Mojo's wiring: POM configuration reaches core, and core's errors become the right Maven exceptions. */
@MojoTest
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class AssembleWheelLibMojoTest {
  private static final String POM = "src/test/resources/assemble/pom.xml";

  @TempDir Path temp;

  @Test
  @InjectMojo(goal = "assemble-wheel-lib", pom = POM)
  void pomConfigurationReachesCore(AssembleWheelLibMojo mojo) throws Exception {
    assertEquals("ep-home", mojo.layout);
    assertEquals(List.of("**/*.h", "**/*.hpp", "**/*.cuh"), mojo.headerIncludes);
    mojo.transformerEngineLibrary = StandIns.transformerEngine().toFile();
    mojo.ncclEpHome = StandIns.ncclEpHome().toFile();
    mojo.outputDirectory = temp.resolve("wheel_lib").toFile();
    mojo.execute();

    Path out = temp.resolve("wheel_lib");
    assertTrue(Files.isRegularFile(out.resolve("nccl_ep/lib/libnccl_ep.so.0")));
    assertEquals("ep-home", Manifest.read(out.resolve("te-wheel-lib.json")).layout());
    assertEquals(FileTime.from(Instant.parse("2026-01-01T00:00:00Z")),
        Files.getLastModifiedTime(out.resolve("libtransformer_engine.so")));
  }

  @Test
  @InjectMojo(goal = "assemble-wheel-lib", pom = POM)
  void aFailedCheckIsABuildFailureNamingTheFix(AssembleWheelLibMojo mojo) {
    mojo.transformerEngineLibrary = StandIns.defect(Defect.TE_LAZY_BINDING).toFile();
    mojo.outputDirectory = temp.resolve("wheel_lib").toFile();
    MojoFailureException e = assertThrows(MojoFailureException.class, mojo::execute);
    assertTrue(e.getMessage().contains("link libtransformer_engine.so with -Wl,-z,now"), e.getMessage());
    assertFalse(Files.exists(temp.resolve("wheel_lib")));
  }

  @Test
  @InjectMojo(goal = "assemble-wheel-lib", pom = POM)
  void aBadParameterIsAConfigurationError(AssembleWheelLibMojo mojo) {
    mojo.transformerEngineLibrary = StandIns.transformerEngine().toFile();
    mojo.outputDirectory = temp.resolve("wheel_lib").toFile();
    mojo.layout = "flat";
    MojoExecutionException e = assertThrows(MojoExecutionException.class, mojo::execute);
    assertEquals("te:assemble-wheel-lib: te.layout = 'flat': unknown layout 'flat': expected one of [default,"
        + " ep-home, any]", e.getMessage()); // as docs/goals/assemble-wheel-lib.md shows it
  }

  @Test
  @InjectMojo(goal = "assemble-wheel-lib", pom = POM)
  void layoutAnyIsRefusedBeforeAnythingIsWritten(AssembleWheelLibMojo mojo) {
    mojo.transformerEngineLibrary = StandIns.transformerEngine().toFile();
    mojo.outputDirectory = temp.resolve("wheel_lib").toFile();
    mojo.layout = "any";
    MojoExecutionException e = assertThrows(MojoExecutionException.class, mojo::execute);
    assertTrue(e.getMessage().startsWith("te:assemble-wheel-lib: te.layout = 'any': 'any' is for te:verify-wheel-lib,"
        + " te:diff-wheel and te:pack-wheel"), e.getMessage());
    assertFalse(Files.exists(temp.resolve("wheel_lib")));
  }

  @Test
  @InjectMojo(goal = "assemble-wheel-lib", pom = POM)
  void skipWritesNothing(AssembleWheelLibMojo mojo) throws Exception {
    mojo.skip = true;
    mojo.outputDirectory = temp.resolve("wheel_lib").toFile();
    mojo.execute();
    assertFalse(Files.exists(temp.resolve("wheel_lib")));
  }

  /** A newline in a file name the goal logs once reached the build log raw: a forged "[INFO] BUILD SUCCESS" line. */
  @Test
  @InjectMojo(goal = "assemble-wheel-lib", pom = POM)
  void aNewlineInAnInputNameIsLoggedEscapedNeverAsAForgedLine(AssembleWheelLibMojo mojo) throws Exception {
    Path out = temp.resolve("out\n[INFO] BUILD SUCCESS\n\u001b[2K").resolve("wheel_lib");
    mojo.transformerEngineLibrary = StandIns.transformerEngine().toFile();
    mojo.ncclEpHome = StandIns.ncclEpHome().toFile();
    mojo.outputDirectory = out.toFile();
    List<String> logged = new ArrayList<>();
    mojo.setLog(new SystemStreamLog() {
      @Override
      public void info(CharSequence line) {
        logged.add("[INFO] " + line);
      }

      @Override
      public void warn(CharSequence line) {
        logged.add("[WARNING] " + line);
      }
    });
    mojo.execute();
    assertTrue(Files.isRegularFile(out.resolve("libtransformer_engine.so")));
    List<String> naming = logged.stream().filter(l -> l.contains("BUILD SUCCESS")).toList();
    assertFalse(naming.isEmpty(), "no logged line names the output folder: " + logged);
    for (String line : logged) {
      assertTrue(line.chars().noneMatch(c -> c < 0x20), "a control character reached the log: " + line);
    }
    assertTrue(naming.stream().anyMatch(l -> l.contains("out\\n[INFO] BUILD SUCCESS\\n\\u001b[2K")), naming.toString());
  }

  @Test
  @InjectMojo(goal = "assemble-wheel-lib", pom = POM)
  void floorLibrariesReachSymbolFloorAndItsInfoIsLoggedAsInfo(AssembleWheelLibMojo mojo) throws Exception {
    mojo.transformerEngineLibrary = StandIns.defect(Defect.TE_CALLS_WINDOW_REGISTER).toFile();
    mojo.outputDirectory = temp.resolve("wheel_lib").toFile();
    List<String> logged = new ArrayList<>();
    mojo.setLog(new SystemStreamLog() {
      @Override
      public void info(CharSequence line) {
        logged.add("[INFO] " + line);
      }

      @Override
      public void warn(CharSequence line) {
        logged.add("[WARNING] " + line);
      }
    });
    mojo.floorLibraries = List.of(StandIns.oldestNcclLibDir().toString());
    MojoFailureException e = assertThrows(MojoFailureException.class, mojo::execute);
    assertTrue(e.getMessage().contains("[ERROR SYMBOL-FLOOR]") && e.getMessage().contains("ncclCommWindowRegister"),
        e.getMessage());
    assertFalse(Files.exists(temp.resolve("wheel_lib")));

    mojo.floorLibraries = List.of(StandIns.ncclLibDir().toString());
    mojo.execute();
    assertTrue(logged.stream().anyMatch(l -> l.matches("\\[INFO\\] SYMBOL-FLOOR +INFO .*")
        && l.contains("found DT_NEEDED without a floor, not checked: libstdc++.so.6")), logged.toString());
    assertTrue(logged.stream().noneMatch(l -> l.matches("\\[WARNING\\] [A-Z0-9-]+ +INFO .*")), logged.toString());
  }

  @Test
  @InjectMojo(goal = "assemble-wheel-lib", pom = POM)
  void onGitHubActionsAStoppedRunAnnotatesEachFindingAndWritesItsReports(AssembleWheelLibMojo mojo) throws Exception {
    assertEquals(Path.of("te-assemble"), mojo.reportPath().getFileName(), "verify's convention: target/te-<kind>");
    Path lazy = StandIns.defect(Defect.TE_LAZY_BINDING);
    mojo.transformerEngineLibrary = lazy.toFile();
    mojo.ncclEpHome = StandIns.ncclEpHome().toFile();
    mojo.outputDirectory = temp.resolve("wheel_lib").toFile();
    mojo.reportDirectory = temp.resolve("reports").toFile();
    RecordingLog log = new RecordingLog();
    mojo.setLog(log);
    List<String> commands = new ArrayList<>();
    mojo.workflowOutput = commands::add;
    mojo.environment = Map.of("GITHUB_ACTIONS", "true")::get;
    assertThrows(MojoFailureException.class, mojo::execute);
    assertFalse(Files.exists(temp.resolve("wheel_lib")));

    assertTrue(commands.get(0).startsWith("::error file=" + lazy + ",title=TE-BIND-NOW::TE-BIND-NOW: found lazy"
        + " binding"), commands.toString());
    String config = StandIns.ncclEpHome().resolve("include/nccl_ep/config.h").toString();
    assertTrue(commands.stream().anyMatch(c -> c.startsWith("::warning file=" + config
        + ",line=2,title=BAKED-BUILD-PATHS::BAKED-BUILD-PATHS: found ")), commands.toString());
    assertEquals(1, log.errors().stream().filter(l -> l.startsWith("TE-BIND-NOW ")).count(), log.lines.toString());
    Path reports = temp.resolve("reports");
    assertTrue(log.infos().contains("reports: " + reports.resolve("report.json") + ", "
        + reports.resolve("TEST-te-assemble-wheel-lib.xml") + ", " + reports.resolve("assemble.sarif")),
        log.lines.toString());
    String json = Files.readString(reports.resolve("report.json"));
    assertTrue(json.contains("\"schema\": \"te-wheel-assemble-report/1\"") && json.contains("\"passed\": false"), json);
    Map<?, ?> run = (Map<?, ?>) ((List<?>) ((Map<?, ?>) Json.parse(Files.readString(reports.resolve("assemble.sarif"))))
        .get("runs")).get(0);
    Map<?, ?> first = (Map<?, ?>) ((List<?>) run.get("results")).get(0);
    assertEquals("TE-BIND-NOW", first.get("ruleId"));
    assertEquals("error", first.get("level"));
    assertEquals(Map.of("uri", "file://" + lazy), ((Map<?, ?>) ((Map<?, ?>) ((List<?>) first.get("locations")).get(0))
        .get("physicalLocation")).get("artifactLocation"));

    commands.clear();
    mojo.environment = Map.<String, String>of()::get; // not on GitHub Actions: no workflow commands
    assertThrows(MojoFailureException.class, mojo::execute);
    assertEquals(List.of(), commands);
  }

  /** Issue 21: a finding assemble printed is referred to by verify later in the same build, not printed again. */
  @Test
  void aFindingAssemblePrintedIsReferredToByVerifyInTheSameBuild(
      @InjectMojo(goal = "assemble-wheel-lib", pom = POM) AssembleWheelLibMojo assemble,
      @InjectMojo(goal = "verify-wheel-lib", pom = POM) VerifyWheelLibMojo verify) throws Exception {
    MavenProject project = new MavenProject(); // one project's build: both goals share its context
    assemble.project = project;
    verify.project = project;
    Path out = temp.resolve("wheel_lib");
    assemble.transformerEngineLibrary = StandIns.transformerEngine().toFile();
    assemble.ncclEpHome = StandIns.ncclEpHome().toFile();
    assemble.outputDirectory = out.toFile();
    assemble.reportDirectory = temp.resolve("assemble-reports").toFile();
    RecordingLog assembleLog = new RecordingLog();
    assemble.setLog(assembleLog);
    List<String> commands = new ArrayList<>();
    assemble.workflowOutput = commands::add;
    assemble.environment = Map.of("GITHUB_ACTIONS", "true")::get;
    assemble.execute();
    assertEquals(3, assembleLog.warnings().stream().filter(l -> l.startsWith("BAKED-BUILD-PATHS ")).count(),
        assembleLog.lines.toString());
    int annotated = commands.size();

    verify.wheelLib = out.toFile();
    verify.reportDirectory = temp.resolve("verify-reports").toFile();
    RecordingLog verifyLog = new RecordingLog();
    verify.setLog(verifyLog);
    verify.workflowOutput = commands::add;
    verify.environment = Map.of("GITHUB_ACTIONS", "true")::get;
    verify.execute();
    assertTrue(verifyLog.warnings().stream().noneMatch(l -> l.startsWith("BAKED-BUILD-PATHS ")),
        verifyLog.lines.toString());
    List<String> referred = verifyLog.infos().stream().filter(l -> l.startsWith("  BAKED-BUILD-PATHS on ")
        && l.endsWith(": as te:assemble-wheel-lib reported above")).toList();
    assertEquals(3, referred.size(), verifyLog.lines.toString());
    assertTrue(referred.get(0).contains("config.h:2"), referred.toString());
    assertTrue(commands.subList(annotated, commands.size()).stream().noneMatch(c -> c.contains("BAKED-BUILD-PATHS")),
        "annotated once, by assemble: " + commands);
    // The verdict still counts them: referring to a finding is a matter of printing only.
    assertTrue(verifyLog.infos().stream().anyMatch(l -> l.startsWith("PASSED: 0 errors, 3 warnings")),
        verifyLog.lines.toString());
  }
}
