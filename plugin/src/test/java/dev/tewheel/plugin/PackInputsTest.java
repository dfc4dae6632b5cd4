package dev.tewheel.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.core.assemble.AssembleRequest;
import dev.tewheel.core.assemble.Assembler;
import dev.tewheel.standins.StandIns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.maven.api.plugin.testing.InjectMojo;
import org.apache.maven.api.plugin.testing.MojoTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** What pack reads and writes is said, never silent: which wheel_lib it packs, and where its reports go. */
@MojoTest
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class PackInputsTest {
  private static final String POM = "src/test/resources/pack/pom.xml";

  @TempDir Path temp;

  /** A staged tree whose wheel_lib an earlier build assembled (manifest and all). */
  private Path stageAssembledEarlier() throws Exception {
    Path staging = temp.resolve("wheel");
    Path lib = staging.resolve("transformer_engine/wheel_lib");
    new Assembler(line -> {}).assemble(AssembleRequest.of(StandIns.transformerEngine(), StandIns.ncclEpHome(), lib)
        .withStateFile(temp.resolve("earlier-state.json")));
    Files.writeString(lib.resolveSibling("__init__.py"), "");
    return staging;
  }

  private void configure(PackWheelMojo pack, RecordingLog log) throws Exception {
    pack.setLog(log);
    pack.stagingDirectory = stageAssembledEarlier().toFile();
    pack.wheelDirectory = temp.resolve("dist").toFile();
    pack.buildDirectory = temp.resolve("target").toFile();
  }

  @Test
  void packWritesItsReportsToTePackNeverOverVerifysOwnAndSaysWhere(
      @InjectMojo(goal = "pack-wheel", pom = POM) PackWheelMojo pack) throws Exception {
    RecordingLog log = new RecordingLog();
    configure(pack, log);
    pack.reportDirectory = null;
    Path verifys = Files.createDirectories(temp.resolve("target/te-verify")).resolve("report.json");
    Files.writeString(verifys, "verify's own report");
    pack.execute();
    assertEquals("verify's own report", Files.readString(verifys));
    Path packs = temp.resolve("target/te-pack");
    assertTrue(Files.readString(packs.resolve("report.json")).contains("\"passed\": true"));
    assertTrue(Files.isRegularFile(packs.resolve("TEST-te-verify-wheel-lib.xml")));
    assertTrue(log.infos().contains("reports: " + packs.resolve("report.json") + ", "
        + packs.resolve("TEST-te-verify-wheel-lib.xml") + ", " + packs.resolve("verify.sarif")), log.lines.toString());
  }

  @Test
  void aWheelLibNoAssembleOfThisBuildWroteIsNamedAsOlder(
      @InjectMojo(goal = "assemble-wheel-lib", pom = POM) AssembleWheelLibMojo assemble,
      @InjectMojo(goal = "pack-wheel", pom = POM) PackWheelMojo pack) throws Exception {
    assertTrue(assemble.project == pack.project, "one project for both goals, as in one build");
    RecordingLog log = new RecordingLog();
    configure(pack, log);
    Path staged = temp.resolve("wheel/transformer_engine/wheel_lib");

    pack.execute(); // no assemble ran in this build
    assertTrue(log.infos().stream().anyMatch(l -> l.startsWith("te:pack-wheel packs " + staged + ", assembled by an"
        + " earlier build (te-wheel-lib.json written ")), log.lines.toString());

    assemble.setLog(new RecordingLog());
    assemble.transformerEngineLibrary = StandIns.transformerEngine().toFile();
    assemble.ncclEpHome = StandIns.ncclEpHome().toFile();
    Path elsewhere = temp.resolve("elsewhere/wheel_lib");
    assemble.outputDirectory = elsewhere.toFile();
    assemble.stateFile = temp.resolve("state.json").toFile();
    assemble.execute(); // as -Dte.outputDirectory=elsewhere would
    log.lines.clear();
    pack.execute();
    assertEquals(List.of("te:pack-wheel packs " + staged + ", but te:assemble-wheel-lib wrote " + elsewhere
        + " in this build: the staged wheel_lib is an older one. Point te.outputDirectory at " + staged
        + " or te.stagingDirectory at the folder above the one assemble wrote"), log.warnings().stream()
        .filter(w -> w.startsWith("te:pack-wheel")).toList()); // the rest: the verification's warning findings

    assemble.outputDirectory = staged.toFile();
    assemble.execute();
    log.lines.clear();
    pack.execute();
    assertEquals(List.of(), log.warnings().stream().filter(w -> !w.matches("[A-Z0-9-]+ +WARNING .*")).toList(),
        "no warning but the verification's findings");
    assertTrue(log.infos().stream().noneMatch(l -> l.contains("earlier build")), log.lines.toString());
  }
}
