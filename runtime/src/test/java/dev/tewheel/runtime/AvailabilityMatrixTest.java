package dev.tewheel.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.json.Json;
import dev.tewheel.runtime.cli.Main;
import dev.tewheel.standins.StandIns;
import dev.tewheel.standins.StandIns.Defect;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * availability() and load() agree on every bundle shape, under a real dlopen: each row runs the CLI with --load in a
 * fresh JVM (one load per process), and load succeeds exactly when availability said yes, failing with the same
 * reason otherwise. The wrong-major stand-in's constructor writes a marker file; it must never appear.
 */
class AvailabilityMatrixTest {
  interface Layout {
    void lay(Path folder) throws Exception;
  }

  /**
   * @param chosen the chosen file's name, or null
   * @param reason a part of the reason (or, when available, of the chosen candidate's reason)
   * @param nccl the libnccl.so.2 given with --nccl-library, or null for none (the loader's search finds none here)
   */
  record Row(String name, Layout layout, boolean available, String chosen, String reason, Path nccl) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static final Path GOOD = StandIns.ncclEpLibrary();
  private static final Path MAJOR_1 = StandIns.defect(Defect.NCCL_EP_MAJOR_1_CONSTRUCTOR_MARKER);

  static Stream<Row> rows() {
    return Stream.of(
        new Row("right major only", f -> copy(GOOD, f, "libnccl_ep.so.0.1.0"), true, "libnccl_ep.so.0.1.0",
            "SONAME libnccl_ep.so.0 matches major 0", Bundles.NCCL),
        new Row("wrong major only", f -> copy(MAJOR_1, f, "libnccl_ep.so.1.0.0"), false, null,
            "libnccl_ep.so.1.0.0: SONAME libnccl_ep.so.1, expected libnccl_ep.so.0 (NCCL EP major 0)", Bundles.NCCL),
        new Row("both majors", f -> {
          copy(GOOD, f, "libnccl_ep.so.0.1.0");
          copy(MAJOR_1, f, "libnccl_ep.so.1.0.0");
        }, true, "libnccl_ep.so.0.1.0", "matches major 0", Bundles.NCCL),
        new Row("only an unversioned file, SONAME libnccl_ep.so.0", f -> copy(GOOD, f, "libnccl_ep.so"), true,
            "libnccl_ep.so", "matches major 0", Bundles.NCCL),
        new Row("only an unversioned file, SONAME libnccl_ep.so.1", f -> copy(MAJOR_1, f, "libnccl_ep.so"), false,
            null, "libnccl_ep.so: SONAME libnccl_ep.so.1, expected libnccl_ep.so.0", Bundles.NCCL),
        new Row("a library without SONAME", f -> copy(StandIns.defect(Defect.NCCL_EP_WITHOUT_SONAME), f,
            "libnccl_ep.so.0.1.0"), false, null, "has no SONAME, expected libnccl_ep.so.0", Bundles.NCCL),
        new Row("another architecture", f -> copy(StandIns.aarch64("libnccl_ep.so.0.1.0"), f, "libnccl_ep.so.0.1.0"),
            false, null, "built for aarch64, this process runs on x86_64", Bundles.NCCL),
        new Row("a non-ELF file named libnccl_ep.so.0", f -> Files.writeString(f.resolve("libnccl_ep.so.0"),
            "INPUT(libnccl_ep.so.0.1.0)\n"), false, null, "libnccl_ep.so.0: not a readable ELF file", Bundles.NCCL),
        new Row("a dangling link", f -> Files.createSymbolicLink(f.resolve("libnccl_ep.so"),
            Path.of("libnccl_ep.so.0.1.0")), false, null, "libnccl_ep.so: dangling symlink", Bundles.NCCL),
        new Row("NCCL too old", f -> copy(GOOD, f, "libnccl_ep.so.0.1.0"), false, "libnccl_ep.so.0.1.0",
            "reports 2.28.9, older than the 2.30.4 NCCL EP needs", Bundles.OLD_NCCL),
        new Row("libnccl.so.2 missing", f -> copy(GOOD, f, "libnccl_ep.so.0.1.0"), false, "libnccl_ep.so.0.1.0",
            "libnccl.so.2 does not load: libnccl.so.2: cannot open shared object file", null),
        new Row("a function missing", f -> copy(StandIns.defect(Defect.NCCL_EP_WITHOUT_COMBINE), f,
            "libnccl_ep.so.0.1.0"), false, null, "does not define ncclEpCombine", Bundles.NCCL),
        new Row("the manifest's entry, a stray other major beside it", f -> {
          copy(GOOD, f, "libnccl_ep.so");
          Bundles.copyTree(StandIns.ncclEpHome().resolve("include"), f.resolve("nccl_ep/include"));
          Bundles.writeManifest(f, "default");
          copy(MAJOR_1, f, "libnccl_ep.so.1.0.0");
        }, true, "libnccl_ep.so", "matches major 0", Bundles.NCCL),
        new Row("the ep-home layout without a manifest", f -> copy(GOOD, f, "nccl_ep/lib/libnccl_ep.so.0"), true,
            "libnccl_ep.so.0", "matches major 0", Bundles.NCCL));
  }

