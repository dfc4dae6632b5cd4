package dev.tewheel.elf.cli;

import dev.tewheel.json.Json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.tewheel.standins.Gcc;
import dev.tewheel.standins.GitHubRunner;
import dev.tewheel.standins.HostileText;
import dev.tewheel.standins.StandIns;
import dev.tewheel.standins.StandIns.Defect;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The inspect command: its JSON schema, its text for people, its exit codes. */
class InspectTest {
  private static final List<String> KEYS = List.of("path", "class", "data", "machine", "type", "soname", "needed",
      "rpath", "runpath", "bindNow", "relro", "definedSymbols", "undefinedSymbols", "versionNeeds");

  @TempDir Path dir;

  /** What one run printed and returned. */
  private record Run(int status, String out, String err) {}

  @Test
  void jsonHasExactlyTheDocumentedKeys() {
    String te = StandIns.transformerEngine().toString();
    String ep = StandIns.defect(Defect.NCCL_EP_ABSOLUTE_RUNPATH).toString();
    String arm = StandIns.aarch64("libnccl_ep.so.0.1.0").toString();
    Run run = run("--json", te, ep, arm);
    assertEquals(0, run.status(), run.err());
    assertEquals("", run.err());
    List<?> files = (List<?>) Json.parse(run.out());
    assertEquals(3, files.size());
    for (Object file : files) {
      assertEquals(KEYS, List.copyOf(((Map<?, ?>) file).keySet()));
    }
    Map<?, ?> first = (Map<?, ?>) files.get(0);
    assertEquals(te, first.get("path"));
    assertEquals(64L, first.get("class"));
    assertEquals("LSB", first.get("data"));
    assertEquals("x86_64", first.get("machine"));
    assertEquals("DYN", first.get("type"));
    assertEquals("libtransformer_engine.so", first.get("soname"));
    assertEquals(List.of("libnccl.so.2", "libstdc++.so.6", "libgcc_s.so.1", "libc.so.6"), first.get("needed"));
    assertEquals(List.of(), first.get("rpath"));
    assertEquals(List.of(), first.get("runpath"));
    assertEquals(true, first.get("bindNow"));
    assertEquals(true, first.get("relro"));
    assertEquals(List.of("nvte_create_tensor", "nvte_destroy_tensor", "nvte_ep_combine", "nvte_ep_combine_bwd",
        "nvte_ep_dispatch", "nvte_ep_dispatch_bwd", "nvte_ep_handle_mem_size", "nvte_ep_initialize", "nvte_ep_prepare",
        "nvte_ep_shutdown", "nvte_set_tensor_param", "nvte_tensor_data", "nvte_tensor_shape", "nvte_tensor_type"),
        first.get("definedSymbols"));
    List<?> undefined = (List<?>) first.get("undefinedSymbols");
    assertTrue(undefined.contains("dlopen") && undefined.contains("getenv") && undefined.contains("ncclGetVersion"),
        undefined.toString());
    assertTrue(undefined.stream().noneMatch(s -> ((String) s).contains("@")), "names without versions");
    assertEquals(undefined.stream().sorted().toList(), undefined, "sorted");
    Map<?, ?> needs = (Map<?, ?>) first.get("versionNeeds");
    assertEquals(List.of("libc.so.6", "libgcc_s.so.1", "libstdc++.so.6"), List.copyOf(needs.keySet()), "sorted");
    assertEquals(List.of("GLIBC_2.14", "GLIBC_2.2.5", "GLIBC_2.34"), needs.get("libc.so.6"));
    assertEquals(List.of("GCC_3.0"), needs.get("libgcc_s.so.1"));

    Map<?, ?> second = (Map<?, ?>) files.get(1);
    assertEquals(List.of("/opt/nccl/lib"), second.get("runpath"));
    assertEquals(List.of("libnccl.so.2", "libcuda.so.1", "libc.so.6"), second.get("needed"));
    Map<?, ?> third = (Map<?, ?>) files.get(2);
    assertEquals("aarch64", third.get("machine"));
    assertEquals("libnccl_ep.so.0", third.get("soname"));
  }

  @Test
  void lazyLibraryAndNullSoname() throws Exception {
    Path noSoname = dev.tewheel.elf.TestLibraries.gccLibraryWithoutSoname(dir);
    Run run = run("--json", StandIns.defect(Defect.TE_LAZY_BINDING).toString(), noSoname.toString());
    assertEquals(0, run.status(), run.err());
    List<?> files = (List<?>) Json.parse(run.out());
    assertEquals(false, ((Map<?, ?>) files.get(0)).get("bindNow"));
    assertEquals(false, ((Map<?, ?>) files.get(0)).get("relro"));
    assertTrue(((Map<?, ?>) files.get(1)).containsKey("soname"));
    assertEquals(null, ((Map<?, ?>) files.get(1)).get("soname"));
  }

