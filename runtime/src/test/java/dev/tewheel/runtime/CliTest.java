package dev.tewheel.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.runtime.report.Dependency;
import dev.tewheel.bundle.ncclep.NcclEpFunctions;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.json.Json;
import dev.tewheel.runtime.cli.Main;
import dev.tewheel.standins.Gcc;
import dev.tewheel.standins.GitHubRunner;
import dev.tewheel.standins.StandIns;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The diagnostics CLI: usage errors exit 2; the report in text and JSON (exit 0 and 1 are in the matrix test). */
class CliTest {
  @TempDir Path temp;

  private record Run(int exit, String out, String err) {}

  private static Run run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void usageErrorsExitTwoAndShowTheUsage() {
    for (List<String> args : List.of(List.of("--bogus"), List.of("--wheel-lib"), List.of("--ep-major", "x"),
        List.of("--ep-major", "-1"), List.of("--json", "extra"))) {
      Run run = run(args.toArray(String[]::new));
      assertEquals(2, run.exit(), args.toString());
      assertTrue(run.err().contains("Usage: te-wheel runtime "), run.err());
      assertEquals("", run.out());
    }
    assertTrue(run("--bogus").err().startsWith("te-runtime: unknown argument '--bogus'\n"));
    assertTrue(run("--wheel-lib").err().startsWith("te-runtime: --wheel-lib needs a value\n"));
    assertTrue(run("--ep-major", "x").err().startsWith("te-runtime: --ep-major x: not a number\n"));
    assertTrue(run("--ep-major", "-1").err().startsWith("te-runtime: --ep-major -1: an NCCL EP major is >= 0, not -1\n"));
  }

  @Test
  void helpExitsZero() {
    Run run = run("--help");
    assertEquals(0, run.exit());
    assertTrue(run.out().startsWith("Usage: te-wheel runtime "), run.out());
  }

  @Test
  void theJsonReportHasItsKeys() throws Exception {
    FreshJvm.run(getClass(), "jsonKeys", temp);
  }

  @Test
  void theTextReportShowsTheSearchTheCandidatesAndTheVerdict() throws Exception {
    FreshJvm.run(getClass(), "textReport", temp);
  }

  /**
   * A stand-in NCCL EP built by gcc whose DT_NEEDED is {@link #FORGING_NEEDED}, in a folder whose name and the
   * environment values the report shows forge lines too: no printed line is a forged one, and none is a command for
   * GitHub's runner; each name shows, escaped, on its own report line.
   */
  @Test
  void aLibraryFolderOrEnvironmentValueCannotForgeALineOrARunnerCommand() throws Exception {
    Path wheelLib = forgingBundle(temp.resolve("wheel_lib\n::error title=folder::owned\nAvailable: yes"));
    FreshJvm.run(getClass(), "forgedLines", temp, Map.of("TE_WHEEL_LIB", wheelLib.toString(),
        "NCCL_EP_JIT_SOURCE_DIR", "/nowhere\n::add-mask::secret\r\nAvailable: yes"), List.of());
  }

  /** DT_NEEDED of the forging stand-in: a newline, a workflow command, a forged verdict, a CR and an escape. */
  static final String FORGING_NEEDED = "libevil.so.1\n::error title=forged::owned\nAvailable: yes\r\u001b[2K"
      + "##[warning]legacy";

  static void forgedLines(Path temp) throws Exception {
    for (List<String> args : List.of(List.of("--nccl-library", Bundles.NCCL.toString()),
        List.of("--nccl-library", Bundles.NCCL.toString(), "--load"))) {
      Run run = run(args.toArray(String[]::new));
      assertEquals(1, run.exit(), run.toString());
      String out = run.out();
      assertTrue(out.contains("  libevil.so.1\\n::error title=forged::owned\\nAvailable: yes\\r\\u001b[2K"
          + "#\\u0023[warning]legacy: NOT FOUND\n"), out);
      assertTrue(out.contains("/nowhere\\n::add-mask::secret\\r\\nAvailable: yes"), out);
      assertTrue(out.contains("wheel_lib\\n::error title=folder::owned\\nAvailable: yes"), out);
      List<String> lines = List.of(out.split("\r\n|[\n\r\u000b\u000c\u0085\u2028\u2029]", -1));
      assertEquals(1, lines.stream().filter(l -> l.startsWith("Available:")).count(), out);
      assertTrue(lines.stream().filter(l -> l.startsWith("Available:")).allMatch(l -> l.startsWith("Available: no")),
          out);
      assertEquals(List.of(), lines.stream().filter(l -> l.strip().startsWith("::") || l.contains("##[")
          || l.chars().anyMatch(c -> c < 0x20)).toList(), out);
      assertEquals(List.of(), GitHubRunner.commands(out), out);
    }
  }