  @TempDir Path temp;

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  @SuppressWarnings("unchecked")
  void availabilityAndLoadAgree(Row row) throws Exception {
    Path folder = Files.createDirectories(temp.resolve("wheel_lib"));
    Files.copy(StandIns.transformerEngine(), folder.resolve("libtransformer_engine.so"));
    row.layout().lay(folder);
    Path marker = temp.resolve("constructor-ran");
    List<String> args = new ArrayList<>(List.of("--wheel-lib", folder.toString(), "--json", "--load"));
    if (row.nccl() != null) {
      args.addAll(List.of("--nccl-library", row.nccl().toString()));
    }
    ChildJvm.Result result = ChildJvm.run(
        ChildJvm.command(ChildJvm.withoutCudaLibraries(List.of("--enable-native-access=ALL-UNNAMED",
            "-Dte.cacheDir=" + temp.resolve("cache"))), null, Main.class, args),
        Map.of(StandIns.CONSTRUCTOR_MARKER_ENV, marker.toString()), temp.resolve("logs"));
    Map<String, Object> report = (Map<String, Object>) Json.parse(result.out());
    Map<String, Object> ep = (Map<String, Object>) ((Map<String, Object>) report.get("load")).get("ncclEp");

    assertEquals(row.available(), report.get("available"), result.toString());
    assertEquals(row.available(), ep.get("ok"), "load() must succeed exactly when availability says yes\n" + result);
    assertEquals(row.available() ? 0 : 1, result.exit(), result.toString());
    assertEquals(0L, report.get("requiredMajor"));
    Object chosen = report.get("chosen");
    assertEquals(row.chosen(), chosen == null ? null : Path.of((String) chosen).getFileName().toString(),
        result.toString());
    if (row.available()) {
      assertEquals(chosen, ep.get("file"));
      assertEquals("0.1.0", ep.get("version"));
      assertEquals(100L, ep.get("versionCode"));
      List<Map<String, Object>> candidates = (List<Map<String, Object>>) report.get("candidates");
      String chosenReason = candidates.stream().filter(c -> c.get("path").equals(chosen))
          .map(c -> (String) c.get("reason")).findFirst().orElseThrow();
      assertTrue(chosenReason.contains(row.reason()), chosenReason);
      assertEquals("2.30.4", report.get("ncclVersion"));
    } else {
      String reason = (String) report.get("reason");
      assertTrue(reason.contains(row.reason()), reason);
      assertTrue(((String) ep.get("error")).contains(reason), "load() fails with availability's reason\n" + result);
    }
    assertFalse(Files.exists(marker), "a library that must not be loaded ran its constructor\n" + result);
  }

