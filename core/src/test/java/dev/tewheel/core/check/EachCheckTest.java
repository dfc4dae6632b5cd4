package dev.tewheel.core.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.core.assemble.AssembleRequest;
import dev.tewheel.core.assemble.Assembler;
import dev.tewheel.core.check.catalogue.CheckCatalogue;
import dev.tewheel.core.check.floor.DepsDeclaredCheckTest;
import dev.tewheel.core.check.wheel.WheelChecksTest;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Judged;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.policy.PlatformTag;
import dev.tewheel.core.verify.FolderSubject;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.ProgramHeader;
import dev.tewheel.elf.SegmentType;
import dev.tewheel.gatefixtures.GateFixtures;
import dev.tewheel.standins.StandIns.Defect;
import dev.tewheel.standins.StandIns;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every folder-level check has a passing and a failing case built from the stand-ins: the assembled tree passes
 * it, and one change made the way a real build goes wrong makes it fail. Wheel-level checks: WheelChecksTest.
 */
class EachCheckTest {
  private static final String TAG = "manylinux_2_34_x86_64";
  private static final String VERSIONED_EP = "libnccl_ep.so.0.1.0";

  @TempDir Path temp;

  /** One way to break an assembled wheel_lib; it may also change the layout or the platform tag. */
  private interface Breakage {
    void apply(Path wheelLib) throws Exception;
  }

  private static Map<String, Breakage> failingCases() {
    Map<String, Breakage> cases = new LinkedHashMap<>();
    cases.put("LAYOUT-REQUIRED", w -> Files.delete(w.resolve("nccl_ep/include/nccl_ep.h")));
    cases.put("LAYOUT-UNEXPECTED", w -> Files.writeString(w.resolve("build.log"), "left over"));
    cases.put("LAYOUT-FILE-TYPES", w -> Files.setPosixFilePermissions(w.resolve("libnccl_ep.so"),
        PosixFilePermissions.fromString("rw-r--r--")));
    cases.put("MANIFEST-DIGESTS", w -> Files.writeString(w.resolve("nccl_ep/include/nccl_ep/ep_enums.h"), "// changed\n"));
    cases.put("ELF-SHARED-OBJECT", w -> Files.writeString(w.resolve("libnccl_ep.so"), "INPUT(-lnccl_ep_static)\n"));
    cases.put("ELF-ONE-MACHINE", w -> replace(w, "libnccl_ep.so", StandIns.aarch64("libnccl_ep.so.0.1.0")));
    cases.put("PLATFORM", w -> replace(w, "libtransformer_engine.so", StandIns.aarch64("libtransformer_engine.so")));
    cases.put("DEPS-RESOLVE", w -> replace(w, "libtransformer_engine.so", StandIns.defect(Defect.TE_NEEDS_CUDA)));
    // A TE linked against the libcudart.so.13 stand-in, held to cudaMajor 12 (SETTINGS).
    cases.put("CUDA-VARIANT", w -> replace(w, "libtransformer_engine.so",
        CudaStandIns.transformerEngineOnCudart13(w.resolveSibling("cuda13-te"))));
    // A TE calling NCCL EP directly, held to the floors of every library the tree NEEDS (SETTINGS): NCCL 2.30.4
    // defines no ncclEp* function.
    cases.put("SYMBOL-FLOOR", w -> replace(w, "libtransformer_engine.so", StandIns.defect(Defect.TE_UNDEFINED_NCCL_EP_SYMBOL)));
    cases.put("ELF-VERNEED-NEEDED", w -> dropLastNeeded(w.resolve("libnccl_ep.so")));
    cases.put("SONAME-FILE-NAME", w -> Files.copy(StandIns.ncclLibDir().resolve("libnccl.so.2"), w.resolve("libnccl.so")));
    cases.put("DUPLICATE-CONTENT", w -> Files.copy(w.resolve("libnccl_ep.so"), w.resolve("libnccl_ep.so.0")));
    cases.put("TE-BIND-NOW", w -> replace(w, "libtransformer_engine.so", StandIns.defect(Defect.TE_LAZY_BINDING)));
    cases.put("TE-FORBIDDEN-NEEDED", w -> replace(w, "libtransformer_engine.so", StandIns.defect(Defect.TE_NEEDS_NCCL_EP)));
    cases.put("TE-UNDEFINED-NCCL-EP",
        w -> replace(w, "libtransformer_engine.so", StandIns.defect(Defect.TE_UNDEFINED_NCCL_EP_SYMBOL)));
    cases.put("TE-RUNPATH-ORIGIN", w -> replace(w, "libtransformer_engine.so", StandIns.defect(Defect.TE_ABSOLUTE_RUNPATH)));
    cases.put("EP-SONAME",
        w -> replace(w, "libnccl_ep.so", StandIns.defect(Defect.NCCL_EP_MAJOR_1_HOME).resolve("lib/libnccl_ep.so.1.0.0")));
    cases.put("EP-FILE-VERSION", w -> {
      // The library of NCCL EP 0.1.0, shipped under its full name, beside the headers of 0.2.0.
      Files.move(w.resolve("libnccl_ep.so"), w.resolve(VERSIONED_EP));
      Path header = w.resolve("nccl_ep/include/nccl_ep.h");
      Files.writeString(header, Files.readString(header).replace("#define NCCL_EP_MINOR 1", "#define NCCL_EP_MINOR 2"));
      Files.delete(w.resolve(Layout.MANIFEST));
    });
    cases.put("EP-NO-RUNPATH", w -> replace(w, "libnccl_ep.so", StandIns.defect(Defect.NCCL_EP_ABSOLUTE_RUNPATH)));
    cases.put("EP-EXPORTS", w -> replace(w, "libnccl_ep.so", StandIns.ncclLibDir().resolve("libnccl.so.2")));
    cases.put("HEADERS-SELF-CONTAINED", w -> Files.delete(w.resolve("nccl_ep/include/nccl_ep/device/ll_ep_smem.cuh")));
    cases.put("BAKED-BUILD-PATHS", w -> { });
    // sm_80 and sm_90 only, held to cudaArchitectures 80,90,120 (SETTINGS).
    cases.put("GPU-ARCHS", w -> replace(w, "libtransformer_engine.so", GateFixtures.sassOnly()));
    cases.put("EXEC-STACK", w -> replace(w, "libtransformer_engine.so", GateFixtures.execStack()));
    cases.put("ISA-LEVEL", w -> replace(w, "libtransformer_engine.so", GateFixtures.isaV3()));
    cases.put("AARCH64-BTI-PAC", w -> replace(w, "libtransformer_engine.so", StandIns.aarch64("libtransformer_engine.so")));
    return cases;
  }

