package dev.tewheel.core.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.core.assemble.AssembleRequest;
import dev.tewheel.core.assemble.Assembler;
import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.wheel.DistInfo;
import dev.tewheel.core.wheel.DebianPython;
import dev.tewheel.core.wheel.FloorWheels;
import dev.tewheel.core.wheel.Metadata;
import dev.tewheel.core.pack.PackRequest;
import dev.tewheel.core.zip.WheelArchive;
import dev.tewheel.json.Json;
import dev.tewheel.standins.StandIns;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pack with declareFloors writes the minimum its floor wheel proved, after the user's own lines, and pip reads it:
 * {@code pip install --no-index --dry-run --report} on the packed wheel (with the floor wheel as the only index)
 * lists the requirement and resolves it to the floor wheel; pack's own verification (DEPS-DECLARED) passes.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DeclareFloorsPackTest {
  private static final FileTime TIME = FileTime.from(Instant.parse("2026-01-01T00:00:00Z"));

  @TempDir Path temp;

  private Path staging() throws Exception {
    Path staging = temp.resolve("staging");
    Path pkg = Files.createDirectories(staging.resolve("transformer_engine"));
    Files.writeString(pkg.resolve("__init__.py"), "__version__ = '2.9.0'\n");
    new Assembler(line -> {}).assemble(AssembleRequest.of(StandIns.transformerEngine(), StandIns.ncclEpHome(),
        pkg.resolve("wheel_lib")).withTimestamp(TIME).withStateFile(temp.resolve("state.json")));
    return staging;
  }

  private PackedWheel pack(Path floor, String extra, List<String> logged) throws Exception {
    CheckSettings settings = CheckSettings.defaults().withFloorLibraries(List.of(floor)).withCudaMajor(12);
    PackRequest request = new PackRequest(staging(), "transformer_engine", "2.9.0", 12, null, null,
        "manylinux_2_34_x86_64", null, new Metadata.Fields(null, null, List.of("helper>=1.0"), null, null), 6,
        temp.resolve("dist"), TIME, null);
    return PackedWheel.packAndVerify(request, p -> VerifyRequest.wheel(p).withSettings(settings), logged::add,
        new DeclareFloors(extra, settings, Layout.DEFAULT, VerifyRequest.DEFAULT_WHEEL_LIB_PATH));
  }

  private static String metadata(Path whl) throws Exception {
    try (WheelArchive archive = WheelArchive.open(whl)) {
      return archive.text(DistInfo.folder(archive).orElseThrow() + "/METADATA", Metadata.MAX_BYTES).orElseThrow();
    }
  }

  /** pip's dry-run report of installing {@code target} with only {@code links} as its index. */
  @SuppressWarnings("unchecked")
  private Map<String, Object> pipReport(String target, Path links) throws Exception {
    Path report = temp.resolve("report.json");
    Files.deleteIfExists(report);
    DebianPython.Result result = DebianPython.run(List.of(DebianPython.PYTHON, "-m", "pip", "install", "--no-index",
        "--find-links", links.toString(), "--dry-run", "--ignore-installed", "--report", report.toString(), target),
        temp, 120);
    assertEquals(0, result.exit(), result.output());
    return (Map<String, Object>) Json.parse(Files.readString(report, StandardCharsets.UTF_8));
  }

  @SuppressWarnings("unchecked")
  private static List<String> installed(Map<String, Object> report) {
    List<String> names = new ArrayList<>();
    for (Object item : (List<Object>) report.get("install")) {
      Map<String, Object> meta = (Map<String, Object>) ((Map<String, Object>) item).get("metadata");
      names.add(meta.get("name") + " " + meta.get("version"));
    }
    return names;
  }

  @SuppressWarnings("unchecked")
  private static List<Object> requiresDist(Map<String, Object> report, String name) {
    for (Object item : (List<Object>) report.get("install")) {
      Map<String, Object> meta = (Map<String, Object>) ((Map<String, Object>) item).get("metadata");
      if (name.equals(meta.get("name"))) {
        return (List<Object>) meta.get("requires_dist");
      }
    }
    throw new AssertionError(name + " is not in pip's report: " + report);
  }

  /** The index pip resolves from: the user's own dependency (a pure wheel) and the floor wheel. */
  private Path links() throws Exception {
    Path links = Files.createDirectories(temp.resolve("links"));
    try (java.util.zip.ZipOutputStream zip = new java.util.zip.ZipOutputStream(Files.newOutputStream(
        links.resolve("helper-1.0-py3-none-any.whl")))) {
      for (String[] entry : new String[][] {{"helper/__init__.py", ""},
          {"helper-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: helper\nVersion: 1.0\n"},
          {"helper-1.0.dist-info/WHEEL", "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"},
          {"helper-1.0.dist-info/RECORD", ""}}) {
        zip.putNextEntry(new java.util.zip.ZipEntry(entry[0]));
        zip.write(entry[1].getBytes(StandardCharsets.UTF_8));
        zip.closeEntry();
      }
    }
    return links;
  }

  @Test
  void theProvenMinimumIsWrittenAfterTheUsersLinesAndPipInstallsIt() throws Exception {
    DebianPython.requireInstallers();
    Path links = links();
    Path floor = FloorWheels.nccl(links, "nvidia-nccl-cu12", StandIns.NCCL_RELEASE,
        StandIns.ncclLibDir().resolve("libnccl.so." + StandIns.NCCL_RELEASE), StandIns.NCCL_RELEASE);
    List<String> logged = new ArrayList<>();
    PackedWheel packed = pack(floor, null, logged);
    assertTrue(packed.passed(), packed.verification().toString());
    List<Finding> declared = packed.verification().orElseThrow().findings().stream()
        .filter(f -> f.checkId().equals("DEPS-DECLARED")).toList();
    assertEquals(List.of(), declared, "pack's own verification holds what it wrote to the proof");
    assertEquals(List.of("helper>=1.0", "nvidia-nccl-cu12>=2.30.4"), Metadata.headers(metadata(packed.location()),
        "Requires-Dist").stream().map(Metadata.Header::value).toList(), "the user's line first");
    assertTrue(logged.contains("declareFloors: Requires-Dist: nvidia-nccl-cu12>=2.30.4"), logged.toString());
    Map<String, Object> report = pipReport(packed.location().toString(), links);
    assertEquals(List.of("nvidia-nccl-cu12>=2.30.4"), requiresDist(report, "transformer_engine_cu12").stream()
        .filter(r -> r.toString().startsWith("nvidia")).toList());
    assertTrue(installed(report).contains("nvidia-nccl-cu12 2.30.4"), installed(report).toString());
  }

  @Test
  void underFloorExtraTheLinesNeedTheExtraAndPipInstallsTheFloorOnlyWithIt() throws Exception {
    DebianPython.requireInstallers();
    Path links = links();
    Path floor = FloorWheels.nccl(links, "nvidia-nccl-cu12", StandIns.NCCL_RELEASE,
        StandIns.ncclLibDir().resolve("libnccl.so." + StandIns.NCCL_RELEASE), StandIns.NCCL_RELEASE);
    PackedWheel packed = pack(floor, "floors", new ArrayList<>());
    assertTrue(packed.passed(), packed.verification().toString());
    String text = metadata(packed.location());
    assertEquals(List.of("floors"), Metadata.headers(text, "Provides-Extra").stream().map(Metadata.Header::value)
        .toList());
    assertEquals(List.of("helper>=1.0", "nvidia-nccl-cu12>=2.30.4; extra == \"floors\""), Metadata.headers(text,
        "Requires-Dist").stream().map(Metadata.Header::value).toList());
    assertTrue(installed(pipReport(packed.location().toString(), links)).stream()
        .noneMatch(n -> n.startsWith("nvidia")), "without the extra pip does not install the floor");
    assertTrue(installed(pipReport(packed.location() + "[floors]", links)).contains("nvidia-nccl-cu12 2.30.4"));
  }
}
