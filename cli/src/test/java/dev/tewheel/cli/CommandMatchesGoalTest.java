package dev.tewheel.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.core.assemble.AssembleRequest;
import dev.tewheel.core.assemble.Assembler;
import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.goal.Parameter;
import dev.tewheel.core.goal.Parameters;
import dev.tewheel.core.verify.PackedWheel;
import dev.tewheel.core.pack.PackRequest;
import dev.tewheel.plugin.DiffWheelMojo;
import dev.tewheel.plugin.GoalRun;
import dev.tewheel.plugin.PackWheelMojo;
import dev.tewheel.plugin.VerifyReleaseMojo;
import dev.tewheel.plugin.VerifyWheelLibMojo;
import dev.tewheel.standins.StandIns;
import dev.tewheel.standins.StandIns.Defect;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.maven.api.plugin.testing.InjectMojo;
import org.apache.maven.api.plugin.testing.MojoTest;
import org.apache.maven.plugin.AbstractMojo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A goal and its te-wheel command are two adapters of one core entry point: given the same values (here one map,
 * set on the goal by parameter name as a POM would and on the command as its options), both reach the same verdict,
 * exit the same way (0 passed, 1 failed, 2 a configuration error), print the same lines (the goal's log without
 * Maven's prefixes; the table names files relative to the same folder), the same annotations, and write the same
 * report.json; pack writes the same wheel, byte for byte.
 */
@MojoTest
class CommandMatchesGoalTest {
  private static final String POM = "src/test/resources/parity/pom.xml";
  private static final String TIMESTAMP = "2026-01-01T00:00:00Z";
  private static final String WHEEL_28 = "transformer_engine_cu12-2.9.0-py3-none-manylinux_2_28_x86_64.whl";
  private static final String WHEEL_34 = "transformer_engine_cu12-2.9.0-py3-none-manylinux_2_34_x86_64.whl";

  @TempDir Path temp;

  /**
   * A staged tree as assemble lays it out, with {@code teLibrary} as TE's library (TE-BIND-NOW lowered, so that a
   * lazily bound one can be a release to compare).
   */
  private Path stage(String name, Path teLibrary) throws Exception {
    Path staging = temp.resolve(name);
    Path wheelLib = staging.resolve("transformer_engine/wheel_lib");
    new Assembler(line -> {}).assemble(new AssembleRequest(teLibrary, StandIns.ncclEpHome(), null, null, wheelLib,
        Layout.DEFAULT, CheckSettings.defaults(), Map.of("TE-BIND-NOW", Severity.WARNING), null,
        temp.resolve(name + "-state.json"), null, null));
    Files.writeString(wheelLib.getParent().resolve("__init__.py"), "");
    return staging;
  }

  /** A wheel of the stand-ins, packed by core without verification, in a folder of its own. */
  private Path wheel(String name, Path teLibrary, String platformTag) throws Exception {
    PackRequest request = PackRequest.of(stage(name + "-stage", teLibrary), "transformer_engine", "2.9.0",
        platformTag, temp.resolve(name)).withCudaMajor(12);
    return PackedWheel.packAndVerify(request, null).result().wheel();
  }

  private record CommandRun(int exit, List<String> lines, List<String> annotations, String err) {}

  /** Runs te-wheel with {@code values} as options (a list option once per entry), in {@code folder}. */
  private static CommandRun command(String name, Map<Parameter, Object> values, List<String> operands, Path folder,
      Map<String, String> environment) {
    List<String> args = new ArrayList<>(List.of(name));
    values.forEach((parameter, value) -> {
      for (Object each : value instanceof List<?> list ? list : List.of(value)) {
        args.add(parameter.option());
        args.add(each.toString());
      }
    });
    args.addAll(operands);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit = TeWheel.run(args.toArray(String[]::new), new Io(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), environment::get, folder));
    List<String> lines = new ArrayList<>();
    List<String> annotations = new ArrayList<>();
    for (String line : out.toString(StandardCharsets.UTF_8).split("\n", -1)) {
      if (line.startsWith("::")) {
        annotations.add(line);
      } else if (!line.isEmpty()) {
        lines.add(line.startsWith("warning: ") ? line.substring("warning: ".length()) : line);
      }
    }
    String errors = err.toString(StandardCharsets.UTF_8);
    if (exit != Exit.PASSED && !errors.isEmpty()) {
      lines.add(errors.strip()); // a failing goal's message is its last line
    }
    return new CommandRun(exit, lines, annotations, errors);
  }

  /** The goal's parameters: each value by the parameter's name, as a POM sets it. */
  private static Map<String, Object> byName(Map<Parameter, Object> values) {
    Map<String, Object> named = new LinkedHashMap<>();
    values.forEach((p, v) -> named.put(p.name(), v instanceof Path path ? path.toFile() : v));
    return named;
  }

  /** Runs both on the same values and holds them equal; returns the goal's run. */
  private GoalRun same(AbstractMojo mojo, Map<String, Object> goalOnly, String command, Map<Parameter, Object> values,
      List<String> operands, Map<String, String> environment) throws Exception {
    Map<String, Object> parameters = byName(values);
    parameters.putAll(goalOnly);
    GoalRun.configure(mojo, parameters);
    Path reports = (Path) values.get(Parameters.REPORT_DIRECTORY);
    GoalRun goal = GoalRun.execute(mojo, environment);
    String goalReport = reports == null ? null : Files.readString(reports.resolve("report.json"));
    if (reports != null) {
      Files.delete(reports.resolve("report.json")); // the command must write its own
    }
    CommandRun run = command(command, values, operands, GoalRun.projectFolder(mojo), environment);
    assertEquals(goal.exit(), run.exit(), "exit: " + run + "\ngoal: " + goal);
    assertEquals(goal.lines(), run.lines());
    assertEquals(goal.annotations(), run.annotations());
    if (reports != null) {
      assertEquals(goalReport, Files.readString(reports.resolve("report.json")));
    }
    return goal;
  }

  @Test
  void aGoodWheelPassesAlike(@InjectMojo(goal = "verify-wheel-lib", pom = POM) VerifyWheelLibMojo verify)
      throws Exception {
    Path wheel = wheel("good", StandIns.transformerEngine(), "manylinux_2_34_x86_64");
    Map<Parameter, Object> values = new LinkedHashMap<>();
    values.put(Parameters.FLOOR_LIBRARIES, List.of(StandIns.ncclLibDir().toString(),
        StandIns.cudaLibDir().toString()));
    values.put(Parameters.SUPPRESSIONS, List.of("BAKED-BUILD-PATHS@config.h: te-runtime sets NCCL_EP_HOME"));
    values.put(Parameters.REPORT_DIRECTORY, temp.resolve("reports"));
    GoalRun goal = same(verify, Map.of("wheel", wheel.toFile()), "verify", values, List.of(wheel.toString()),
        Map.of());
    assertEquals(0, goal.exit());
    assertTrue(goal.lines().stream().anyMatch(l -> l.startsWith("suppressed BAKED-BUILD-PATHS on ")), goal.lines()
        .toString());
    assertTrue(goal.lines().get(goal.lines().size() - 1).startsWith("PASSED: 0 errors, 0 warnings, 3 suppressed;"),
        goal.lines().toString());
  }

  @Test
  void aFailingWheelFailsAlikeWithTheSameFindingsAndAnnotations(
      @InjectMojo(goal = "verify-wheel-lib", pom = POM) VerifyWheelLibMojo verify) throws Exception {
    Path wheel = wheel("glibc-2.28", StandIns.transformerEngine(), "manylinux_2_28_x86_64");
    assertEquals(WHEEL_28, wheel.getFileName().toString());
    Map<Parameter, Object> values = new LinkedHashMap<>();
    values.put(Parameters.FAIL_ON, "warning");
    values.put(Parameters.SEVERITIES, List.of("SYMBOL-FLOOR=warning", "BAKED-BUILD-PATHS=info"));
    values.put(Parameters.CUDA_MAJOR, "12");
    values.put(Parameters.REPORT_DIRECTORY, temp.resolve("reports"));
    GoalRun goal = same(verify, Map.of("wheel", wheel.toFile()), "verify", values, List.of(wheel.toString()),
        Map.of("GITHUB_ACTIONS", "true"));
    assertEquals(1, goal.exit());
    assertTrue(goal.lines().stream().anyMatch(l -> l.startsWith("PLATFORM ")), goal.lines().toString());
    assertTrue(goal.annotations().stream().anyMatch(a -> a.startsWith("::error ") && a.contains("title=PLATFORM")),
        goal.annotations().toString());
    assertTrue(goal.annotations().stream().anyMatch(a -> a.startsWith("::warning ") && a.contains(
        "title=SYMBOL-FLOOR")), goal.annotations().toString());
  }

  @Test
  void aDiffComparesAlike(@InjectMojo(goal = "diff-wheel", pom = POM) DiffWheelMojo diff) throws Exception {
    Path baseline = wheel("release-1", StandIns.transformerEngine(), "manylinux_2_34_x86_64");
    Path current = wheel("release-2", StandIns.defect(Defect.TE_LAZY_BINDING), "manylinux_2_34_x86_64");
    Map<Parameter, Object> values = new LinkedHashMap<>();
    values.put(Parameters.FAIL_ON, "warning");
    values.put(Parameters.MAX_GROWTH_PERCENT, "5");
    values.put(Parameters.REPORT_DIRECTORY, temp.resolve("reports"));
    GoalRun goal = same(diff, Map.of("baseline", baseline.toFile(), "wheel", current.toFile()), "diff", values,
        List.of(baseline.toString(), current.toString()), Map.of());
    assertEquals(1, goal.exit());
    assertTrue(goal.lines().stream().anyMatch(l -> l.startsWith("DIFF-BIND-NOW ")), goal.lines().toString());
  }

  @Test
  void aReleaseMissingAVariantFailsAlike(@InjectMojo(goal = "verify-release", pom = POM) VerifyReleaseMojo release)
      throws Exception {
    Path folder = wheel("release", StandIns.transformerEngine(), "manylinux_2_34_x86_64").getParent();
    Map<Parameter, Object> values = new LinkedHashMap<>();
    values.put(Parameters.EXPECT_CUDA_MAJORS, List.of("12", "13"));
    values.put(Parameters.EXPECT_PLATFORMS, List.of("x86_64"));
    values.put(Parameters.REPORT_DIRECTORY, temp.resolve("reports"));
    GoalRun goal = same(release, Map.of("releaseDirectory", folder.toFile()), "verify-release", values,
        List.of(folder.toString()), Map.of("GITHUB_ACTIONS", "true"));
    assertEquals(1, goal.exit());
    assertTrue(goal.lines().stream().anyMatch(l -> l.startsWith("RELEASE-MATRIX ") && l.contains(
        "found no cu13 wheel for x86_64")), goal.lines().toString());
    assertTrue(goal.annotations().stream().anyMatch(a -> a.startsWith("::error ") && a.contains(
        "title=RELEASE-MATRIX")), goal.annotations().toString());
  }

  @Test
  void aMalformedValueIsTheSameErrorNamedEachItsOwnWay(
      @InjectMojo(goal = "verify-wheel-lib", pom = POM) VerifyWheelLibMojo verify) throws Exception {
    Map<Parameter, Object> values = Map.of(Parameters.FAIL_ON, "fatal");
    GoalRun.configure(verify, Map.of("failOn", "fatal", "wheel", temp.resolve("any.whl").toFile()));
    GoalRun goal = GoalRun.execute(verify, Map.of());
    CommandRun run = command("verify", values, List.of(temp.resolve("any.whl").toString()), temp, Map.of());
    assertEquals(2, goal.exit());
    assertEquals(2, run.exit());
    String reason = ": severity 'fatal' is none of error, warning, info";
    assertEquals(List.of("te:verify-wheel-lib: te.failOn = 'fatal'" + reason), goal.lines());
    assertEquals("te-wheel verify: --fail-on 'fatal'" + reason + "\n", run.err());
  }

  @Test
  void packWritesTheSameWheelAndVerdict(@InjectMojo(goal = "pack-wheel", pom = POM) PackWheelMojo pack)
      throws Exception {
    Path staging = stage("stage", StandIns.transformerEngine());
    Map<Parameter, Object> values = new LinkedHashMap<>();
    values.put(Parameters.STAGING_DIRECTORY, staging);
    values.put(Parameters.VERSION, "2.9.0");
    values.put(Parameters.CUDA_MAJOR, "12");
    values.put(Parameters.PLATFORM_TAG, "manylinux_2_34_x86_64");
    values.put(Parameters.OUTPUT_TIMESTAMP, TIMESTAMP);
    values.put(Parameters.WHEEL_DIRECTORY, temp.resolve("dist"));
    values.put(Parameters.FLOOR_LIBRARIES, List.of(StandIns.ncclLibDir().toString(),
        StandIns.cudaLibDir().toString()));
    values.put(Parameters.REPORT_DIRECTORY, temp.resolve("reports"));
    Map<String, Object> parameters = byName(values);
    parameters.put("attach", false);
    GoalRun.configure(pack, parameters);
    GoalRun goal = GoalRun.execute(pack, Map.of());
    byte[] goalWheel = Files.readAllBytes(temp.resolve("dist").resolve(WHEEL_34));
    String goalReport = Files.readString(temp.resolve("reports/report.json"));
    Files.delete(temp.resolve("dist").resolve(WHEEL_34));
    Files.delete(temp.resolve("reports/report.json"));

    CommandRun run = command("pack", values, List.of(), GoalRun.projectFolder(pack), Map.of());
    assertEquals(0, goal.exit(), goal.toString());
    assertEquals(goal.exit(), run.exit(), run.toString());
    assertArrayEquals(goalWheel, Files.readAllBytes(temp.resolve("dist").resolve(WHEEL_34)));
    assertEquals(goalReport, Files.readString(temp.resolve("reports/report.json")));
    // The lines but the packer's timing ("<wheel>: 19 files, ... in 812 ms") and the goal's note relating the staged
    // tree to an assemble of the same Maven build, which a command does not have.
    assertTrue(goal.lines().get(0).startsWith("te:pack-wheel packs " + staging.resolve("transformer_engine/wheel_lib")
        + ", assembled by an earlier build"), goal.lines().get(0));
    assertEquals(withoutTimes(goal.lines().subList(1, goal.lines().size())), withoutTimes(run.lines()));
    assertFalse(run.lines().isEmpty());
    assertTrue(run.lines().get(run.lines().size() - 1).startsWith("verify: PASSED: "), run.lines().toString());
  }

  /**
   * Pack with layout any (as te-wheel's own pip wheel is packed): a native wheel that is not TE's, with a staged
   * entry_points.txt, written alike by the goal and the command and verified as verify checks any native wheel.
   */
  @Test
  void packWithLayoutAnyWritesAnyNativeWheelAlike(@InjectMojo(goal = "pack-wheel", pom = POM) PackWheelMojo pack)
      throws Exception {
    Path staging = temp.resolve("any-stage");
    Files.createDirectories(staging.resolve("nvdemo"));
    Files.writeString(staging.resolve("nvdemo/__init__.py"), "from ._native import *\n");
    Files.copy(StandIns.transformerEngine(), staging.resolve("nvdemo/_native.cpython-312-x86_64-linux-gnu.so"));
    Files.createDirectories(staging.resolve("nvdemo-1.0.dist-info"));
    Files.writeString(staging.resolve("nvdemo-1.0.dist-info/entry_points.txt"), "[console_scripts]\nnvdemo = nvdemo:main\n");
    Map<Parameter, Object> values = new LinkedHashMap<>();
    values.put(Parameters.STAGING_DIRECTORY, staging);
    values.put(Parameters.DISTRIBUTION, "nvdemo");
    values.put(Parameters.VERSION, "1.0");
    values.put(Parameters.LAYOUT, "any");
    values.put(Parameters.PLATFORM_TAG, "manylinux_2_34_x86_64");
    values.put(Parameters.OUTPUT_TIMESTAMP, TIMESTAMP);
    values.put(Parameters.WHEEL_DIRECTORY, temp.resolve("any-dist"));
    values.put(Parameters.REPORT_DIRECTORY, temp.resolve("any-reports"));
    Map<String, Object> parameters = byName(values);
    parameters.put("attach", false);
    GoalRun.configure(pack, parameters);
    GoalRun goal = GoalRun.execute(pack, Map.of());
    Path wheel = temp.resolve("any-dist/nvdemo-1.0-py3-none-manylinux_2_34_x86_64.whl");
    byte[] goalWheel = Files.readAllBytes(wheel);
    Files.delete(wheel);

    CommandRun run = command("pack", values, List.of(), GoalRun.projectFolder(pack), Map.of());
    assertEquals(0, goal.exit(), goal.toString());
    assertEquals(0, run.exit(), run.toString());
    assertArrayEquals(goalWheel, Files.readAllBytes(wheel));
    assertEquals(withoutTimes(goal.lines()), withoutTimes(run.lines()));
    String verdict = run.lines().get(run.lines().size() - 1);
    assertTrue(verdict.startsWith("verify: PASSED: ") && verdict.contains("on wheel nvdemo-1.0-py3-none-manylinux_2_34"
        + "_x86_64.whl (layout any)"), run.lines().toString());
  }

  private static List<String> withoutTimes(List<String> lines) {
    return lines.stream().map(l -> l.replaceAll(" in \\d+ ms$", " in … ms")).toList();
  }
}