  @Test
  @SuppressWarnings("unchecked")
  void theSearchStepsAndTheNcclVersionAreReported() throws Exception {
    Path folder = Files.createDirectories(temp.resolve("wheel_lib"));
    copy(GOOD, folder, "libnccl_ep.so.0.1.0");
    ChildJvm.Result result = ChildJvm.run(ChildJvm.command(List.of("--enable-native-access=ALL-UNNAMED"), null,
        Main.class, List.of("--wheel-lib", folder.toString(), "--json", "--nccl-library", Bundles.OLD_NCCL.toString(),
            "--ep-major", "0")), Map.of(), temp.resolve("logs"));
    Map<String, Object> report = (Map<String, Object>) Json.parse(result.out());
    assertEquals("2.28.9", report.get("ncclVersion"));
    assertNull(report.get("load"));
    List<Map<String, Object>> searched = (List<Map<String, Object>>) report.get("searched");
    assertEquals("API TeRuntime.Builder.wheelLib", searched.get(0).get("source"));
    assertEquals("USED", searched.get(0).get("outcome"));
    assertEquals(List.of("NOT_TRIED", "NOT_TRIED", "NOT_TRIED", "NOT_TRIED"),
        searched.subList(1, 5).stream().map(s -> s.get("outcome")).toList());
  }

  /** A machine without the CUDA driver: dlopen would fail, and the report names the library, not a symbol. */
  @Test
  @SuppressWarnings("unchecked")
  void aMissingNeededLibraryIsNamed() throws Exception {
    Path folder = Files.createDirectories(temp.resolve("wheel_lib"));
    Files.copy(StandIns.transformerEngine(), folder.resolve("libtransformer_engine.so"));
    copy(GOOD, folder, "libnccl_ep.so.0.1.0");
    ChildJvm.Result result = ChildJvm.run(ChildJvm.command(List.of("--enable-native-access=ALL-UNNAMED"), null,
        Main.class, List.of("--wheel-lib", folder.toString(), "--json", "--load", "--nccl-library",
            Bundles.NCCL.toString())), Map.of("LD_LIBRARY_PATH", ""), temp.resolve("logs"));
    assertEquals(1, result.exit(), result.toString());
    Map<String, Object> report = (Map<String, Object>) Json.parse(result.out());
    assertEquals(false, report.get("available"));
    String reason = (String) report.get("reason");
    assertTrue(reason.startsWith("libcuda.so.1 not found (needed by libnccl_ep.so.0): dlopen would fail"), reason);
    assertFalse(result.out().contains("does not define"), result.toString());
    Map<String, Object> ep = (Map<String, Object>) ((Map<String, Object>) report.get("load")).get("ncclEp");
    assertEquals(false, ep.get("ok"));
    assertTrue(((String) ep.get("error")).contains(reason), result.toString());
    List<Map<String, Object>> needed = (List<Map<String, Object>>) report.get("dependencies");
    Map<String, Object> cuda = needed.stream().filter(d -> d.get("name").equals("libcuda.so.1")).findFirst()
        .orElseThrow();
    assertEquals("not found", cuda.get("foundBy"));
    assertNull(cuda.get("file"));
  }

  /** The control: loading the wrong-major stand-in does write the marker, so its absence above means something. */
  @Test
  void theMarkerAppearsWhenTheWrongMajorIsLoaded() throws Exception {
    FreshJvm.run(getClass(), "loadTheWrongMajor", temp);
  }

  static void loadTheWrongMajor(Path temp) throws Throwable {
    Path marker = temp.resolve("constructor-ran");
    Bundles.setenv(StandIns.CONSTRUCTOR_MARKER_ENV, marker.toString());
    Bundles.dlopen(Bundles.NCCL, Bundles.RTLD_NOW | Bundles.RTLD_GLOBAL);
    Bundles.dlopen(MAJOR_1, Bundles.RTLD_NOW);
    assertEquals("libnccl_ep constructor ran\n", Files.readString(marker));
  }

  private static void copy(Path from, Path folder, String relative) throws IOException {
    Path target = folder.resolve(relative);
    Files.createDirectories(target.getParent());
    Files.copy(from, target);
  }
}
