package dev.tewheel.pip;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.tewheel.core.assemble.AssembleRequest;
import dev.tewheel.core.assemble.Assembler;
import dev.tewheel.json.Json;
import dev.tewheel.standins.StandIns;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * te-wheel as a TE CI job gets it: the wheel this module built, installed by Debian's pip with
 * {@code pip install --no-index --target} into an empty folder, and its console script run in a clean environment
 * whose PATH holds that folder's bin/ alone (no java anywhere on it) and no JAVA_HOME. It packs, verifies and diffs
 * the stand-ins' TE wheel with real verdicts, runs te-runtime's report on its bundled Java, passes its own gate
 * under the tag that gate suggests, and starts from its class-data archive.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PipInstalledTeWheelTest {
  private static final String PYTHON = "/usr/bin/python3";
  private static final String TE_34 = "transformer_engine_cu12-2.9.0-py3-none-manylinux_2_34_x86_64.whl";

  private Path temp;
  private Path ownWheel;
  private Path site;
  private Path stage;

  @BeforeAll
  void installAndStage(@TempDir Path folder) throws Exception {
    temp = folder;
    Path wheels = Path.of(System.getProperty("te.pipWheelDirectory"));
    try (Stream<Path> files = Files.list(wheels)) {
      List<Path> found = files.filter(p -> p.getFileName().toString().endsWith(".whl")).toList();
      assertEquals(1, found.size(), "the wheels in " + wheels + ": " + found);
      ownWheel = found.get(0);
    }
    site = temp.resolve("site");
    Run pip = run(List.of(PYTHON, "-m", "pip", "install", "--no-index", "--no-deps", "--disable-pip-version-check",
        "--target", site.toString(), ownWheel.toString()), temp, Map.of("PATH", "/usr/bin:/bin"));
    assertEquals(0, pip.exit(), "Debian's pip (python3-pip) must install " + ownWheel + ":\n" + pip.output());

    // The stand-ins' TE package, staged as a TE build stages it for te-wheel pack.
    stage = temp.resolve("stage");
    Path wheelLib = stage.resolve("transformer_engine/wheel_lib");
    new Assembler(line -> {}).assemble(AssembleRequest.of(StandIns.transformerEngine(), StandIns.ncclEpHome(), wheelLib)
        .withStateFile(temp.resolve("assemble-state.json")));
    Files.writeString(stage.resolve("transformer_engine/__init__.py"), "");
  }

  private record Run(int exit, String output) {}

  private static Run run(List<String> command, Path folder, Map<String, String> environment) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(command).directory(folder.toFile()).redirectErrorStream(true);
    builder.environment().clear();
    builder.environment().putAll(environment);
    Process process = builder.start();
    process.getOutputStream().close();
    String output = new String(process.getInputStream().readAllBytes());
    if (!process.waitFor(5, java.util.concurrent.TimeUnit.MINUTES)) {
      process.destroyForcibly();
      fail(command + " still ran after 5 minutes");
    }
    return new Run(process.exitValue(), output);
  }

  /** The environment of a CI job with only te-wheel installed: PATH is site/bin alone, no JAVA_HOME. */
  private Map<String, String> cleanEnvironment() {
    return Map.of("PATH", site.resolve("bin").toString(), "PYTHONPATH", site.toString(), "HOME", temp.toString(),
        "LANG", "C.UTF-8");
  }

  /** Runs the installed console script with {@code args} in {@code folder}, in {@link #cleanEnvironment()}. */
  private Run teWheel(Path folder, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(site.resolve("bin/te-wheel").toString()));
    command.addAll(List.of(args));
    return run(command, folder, cleanEnvironment());
  }

  @Test
  void theInstalledCommandRunsWithNoJdkOnPathAndNoJavaHome() throws Exception {
    for (String entry : cleanEnvironment().get("PATH").split(File.pathSeparator)) {
      assertFalse(Files.exists(Path.of(entry, "java")), "a java on the test's PATH: " + entry);
    }
    assertFalse(cleanEnvironment().containsKey("JAVA_HOME"));
    Path script = site.resolve("bin/te-wheel");
    assertTrue(Files.isExecutable(script), "pip installed the console script " + script);
    assertTrue(Files.readString(script).contains("from te_wheel.__main__ import main"), Files.readString(script));
    Run version = teWheel(temp, "--version");
    assertEquals(0, version.exit(), version.output());
    assertEquals("te-wheel " + System.getProperty("te.version"), version.output().strip());
  }

  @Test
  void packsVerifiesAndDiffsTheStandInsTeWheel() throws Exception {
    Path work = Files.createDirectories(temp.resolve("pvd"));
    Run pack = teWheel(work, "pack", "--staging-directory", stage.toString(), "--version", "2.9.0", "--cuda-major",
        "12", "--platform-tag", "manylinux_2_34_x86_64", "--wheel-directory", "dist");
    assertEquals(0, pack.exit(), pack.output());
    assertTrue(pack.output().contains("verify: PASSED: 0 errors, 3 warnings"), pack.output());
    Path wheel = work.resolve("dist").resolve(TE_34);
    assertTrue(Files.isRegularFile(wheel), pack.output());

    // A tag the libraries do not fit: pack keeps the wheel as .rejected and exits 1 with PLATFORM's finding.
    Run rejected = teWheel(work, "pack", "--staging-directory", stage.toString(), "--version", "2.9.0",
        "--cuda-major", "12", "--platform-tag", "manylinux_2_28_x86_64", "--wheel-directory", "dist28");
    assertEquals(1, rejected.exit(), rejected.output());
    assertTrue(rejected.output().contains("PLATFORM") && rejected.output().contains("found GLIBC_2.34"),
        rejected.output());
    assertTrue(Files.isRegularFile(work.resolve("dist28/transformer_engine_cu12-2.9.0-py3-none-manylinux_2_28_x86_64"
        + ".whl.rejected")));

    Run verify = teWheel(work, "verify", "dist/" + TE_34, "--report-dir", "reports");
    assertEquals(0, verify.exit(), verify.output());
    assertTrue(verify.output().contains("suggested platform tag: manylinux_2_34_x86_64"), verify.output());
    assertTrue(verify.output().contains("PASSED: 0 errors, 3 warnings, 0 suppressed; 34 checks on wheel_lib"),
        verify.output());
    Map<?, ?> report = (Map<?, ?>) Json.parse(Files.readString(work.resolve("reports/report.json")));
    assertEquals(Boolean.TRUE, report.get("passed"));

    // A report on standard output is JSON and nothing else: the JVM's own messages go to standard error.
    List<String> json = new ArrayList<>(List.of(site.resolve("bin/te-wheel").toString(), "verify", "--format",
        "json", "dist/" + TE_34));
    ProcessBuilder builder = new ProcessBuilder(json).directory(work.toFile())
        .redirectError(ProcessBuilder.Redirect.DISCARD);
    builder.environment().clear();
    builder.environment().putAll(cleanEnvironment());
    Process process = builder.start();
    String stdout = new String(process.getInputStream().readAllBytes());
    assertEquals(0, process.waitFor());
    assertEquals("te-wheel-verify-report/1", ((Map<?, ?>) Json.parse(stdout)).get("schema"));

    // The same release against itself passes; against a build whose TE library lost BIND_NOW, DIFF-BIND-NOW (a
    // warning) is found, and fails the diff at --fail-on warning.
    Files.copy(wheel, work.resolve("baseline.whl"));
    Run same = teWheel(work, "diff", "baseline.whl", "dist/" + TE_34);
    assertEquals(0, same.exit(), same.output());
    assertTrue(same.output().contains("PASSED: 0 errors, 0 warnings, 0 suppressed; 10 checks"), same.output());
    Path lazyLibrary = stage.resolve("transformer_engine/wheel_lib/libtransformer_engine.so");
    Path lazyStage = temp.resolve("lazy-stage");
    copyTree(stage, lazyStage);
    Files.copy(StandIns.defect(StandIns.Defect.TE_LAZY_BINDING), lazyStage.resolve(stage.relativize(lazyLibrary)),
        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    Run lazyPack = teWheel(work, "pack", "--staging-directory", lazyStage.toString(), "--version", "2.9.0",
        "--cuda-major", "12", "--platform-tag", "manylinux_2_34_x86_64", "--wheel-directory", "lazy", "--verify",
        "false");
    assertEquals(0, lazyPack.exit(), lazyPack.output());
    Run lazy = teWheel(work, "diff", "--fail-on", "warning", "baseline.whl", "lazy/" + TE_34);
    assertEquals(1, lazy.exit(), lazy.output());
    assertTrue(lazy.output().contains("DIFF-BIND-NOW") && lazy.output().contains("FAILED: 0 errors, 1 warning, 0 suppressed"),
        lazy.output());
  }

  @Test
  void itsOwnWheelPassesItsGateUnderTheTagTheGateSuggests() throws Exception {
    Matcher name = Pattern.compile("te_wheel-(.+)-py3-none-(.+)\\.whl").matcher(ownWheel.getFileName().toString());
    assertTrue(name.matches(), ownWheel.toString());
    assertEquals(System.getProperty("te.version").replace("-SNAPSHOT", ".dev0"), name.group(1));
    Run verify = teWheel(temp, "verify", "--layout", "any", "--report-dir", "own", ownWheel.toString());
    assertEquals(0, verify.exit(), verify.output());
    Map<?, ?> report = (Map<?, ?>) Json.parse(Files.readString(temp.resolve("own/report.json")));
    assertEquals(Boolean.TRUE, report.get("passed"));
    assertEquals(name.group(2), report.get("suggestedPlatformTag"));
    assertTrue(name.group(2).startsWith("manylinux_"), name.group(2));
  }

  @Test
  void teRuntimeRunsOnTheBundledJava() throws Exception {
    Map<String, String> environment = new java.util.HashMap<>(cleanEnvironment());
    environment.put("LD_LIBRARY_PATH", StandIns.cudaLibDir().toString()); // the stand-in CUDA driver NCCL EP NEEDS
    List<String> command = List.of(site.resolve("bin/te-wheel").toString(), "runtime", "--wheel-lib",
        stage.resolve("transformer_engine/wheel_lib").toString(), "--nccl-library",
        StandIns.ncclLibDir().resolve("libnccl.so.2").toString());
    Run runtime = run(command, temp, environment);
    assertEquals(0, runtime.exit(), runtime.output());
    assertTrue(runtime.output().contains("Available: yes"), runtime.output());
  }

  /** The launcher's own command line, with class loading logged: te-wheel's classes come from the archive. */
  @Test
  void theCommandStartsFromItsClassDataArchive() throws Exception {
    Run line = run(List.of(PYTHON, "-c", "import sys; sys.path.insert(0, sys.argv[1]); import te_wheel.__main__ as m;"
        + " print('\\n'.join(m.command(['--version'])))", site.toString()), temp, Map.of());
    assertEquals(0, line.exit(), line.output());
    List<String> command = new ArrayList<>(line.output().strip().lines().toList());
    assertTrue(command.get(1).startsWith("-XX:AOTCache=") || command.get(1).startsWith("-XX:SharedArchiveFile="),
        command.toString());
    command.add(command.indexOf("-m"), "-Xlog:class+load=info:stdout");
    Run logged = run(command, temp, cleanEnvironment());
    assertEquals(0, logged.exit(), logged.output());
    List<String> own = logged.output().lines().filter(l -> l.contains(" dev.tewheel.")).toList();
    assertFalse(own.isEmpty(), logged.output());
    List<String> notShared = own.stream().filter(l -> !l.contains("source: shared objects file")).toList();
    assertEquals(List.of(), notShared, "te-wheel classes loaded from outside the archive");
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path p : walk.sorted().toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }
}