  @Test
  void unreadableFilesBecomeErrorObjectsAndExitOne() throws Exception {
    Path text = Files.writeString(dir.resolve("libfake.so"), "INPUT(-lfake)\n");
    Path missing = dir.resolve("missing.so");
    Run run = run("--json", text.toString(), StandIns.ncclEpLibrary().toString(), missing.toString());
    assertEquals(1, run.status());
    List<?> files = (List<?>) Json.parse(run.out());
    assertEquals(3, files.size());
    assertEquals(Map.of("path", text.toString(), "error",
            text + ": not an ELF file (starts with 0x49 0x4e 0x50 0x55, not 0x7f 'E' 'L' 'F')"), files.get(0));
    assertEquals("libnccl_ep.so.0", ((Map<?, ?>) files.get(1)).get("soname"));
    assertEquals(Map.of("path", missing.toString(), "error", missing + ": no such file"), files.get(2));
  }

  @Test
  void anInvalidPathIsAnErrorObject() {
    Run run = run("--json", "bad\0name.so");
    assertEquals(1, run.status());
    Map<?, ?> file = (Map<?, ?>) ((List<?>) Json.parse(run.out())).get(0);
    assertEquals("bad\0name.so", file.get("path"));
    assertTrue(((String) file.get("error")).startsWith("bad\0name.so: not a valid path"), file.toString());
  }

  @Test
  void textForPeople() {
    Run run = run(StandIns.transformerEngine().toString(), StandIns.defect(Defect.TE_LAZY_BINDING).toString());
    assertEquals(0, run.status(), run.err());
    String out = run.out();
    assertTrue(out.startsWith(StandIns.transformerEngine() + "\n  format:         ELF64 LSB, OS/ABI SYSV\n"), out);
    assertTrue(out.contains("  machine:        x86_64\n"), out);
    assertTrue(out.contains("  soname:         libtransformer_engine.so\n"), out);
    assertTrue(out.contains("  bind now:       yes\n"), out);
    assertTrue(out.contains("  bind now:       no (lazy binding)\n"), out);
    assertTrue(out.contains("  relro:          full (PT_GNU_RELRO and bind now)\n"), out);
    assertTrue(out.contains("    libc.so.6: GLIBC_2.14 GLIBC_2.2.5 GLIBC_2.34\n"), out);
    assertTrue(out.contains("    libgcc_s.so.1: GCC_3.0\n"), out);
    assertTrue(out.contains("  needed:         libnccl.so.2 libstdc++.so.6 libgcc_s.so.1 libc.so.6\n"), out);
    assertTrue(out.contains("    getenv@GLIBC_2.2.5\n"), out);
    assertTrue(out.contains("\n\n" + StandIns.defect(Defect.TE_LAZY_BINDING) + "\n"), "a blank line between files");
  }

  @Test
  void textReportsErrorsOnStandardError() throws Exception {
    Path empty = Files.write(dir.resolve("empty.so"), new byte[0]);
    Run run = run(empty.toString());
    assertEquals(1, run.status());
    assertEquals("", run.out());
    assertEquals("te-wheel-elf: " + empty + ": not an ELF file (the file is empty)\n", run.err());
  }

  @Test
  void usageErrors() {
    Run none = run();
    assertEquals(2, none.status());
    assertTrue(none.err().startsWith("te-wheel-elf: no files given\nusage: "), none.err());
    Run jsonOnly = run("--json");
    assertEquals(2, jsonOnly.status());
    Run unknown = run("--yaml", "x.so");
    assertEquals(2, unknown.status());
    assertTrue(unknown.err().startsWith("te-wheel-elf: unknown option --yaml\nusage: "), unknown.err());
    Run help = run("--help");
    assertEquals(0, help.status());
    assertEquals(Inspect.USAGE.formatted(Inspect.PROGRAM), help.out());
  }