  /** TE's default layout in {@code folder}, its libnccl_ep.so replaced by a gcc-built one needing FORGING_NEEDED. */
  static Path forgingBundle(Path folder) throws Exception {
    Bundles.defaultLayout(folder);
    Path build = Files.createDirectories(folder.resolveSibling("forging-build"));
    Path evilSource = Files.writeString(build.resolve("evil.c"), "int evil_stand_in(void) { return 1; }\n");
    Path evil = build.resolve("libevil.so");
    Gcc.run("-shared", "-fPIC", "-Wl,-soname," + FORGING_NEEDED, "-o", evil.toString(), evilSource.toString());
    StringBuilder ep = new StringBuilder("int evil_stand_in(void);\n"
        + "int ncclEpGetVersion(int* v) { *v = 100; return evil_stand_in() - 1; }\n");
    NcclEpFunctions.REQUIRED.stream().filter(f -> !f.equals("ncclEpGetVersion"))
        .forEach(f -> ep.append("int ").append(f).append("(void) { return 0; }\n"));
    Path epSource = Files.writeString(build.resolve("nccl_ep.c"), ep.toString());
    Path library = folder.resolve("libnccl_ep.so");
    Files.delete(library);
    Gcc.run("-shared", "-fPIC", "-Wl,-soname,libnccl_ep.so.0", "-o", library.toString(), epSource.toString(),
        evil.toString());
    assertEquals(List.of(FORGING_NEEDED), ElfFile.read(library).needed().stream()
        .filter(n -> n.startsWith("libevil")).toList(), "gcc wrote the forging DT_NEEDED as it is");
    return folder;
  }

  @SuppressWarnings("unchecked")
  static void jsonKeys(Path temp) throws Exception {
    Path wheelLib = Bundles.defaultLayout(temp.resolve("wheel_lib"));
    Run run = run("--wheel-lib", wheelLib.toString(), "--nccl-library", Bundles.NCCL.toString(), "--json");
    assertEquals(0, run.exit(), run.toString());
    Map<String, Object> report = (Map<String, Object>) Json.parse(run.out());
    assertEquals(List.of("available", "reason", "chosen", "candidates", "ncclVersion", "requiredMajor", "searched",
        "bundle", "requiredMajorSource", "requiredMajorOrigin", "loadedElsewhere", "dependencies", "nccl", "world",
        "jit"),
        List.copyOf(report.keySet()));
    List<Map<String, Object>> needed = (List<Map<String, Object>>) report.get("dependencies");
    assertEquals(List.of("libnccl.so.2", "libcuda.so.1"), needed.stream().map(d -> d.get("name"))
        .filter(n -> !n.equals("libc.so.6")).toList());
    assertEquals(Map.of("name", "libcuda.so.1", "neededBy", "libnccl_ep.so.0", "file",
        StandIns.cudaLibDir().resolve("libcuda.so.1").toString(), "foundBy", "LD_LIBRARY_PATH", "missingVersions",
        List.of()), needed.get(1));
    assertEquals("preloaded by te-runtime", needed.get(0).get("foundBy"));
    assertEquals("CONFIGURED", ((Map<String, Object>) report.get("nccl")).get("source"));
    assertEquals(true, report.get("available"));
    assertEquals(wheelLib.resolve("libnccl_ep.so").toString(), report.get("chosen"));
    Map<String, Object> candidate = ((List<Map<String, Object>>) report.get("candidates")).get(0);
    assertEquals(wheelLib.resolve("libnccl_ep.so").toString(), candidate.get("path"));
    assertEquals(true, candidate.get("accepted"));
    assertEquals("SONAME libnccl_ep.so.0 matches major 0", candidate.get("reason"));
    assertEquals("2.30.4", report.get("ncclVersion"));
    assertEquals(0L, report.get("requiredMajor"));
    List<Map<String, Object>> searched = (List<Map<String, Object>>) report.get("searched");
    assertEquals(5, searched.size());
    assertEquals(Map.of("source", "API TeRuntime.Builder.wheelLib", "value", wheelLib.toString(), "outcome", "USED",
        "detail", ""),
        searched.get(0));
    assertInstanceOf(Map.class, report.get("nccl"));
  }

  static void textReport(Path temp) throws Exception {
    Path wheelLib = Bundles.defaultLayout(temp.resolve("wheel_lib"));
    Run run = run("--wheel-lib", wheelLib.toString(), "--nccl-library", Bundles.OLD_NCCL.toString());
    assertEquals(1, run.exit(), run.toString());
    StringBuilder needed = new StringBuilder("Needed by the chosen library:\n");
    for (Dependency d : TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(Bundles.OLD_NCCL).build().availability()
        .dependencies()) {
      needed.append("  ").append(d.name()).append(": ").append(d.file().orElseThrow()).append(" (")
          .append(d.foundBy()).append(")\n");
    }
    String expected = """
        Searched, in order:
          1. API TeRuntime.Builder.wheelLib  %1$s: used
          2. system property te.wheelLib     not tried
          3. environment TE_WHEEL_LIB        not tried
          4. environment NCCL_EP_HOME        not tried
          5. class path                      not tried
        Bundle: %1$s
        Required NCCL EP major: 0 (the default of this te-runtime release)
        Candidates:
          accepted  %1$s/libnccl_ep.so: SONAME libnccl_ep.so.0 matches major 0
        %3$sNCCL: libnccl.so.2 configured (%2$s) reports 2.28.9, older than the 2.30.4 NCCL EP needs
        Chosen: %1$s/libnccl_ep.so
        Available: no, libnccl.so.2 configured (%2$s) reports 2.28.9, older than the 2.30.4 NCCL EP needs
        """.formatted(wheelLib, Bundles.OLD_NCCL, needed);
    assertTrue(needed.toString().contains("  libcuda.so.1: " + StandIns.cudaLibDir().resolve("libcuda.so.1")
        + " (LD_LIBRARY_PATH)\n"), needed.toString());
    // Then TE's native libraries and the JIT preflight (NativeWorldTest, JitPreflightTest).
    assertTrue(run.out().startsWith("te-runtime dev: NCCL EP availability\n" + expected), run.out());
    assertTrue(run.out().contains("TE's native libraries (load order;"), run.out());
    assertTrue(run.out().contains("NCCL EP JIT preflight:"), run.out());
  }
}
