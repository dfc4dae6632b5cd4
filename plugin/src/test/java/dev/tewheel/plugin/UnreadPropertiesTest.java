package dev.tewheel.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.core.assemble.AssembleRequest;
import dev.tewheel.core.assemble.Assembler;
import dev.tewheel.core.goal.UnreadProperties;
import dev.tewheel.standins.StandIns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.maven.api.plugin.testing.InjectMojo;
import org.apache.maven.api.plugin.testing.MojoTest;
import org.codehaus.plexus.util.xml.Xpp3Dom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A te.* property that the running goal leaves unread is a warning, never silently ignored. */
@MojoTest
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class UnreadPropertiesTest {
  private static final String POM = "src/test/resources/pack/pom.xml";

  @TempDir Path temp;

  @Test
  void aSharedParameterTheGoalDoesNotReadIsWarnedAbout(
      @InjectMojo(goal = "assemble-wheel-lib", pom = POM) AssembleWheelLibMojo assemble) throws Exception {
    RecordingLog log = new RecordingLog();
    assemble.setLog(log);
    assemble.session.getUserProperties().setProperty("te.failOn", "warning");
    assemble.session.getUserProperties().setProperty("te.native.tests.skip", "true"); // te-runtime's, not ours
    assemble.transformerEngineLibrary = StandIns.transformerEngine().toFile();
    assemble.outputDirectory = temp.resolve("wheel_lib").toFile();
    assemble.stateFile = temp.resolve("state.json").toFile();
    assemble.execute();
    assertEquals(List.of("-Dte.failOn has no effect: te:assemble-wheel-lib does not read failOn (read by"
        + " te:diff-wheel, te:pack-wheel, te:verify-wheel-lib)"), log.warnings().stream()
        .filter(w -> w.startsWith("-D")).toList());
  }

  @Test
  void jarWarnsThatItPacksWheelLibNotTheGivenWheel(
      @InjectMojo(goal = "jar-wheel-lib", pom = POM) JarWheelLibMojo jar) throws Exception {
    Path wheelLib = temp.resolve("wheel_lib");
    new Assembler(line -> {}).assemble(AssembleRequest.of(StandIns.transformerEngine(), StandIns.ncclEpHome(),
        wheelLib).withStateFile(temp.resolve("state.json")));
    RecordingLog log = new RecordingLog();
    jar.setLog(log);
    jar.session.getUserProperties().setProperty("te.wheel", temp.resolve("other.whl").toString());
    jar.wheelLib = wheelLib.toFile();
    jar.jarDirectory = temp.toFile();
    jar.finalName = "natives";
    jar.execute();
    assertEquals(List.of("-Dte.wheel has no effect: te:jar-wheel-lib does not read wheel (read by te:diff-wheel,"
        + " te:verify-wheel-lib)"), log.warnings());
  }

  @Test
  void aPropertyThePomOverridesIsWarnedAbout(@InjectMojo(goal = "pack-wheel", pom = POM) PackWheelMojo pack)
      throws Exception {
    Path lib = Files.createDirectories(temp.resolve("wheel/transformer_engine/wheel_lib"));
    Files.writeString(lib.resolveSibling("__init__.py"), "");
    Files.copy(StandIns.transformerEngine(), lib.resolve("libtransformer_engine.so"));
    RecordingLog log = new RecordingLog();
    pack.setLog(log);
    pack.session.getUserProperties().setProperty("te.version", "3.0.0");
    // The configuration Maven hands the run: the POM's <version>, and the property expression of the rest.
    Xpp3Dom configuration = new Xpp3Dom("configuration");
    configuration.addChild(element("version", "2.9.0"));
    configuration.addChild(element("summary", "${te.summary}"));
    pack.mojoExecution.setConfiguration(configuration);
    pack.stagingDirectory = temp.resolve("wheel").toFile();
    pack.wheelDirectory = temp.resolve("dist").toFile();
    pack.reportDirectory = temp.resolve("reports").toFile();
    pack.verify = "false";
    pack.execute();
    assertTrue(log.warnings().contains("-Dte.version=3.0.0 is ignored by te:pack-wheel: the POM sets"
        + " <version>2.9.0</version>, which wins over a user property; remove <version> from the POM, or write"
        + " <version>${te.version}</version>, for the property to count"), log.warnings().toString());
    assertTrue(Files.exists(temp.resolve("dist/transformer_engine_cu13-2.9.0-py3-none-manylinux_2_34_x86_64.whl")));
  }

  @Test
  void aPropertyAnotherBoundGoalReadsIsNoWarning() {
    Properties user = new Properties();
    user.setProperty("te.failOn", "warning");
    Map<String, Set<String>> reads = Map.of("assemble-wheel-lib", Set.of("layout"),
        "verify-wheel-lib", Set.of("layout", "failOn"));
    assertEquals(List.of(), UnreadProperties.warnings("assemble-wheel-lib", reads, List.of("verify-wheel-lib"),
        user, Map.of()));
    assertEquals(1, UnreadProperties.warnings("assemble-wheel-lib", reads, List.of(), user, Map.of()).size());
  }

  @Test
  void theGoalsColumnsOfParametersMdAreWhatEachGoalReads() throws Exception {
    List<String> goals = List.of("assemble-wheel-lib", "verify-wheel-lib", "pack-wheel", "diff-wheel",
        "jar-wheel-lib");
    int rows = 0;
    for (String line : Files.readAllLines(Path.of("../docs/goals/parameters.md"))) {
      if (!line.startsWith("| `")) {
        continue;
      }
      String[] cells = line.split("\\|", -1);
      String parameter = cells[1].trim().replace("`", "");
      for (int i = 0; i < goals.size(); i++) {
        boolean documented = cells[cells.length - 6 + i].contains("\u2713");
        boolean read = !UnreadProperties.SHARED_NOT_READ.get(goals.get(i)).contains(parameter);
        assertEquals(documented, read, parameter + " for " + goals.get(i));
      }
      rows++;
    }
    assertTrue(rows >= 19, rows + " rows");
  }

  private static Xpp3Dom element(String name, String value) {
    Xpp3Dom element = new Xpp3Dom(name);
    element.setValue(value);
    return element;
  }
}