  @Test
  void underAnotherNameTheUsageAndMessagesSayThatName() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertEquals(0, Inspect.run("te-wheel inspect", new String[] {"--help"},
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)));
    assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("usage: te-wheel inspect [--json] FILE...\n"));
    assertEquals(2, Inspect.run("te-wheel inspect", new String[0],
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)));
    assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("te-wheel inspect: no files given\nusage: te-wheel"
        + " inspect "), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void doubleDashEndsOptions() throws Exception {
    Path odd = Files.copy(StandIns.ncclEpLibrary(), dir.resolve("--json"));
    Run run = run("--", odd.getFileName().toString().equals("--json") ? odd.toString() : "?");
    assertEquals(0, run.status(), run.err());
    assertTrue(run.out().contains("soname:         libnccl_ep.so.0"), run.out());
  }

  /**
   * A gcc-built library whose SONAME, DT_NEEDED and symbol names forge lines and GitHub runner commands (one symbol
   * is named {@code ::error …}, which would start its line): the text shows each escaped on its own line.
   */
  @Test
  void namesInTheFileCannotForgeALineOrARunnerCommand() throws Exception {
    String forged = "\n::error title=forged::owned\nAvailable: yes\r##[warning]x";
    Path evil = dir.resolve("libevil.so");
    Path evilSource = Files.writeString(dir.resolve("evil.c"), "int evil_stand_in(void) { return 1; }\n");
    Gcc.run("-shared", "-fPIC", "-Wl,-soname,libevil.so.1" + forged, "-o", evil.toString(), evilSource.toString());
    Path source = Files.writeString(dir.resolve("lib.c"), """
        int evil_stand_in(void);
        int f(void) { return evil_stand_in(); }
        __asm__(".globl \\"::error title=sym::forged\\"\\n.set \\"::error title=sym::forged\\", f\\n");
        __asm__(".globl \\"sym\\\\nAvailable: yes\\"\\n.set \\"sym\\\\nAvailable: yes\\", f\\n");
        """);
    Path library = dir.resolve("lib\n::error::path.so");
    Gcc.run("-shared", "-fPIC", "-Wl,-soname,libforge.so" + forged, "-o", library.toString(), source.toString(),
        evil.toString());
    Run run = run(library.toString(), dir.resolve("missing\n::error::gone").toString());
    assertEquals(1, run.status(), run.err());
    String escaped = "\\n::error title=forged::owned\\nAvailable: yes\\r#\\u0023[warning]x";
    assertTrue(run.out().startsWith(dir + "/lib\\n::error::path.so\n"), run.out());
    assertTrue(run.out().contains("  soname:         libforge.so" + escaped + "\n"), run.out());
    assertTrue(run.out().contains("  needed:         libevil.so.1" + escaped), run.out());
    assertTrue(run.out().contains("\n    \\u003a:error title=sym::forged\n"), run.out());
    assertTrue(run.out().contains("\n    sym\\nAvailable: yes\n"), run.out());
    assertEquals("te-wheel-elf: " + dir + "/missing\\n::error::gone: no such file\n", run.err());
    for (String output : List.of(run.out(), run.err())) {
      assertEquals(List.of(), GitHubRunner.commands(output), output);
      assertTrue(GitHubRunner.lines(output).stream().noneMatch(l -> l.startsWith("Available")), output);
    }
  }

  /**
   * Every generated hostile string as a file name (a link to a stand-in) or, where no file can be named so, a
   * missing one: each block keeps its lines, each error is one line, no line holds a raw dangerous code point or a
   * command for GitHub's runner.
   */
  @Test
  void everyHostileFileNameKeepsItsBlockAndErrorToTheirLines() throws Exception {
    // A link inside the temporary folder: JUnit names links to outside files in a warning on the build log, where
    // these names would forge lines and runner commands in this project's own CI.
    Path target = Files.copy(StandIns.ncclEpLibrary(), dir.resolve("target.so"));
    int block = GitHubRunner.lines(run(target.toString()).out()).size();
    List<String> files = new ArrayList<>();
    List<String> unnamable = new ArrayList<>();
    for (String s : HostileText.strings()) {
      try {
        Path link = dir.resolve("x" + s);
        Files.createSymbolicLink(link, target);
        files.add(link.toString());
      } catch (InvalidPathException e) {
        unnamable.add(dir + "/x" + s);
      }
    }
    Run good = run(files.toArray(String[]::new));
    assertEquals(0, good.status(), good.err());
    assertEquals(files.size() * (block + 1) - 1, GitHubRunner.lines(good.out()).size(), "blocks of " + block
        + " lines, a blank line between two");
    assertClean(good.out());
    for (String file : unnamable) {
      Run bad = run(file);
      assertEquals(1, bad.status());
      assertEquals(1, GitHubRunner.lines(bad.err()).size(), bad.err());
      assertClean(bad.err());
    }
  }

  private static void assertClean(String output) {
    output.codePoints().filter(HostileText::dangerous).filter(c -> c != '\n').findFirst()
        .ifPresent(c -> fail(String.format("U+%04X raw in the output", c)));
    assertEquals(List.of(), GitHubRunner.commands(output));
  }

  private static Run run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Inspect.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }
}
