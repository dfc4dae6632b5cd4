package dev.tewheel.core.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.GateReport;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.wheel.TestWheel;
import dev.tewheel.standins.Gcc;
import dev.tewheel.standins.StandIns;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The gate judges the installed tree, not the archive's spelling of it (issue 31, items 1 and 4): what pip installs
 * over the checked library is found, a library reaching wheel_lib through a data folder is checked, and under
 * layout=any every ELF file is read by its magic and none may sit in purelib.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class InstalledTreeVerifyTest {
  private static final String FILE_NAME = "transformer_engine_cu12-2.9.0-py3-none-manylinux_2_34_x86_64.whl";
  private static final String DATA = "transformer_engine_cu12-2.9.0.data";
  private static final String TE = TestWheel.PREFIX + "/libtransformer_engine.so";

  @TempDir Path temp;

  private static List<Finding> errors(GateReport report) {
    return report.findings().stream().filter(f -> f.severity() == Severity.ERROR).toList();
  }

  /** Another valid library: the TE stand-in with bytes appended, which ELF readers never look at. */
  private static byte[] otherLibrary() throws Exception {
    byte[] te = Files.readAllBytes(StandIns.transformerEngine());
    byte[] other = java.util.Arrays.copyOf(te, te.length + 16);
    System.arraycopy("other bytes here".getBytes(StandardCharsets.US_ASCII), 0, other, te.length, 16);
    return other;
  }

  @ParameterizedTest
  @ValueSource(strings = {"transformer_engine/./wheel_lib/libtransformer_engine.so",
      "transformer_engine//wheel_lib/libtransformer_engine.so", "./transformer_engine/wheel_lib/libtransformer_engine.so",
      DATA + "/platlib/" + TE, DATA + "/purelib/" + TE})
  void aSecondEntryThatPipInstallsOverTheCheckedLibraryFailsWheelPathsNamingBoth(String spelling) throws Exception {
    Path whl = TestWheel.standIns().fileName(FILE_NAME).add(spelling, otherLibrary()).write(temp);
    GateReport report = new Verifier().verify(VerifyRequest.wheel(whl));
    List<Finding> paths = errors(report).stream().filter(f -> f.checkId().equals("WHEEL-PATHS")
        && f.found().contains("installed as site-packages/" + TE + ", the file the entry " + TE + " installs too"))
        .toList();
    assertEquals(1, paths.size(), report.findings().toString());
    assertEquals(whl + "!" + spelling, paths.get(0).file());
    assertFalse(report.passed());
  }

  @Test
  void aLibraryReachingWheelLibOnlyThroughDataPlatlibIsChecked() throws Exception {
    Path source = Files.writeString(temp.resolve("extra.c"), "int te_extra(void) { return 1; }\n");
    Path library = temp.resolve("libextra.so");
    Gcc.run("-shared", "-fPIC", "-Wl,-z,execstack", "-o", library.toString(), source.toString());
    String entry = DATA + "/platlib/" + TestWheel.PREFIX + "/libextra.so";
    Path whl = TestWheel.standIns().fileName(FILE_NAME).add(entry, library)
        .write(Files.createDirectories(temp.resolve("dist")));
    GateReport report = new Verifier().verify(VerifyRequest.wheel(whl));
    assertTrue(errors(report).stream().anyMatch(f -> f.checkId().equals("EXEC-STACK")
        && f.file().equals(whl + "!" + entry)), report.findings().toString());
    assertFalse(report.passed());
  }

  @Test
  void theTeLibraryMayArriveThroughDataPlatlibAndIsCheckedWhereItIsInstalled() throws Exception {
    String entry = DATA + "/platlib/" + TE;
    TestWheel wheel = new TestWheel().fileName(FILE_NAME)
        .add("transformer_engine/__init__.py", "# stand-in\n".getBytes(StandardCharsets.UTF_8))
        .add(entry, StandIns.transformerEngine())
        .add(TestWheel.PREFIX + "/libnccl_ep.so", StandIns.ncclEpLibrary())
        .addTree(TestWheel.PREFIX + "/nccl_ep/include", StandIns.ncclEpHome().resolve("include"));
    Path whl = wheel.write(temp);
    GateReport report = new Verifier().verify(VerifyRequest.wheel(whl));
    assertTrue(report.passed(), report.findings().toString());
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> libraries = (List<Map<String, Object>>) report.details().json().get("libraries");
    assertTrue(libraries.stream().anyMatch(l -> l.get("path").equals("libtransformer_engine.so")), libraries.toString());
  }

  @Test
  void layoutAnyReadsAProgramByItsElfMagicWhateverItsName() throws Exception {
    // Every program linked against glibc 2.34 or later needs __libc_start_main@GLIBC_2.34.
    Path source = Files.writeString(temp.resolve("tool.c"), "int main(void) { return 0; }\n");
    Path tool = temp.resolve("tool");
    Gcc.run("-o", tool.toString(), source.toString());
    Path whl = new TestWheel().fileName("nvdemo-1.0-py3-none-manylinux_2_17_x86_64.whl")
        .distInfo("nvdemo-1.0.dist-info").add("nvdemo/__init__.py", new byte[0]).add("nvdemo/bin/tool", tool)
        .write(temp);
    GateReport report = new Verifier().verify(VerifyRequest.wheel(whl).withLayout(Layout.ANY));
    assertTrue(errors(report).stream().anyMatch(f -> f.checkId().equals("PLATFORM")
        && f.file().equals(whl + "!nvdemo/bin/tool") && f.found().startsWith("GLIBC_2.34")),
        report.findings().toString());
    assertEquals("manylinux_2_34_x86_64", report.details().json().get(Verifier.SUGGESTED_TAG));
    // A program is no shared object, and need not be one.
    assertTrue(report.findings().stream().noneMatch(f -> f.checkId().equals("ELF-SHARED-OBJECT")),
        report.findings().toString());
  }

  @Test
  void layoutAnyRefusesAnElfFileInPurelibAsAuditwheelDoes() throws Exception {
    String entry = "nvdemo-1.0.data/purelib/nvdemo/_native.so";
    Path whl = new TestWheel().fileName("nvdemo-1.0-py3-none-manylinux_2_34_x86_64.whl")
        .distInfo("nvdemo-1.0.dist-info").add("nvdemo/__init__.py", new byte[0])
        .add(entry, StandIns.ncclEpLibrary()).write(temp);
    GateReport report = new Verifier().verify(VerifyRequest.wheel(whl).withLayout(Layout.ANY));
    assertTrue(errors(report).stream().anyMatch(f -> f.checkId().equals("WHEEL-PATHS")
        && f.file().equals(whl + "!" + entry) && f.found().startsWith("an ELF file in a purelib folder")),
        report.findings().toString());
    assertFalse(report.passed());
  }
}
