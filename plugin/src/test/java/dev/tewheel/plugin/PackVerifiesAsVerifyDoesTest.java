package dev.tewheel.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.standins.StandIns;
import dev.tewheel.standins.StandIns.Defect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.maven.api.plugin.testing.InjectMojo;
import org.apache.maven.api.plugin.testing.MojoTest;
import org.apache.maven.plugin.MojoFailureException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * te:pack-wheel verifies what it wrote with the check settings the project configured, so pack and
 * te:verify-wheel-lib reach the same verdict on the same wheel: a finding is an error in both, or lowered or
 * suppressed in both. (pack once verified with defaults, dropping severities, allow-lists and suppressions.)
 */
@MojoTest
class PackVerifiesAsVerifyDoesTest {
  private static final String POM = "src/test/resources/agree/pom.xml";
  private static final String WHEEL = "transformer_engine-2.9.0-py3-none-manylinux_2_34_x86_64.whl";

  @TempDir Path temp;

  /** A staged tree whose TE library binds lazily (TE-BIND-NOW, an error by default) and NEEDS libcuda.so.1. */
  private Path stage(Path teLibrary) throws Exception {
    Path lib = Files.createDirectories(temp.resolve("wheel/transformer_engine/wheel_lib"));
    Files.writeString(lib.getParent().resolve("__init__.py"), "");
    Files.copy(teLibrary, lib.resolve("libtransformer_engine.so"));
    return temp.resolve("wheel");
  }

  /** The id=severity of each unsuppressed finding in report.json, in order. */
  private static List<String> findings(Path reports) throws Exception {
    String json = Files.readString(reports.resolve("report.json"));
    String active = json.substring(json.indexOf("\"findings\""), json.indexOf("\"suppressed\": ["));
    Matcher m = Pattern.compile("\"id\": \"([A-Z0-9-]+)\",\\s*\"severity\": \"(\\w+)\"").matcher(active);
    List<String> out = new java.util.ArrayList<>();
    while (m.find()) {
      out.add(m.group(1) + "=" + m.group(2));
    }
    return out;
  }

  @Test
  void theConfiguredSettingsHoldInPackAsInVerify(@InjectMojo(goal = "pack-wheel", pom = POM) PackWheelMojo pack,
      @InjectMojo(goal = "verify-wheel-lib", pom = POM) VerifyWheelLibMojo verify) throws Exception {
    pack.stagingDirectory = stage(StandIns.defect(Defect.TE_LAZY_BINDING)).toFile();
    pack.wheelDirectory = temp.resolve("dist").toFile();
    pack.reportDirectory = temp.resolve("pack-reports").toFile();
    pack.execute(); // TE-BIND-NOW=warning: passes, as verify does

    verify.wheel = temp.resolve("dist").resolve(WHEEL).toFile();
    verify.reportDirectory = temp.resolve("verify-reports").toFile();
    verify.execute();

    List<String> packed = findings(temp.resolve("pack-reports"));
    assertTrue(packed.contains("TE-BIND-NOW=warning"), packed.toString());
    assertEquals(findings(temp.resolve("verify-reports")), packed);
  }

  @Test
  void aSuppressionHoldsInPackAsInVerify(@InjectMojo(goal = "pack-wheel", pom = POM) PackWheelMojo pack,
      @InjectMojo(goal = "verify-wheel-lib", pom = POM) VerifyWheelLibMojo verify) throws Exception {
    for (TeMojo mojo : List.<TeMojo>of(pack, verify)) {
      mojo.severities = List.of();
      mojo.suppressions = List.of("TE-BIND-NOW: the stand-in binds lazily on purpose");
    }
    pack.stagingDirectory = stage(StandIns.defect(Defect.TE_LAZY_BINDING)).toFile();
    pack.wheelDirectory = temp.resolve("dist").toFile();
    pack.reportDirectory = temp.resolve("pack-reports").toFile();
    pack.execute();

    verify.wheel = temp.resolve("dist").resolve(WHEEL).toFile();
    verify.reportDirectory = temp.resolve("verify-reports").toFile();
    verify.execute();

    for (String reports : List.of("pack-reports", "verify-reports")) {
      String json = Files.readString(temp.resolve(reports).resolve("report.json"));
      assertTrue(json.contains("\"reason\": \"the stand-in binds lazily on purpose\""), reports + ": " + json);
    }
    assertEquals(findings(temp.resolve("verify-reports")), findings(temp.resolve("pack-reports")));
  }

  @Test
  void withoutTheOverrideTheFindingIsAnErrorInBoth(@InjectMojo(goal = "pack-wheel", pom = POM) PackWheelMojo pack,
      @InjectMojo(goal = "verify-wheel-lib", pom = POM) VerifyWheelLibMojo verify) throws Exception {
    pack.severities = List.of();
    verify.severities = List.of();
    pack.stagingDirectory = stage(StandIns.defect(Defect.TE_LAZY_BINDING)).toFile();
    pack.wheelDirectory = temp.resolve("dist").toFile();
    pack.reportDirectory = temp.resolve("pack-reports").toFile();
    assertThrows(MojoFailureException.class, pack::execute);

    // The rejected wheel, under its own name again, through the gate.
    Path again = Files.createDirectories(temp.resolve("again")).resolve(WHEEL);
    Files.copy(temp.resolve("dist").resolve(WHEEL + ".rejected"), again);
    verify.wheel = again.toFile();
    verify.reportDirectory = temp.resolve("verify-reports").toFile();
    assertThrows(MojoFailureException.class, verify::execute);

    List<String> packed = findings(temp.resolve("pack-reports"));
    assertTrue(packed.contains("TE-BIND-NOW=error"), packed.toString());
    assertEquals(findings(temp.resolve("verify-reports")), packed);
  }
}