  /** Settings a check needs to have something to hold the tree to, for both the passing and the failing case. */
  private static final Map<String, java.util.function.UnaryOperator<CheckSettings>> SETTINGS = Map.of(
      "GPU-ARCHS", s -> s.withCudaArchitectures(List.of("80,90,120")),
      "CUDA-VARIANT", s -> s.withCudaMajor(12),
      "SYMBOL-FLOOR", s -> s.withFloorLibraries(List.of(StandIns.ncclLibDir(), StandIns.cudaLibDir(),
          systemLibrary("libstdc++.so.6"), systemLibrary("libgcc_s.so.1"), systemLibrary("libc.so.6"))));

  /** Where gcc's toolchain finds a system library, e.g. /usr/lib/x86_64-linux-gnu/libc.so.6. */
  private static Path systemLibrary(String name) {
    try {
      Process gcc = new ProcessBuilder("gcc", "-print-file-name=" + name).redirectErrorStream(true).start();
      String path = new String(gcc.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();
      assertTrue(gcc.waitFor(30, java.util.concurrent.TimeUnit.SECONDS) && gcc.exitValue() == 0, path);
      assertTrue(Files.isRegularFile(Path.of(path)), "gcc does not know " + name + ": " + path);
      return Path.of(path).toRealPath();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The cases where the assembled tree itself is the failing one get a cleaned tree as the passing one. */
  private static final Map<String, Breakage> PASSING_FIXES = Map.of("BAKED-BUILD-PATHS",
      w -> Files.writeString(w.resolve("nccl_ep/include/nccl_ep/config.h"), "#pragma once\n"));

  @Test
  void everyFolderLevelCheckHasACase() {
    // DEPS-DECLARED reads METADATA: DepsDeclaredCheckTest has its cases.
    Set<String> wheelLevel = Set.of("WHEEL-RECORD", "WHEEL-PATHS", "WHEEL-TAGS", "WHEEL-BOMB", "WHEEL-ZIP",
        "WHEEL-SIZE", "DEPS-DECLARED");
    Set<String> folderLevel = CheckCatalogue.all().stream().map(Check::id).filter(id -> !wheelLevel.contains(id))
        .collect(Collectors.toSet());
    assertEquals(folderLevel, failingCases().keySet());
  }

  @TestFactory
  Stream<DynamicTest> passesOnTheAssembledTreeAndFailsOnItsBreakage() {
    return failingCases().entrySet().stream().map(c -> DynamicTest.dynamicTest(c.getKey(), () -> {
      Check check = CheckCatalogue.check(c.getKey());
      Path good = assembled(temp.resolve(c.getKey() + "/good"));
      if (PASSING_FIXES.containsKey(c.getKey())) {
        PASSING_FIXES.get(c.getKey()).apply(good);
        Files.delete(good.resolve(Layout.MANIFEST));
      }
      CheckSettings settings = SETTINGS.getOrDefault(c.getKey(), x -> x)
          .apply(CheckSettings.defaults().withPlatform(PlatformTag.parse(TAG)));
      assertEquals(List.of(), check.run(FolderSubject.read(good, Layout.DEFAULT, settings)),
          "passing case of " + c.getKey());

      Path bad = assembled(temp.resolve(c.getKey() + "/bad"));
      c.getValue().apply(bad);
      Layout layout = Files.exists(bad.resolve(VERSIONED_EP)) ? Layout.DEFAULT.withNcclEpLibrary(VERSIONED_EP)
          : Layout.DEFAULT;
      List<Finding> findings = check.run(FolderSubject.read(bad, layout, settings));
      assertFalse(findings.isEmpty(), "failing case of " + c.getKey());
      for (Finding f : findings) {
        assertEquals(c.getKey(), f.checkId());
        assertTrue(f.file().startsWith(bad.toString()) || f.file().startsWith("wheel_lib " + bad), f.file());
        assertFalse(f.found().isBlank() || f.expected().isBlank() || f.fix().isBlank(), f.toString());
      }
    }));
  }

  /** Checks never pass silently: a file a check needs and cannot read is a finding of that check. */
  @Test
  void aCheckThatCannotReadItsLibrarySaysSoWhateverElfSharedObjectsSeverity() throws Exception {
    Path bad = assembled(temp.resolve("unreadable"));
    Files.writeString(bad.resolve("libtransformer_engine.so"), "INPUT(-ltransformer_engine_static)\n");
    Files.delete(bad.resolve(Layout.MANIFEST));
    Subject subject = FolderSubject.read(bad, Layout.DEFAULT,
        CheckSettings.defaults().withPlatform(PlatformTag.parse(TAG)));
    List<Finding> findings = Judged.findings(subject, Map.of("ELF-SHARED-OBJECT", Severity.INFO));
    for (String id : List.of("TE-BIND-NOW", "TE-FORBIDDEN-NEEDED", "TE-UNDEFINED-NCCL-EP", "TE-RUNPATH-ORIGIN",
        "PLATFORM", "DEPS-RESOLVE", "EXEC-STACK", "ISA-LEVEL")) {
      Severity severity = CheckCatalogue.check(id).defaultSeverity();
      assertTrue(findings.stream().anyMatch(f -> f.checkId().equals(id) && f.severity() == severity
          && f.file().endsWith("libtransformer_engine.so") && f.found().startsWith("a file that cannot be read as ELF")),
          id + " passed a library it could not read: " + findings);
    }
  }

  /** EP-FILE-VERSION once passed when nccl_ep.h lacked NCCL_EP_MINOR or NCCL_EP_PATCH. */
  @Test
  void aHeaderWithoutItsFullVersionIsAFinding() throws Exception {
    Path bad = assembled(temp.resolve("no-minor"));
    Path header = bad.resolve("nccl_ep/include/nccl_ep.h");
    Files.writeString(header, Files.readString(header).replaceAll("#define NCCL_EP_MINOR[^\n]*\n", ""));
    Files.delete(bad.resolve(Layout.MANIFEST));
    List<Finding> findings = CheckCatalogue.check("EP-FILE-VERSION")
        .run(FolderSubject.read(bad, Layout.DEFAULT, CheckSettings.defaults()));
    assertEquals(1, findings.size(), findings.toString());
    assertTrue(findings.get(0).found().startsWith("an nccl_ep.h whose version cannot be read"), findings.toString());
    assertTrue(findings.get(0).file().endsWith("nccl_ep/include/nccl_ep.h"), findings.toString());
  }

  private Path assembled(Path out) throws Exception {
    new Assembler(line -> {}).assemble(AssembleRequest.of(StandIns.transformerEngine(), StandIns.ncclEpHome(), out));
    return out;
  }

  private static void replace(Path wheelLib, String path, Path with) throws Exception {
    Files.copy(with, wheelLib.resolve(path), StandardCopyOption.REPLACE_EXISTING);
    Files.setPosixFilePermissions(wheelLib.resolve(path), PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  /**
   * The corruption ELF-VERNEED-NEEDED is there to catch, as a careless post-link rewrite leaves it: the last
   * DT_NEEDED entry (libc.so.6) turned into DT_DEBUG while its version needs stay.
   */
  private static void dropLastNeeded(Path library) throws Exception {
    ProgramHeader dynamic = ElfFile.read(library).programHeaders().stream()
        .filter(p -> p.type().equals(SegmentType.DYNAMIC)).findFirst().orElseThrow();
    try (FileChannel file = FileChannel.open(library, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer entries = ByteBuffer.allocate((int) dynamic.fileSize()).order(ByteOrder.LITTLE_ENDIAN);
      file.read(entries, dynamic.offset());
      long lastNeeded = -1;
      for (int at = 0; at + 16 <= entries.capacity(); at += 16) {
        if (entries.getLong(at) == 1) {
          lastNeeded = at;
        }
      }
      assertTrue(lastNeeded >= 0);
      ByteBuffer debugTag = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, 21);
      file.write(debugTag, dynamic.offset() + lastNeeded);
    }
    assertEquals(List.of("libnccl.so.2", "libcuda.so.1"), ElfFile.read(library).needed());
  }
}
