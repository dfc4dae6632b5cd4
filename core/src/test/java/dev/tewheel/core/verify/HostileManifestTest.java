package dev.tewheel.core.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.core.assemble.AssembleRequest;
import dev.tewheel.core.assemble.Assembler;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.GateReport;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.standins.StandIns;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Verify reads a wheel_lib's manifest with the runtime's reader, so a manifest the runtime would refuse (a path
 * leaving the bundle, a NUL, a size no manifest has) fails verify with MANIFEST-DIGESTS instead of passing or
 * crashing.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HostileManifestTest {
  @TempDir Path temp;
  private Path wheelLib;
  private Path manifest;

  @BeforeEach
  void assemble() throws Exception {
    wheelLib = temp.resolve("wheel_lib");
    new Assembler(line -> {}).assemble(AssembleRequest.of(StandIns.transformerEngine(), StandIns.ncclEpHome(), wheelLib));
    manifest = wheelLib.resolve(Layout.MANIFEST);
  }

  private Finding manifestFinding() throws Exception {
    GateReport report = new Verifier().verify(VerifyRequest.folder(wheelLib).withPlatformTag("manylinux_2_34_x86_64"));
    assertFalse(report.passed(), report.findings().toString());
    List<Finding> findings = report.findings().stream().filter(f -> f.checkId().equals("MANIFEST-DIGESTS")).toList();
    assertEquals(1, findings.size(), report.findings().toString());
    assertEquals(Severity.ERROR, findings.get(0).severity());
    assertEquals(manifest.toString(), findings.get(0).file());
    return findings.get(0);
  }

  private void edit(String from, String to) throws Exception {
    String json = Files.readString(manifest);
    assertTrue(json.contains(from), json);
    Files.writeString(manifest, json.replace(from, to));
  }

  @Test
  void aManifestWhoseNcclEpHomeLeavesTheBundleFailsVerify() throws Exception {
    edit("\"ncclEpHome\": \"nccl_ep\"", "\"ncclEpHome\": \"../../elsewhere\"");
    Finding finding = manifestFinding();
    assertTrue(finding.found().contains("'ncclEpHome' '../../elsewhere' is not a path inside wheel_lib (it has a"
        + " '..' segment)"), finding.found());
  }

  @Test
  void aManifestWhoseIncludeRootIsAbsoluteFailsVerify() throws Exception {
    edit("\"includeRoot\": \"nccl_ep/include\"", "\"includeRoot\": \"/usr/include\"");
    assertTrue(manifestFinding().found().contains("'includeRoot' '/usr/include' is not a path inside wheel_lib (it is"
        + " absolute)"));
  }

  @Test
  void aNulInAManifestPathFailsVerifyNamingTheCharacter() throws Exception {
    edit("\"path\": \"libnccl_ep.so\"", "\"path\": \"libnccl_ep.so\\u0000txt\"");
    Finding finding = manifestFinding();
    assertTrue(finding.found().contains("'libnccl_ep.so\\u0000txt' is not a path inside wheel_lib (it holds the"
        + " control character U+0000)"), finding.found());
    assertFalse(finding.found().contains("\0"));
  }

  @Test
  void aHugeSparseManifestFailsVerifyWithoutReadingIt() throws Exception {
    Files.delete(manifest);
    try (RandomAccessFile sparse = new RandomAccessFile(manifest.toFile(), "rw")) {
      sparse.setLength(3L << 30);
    }
    Finding finding = manifestFinding();
    assertTrue(finding.found().contains("is larger than a manifest may be (at most 16777216 bytes; "),
        finding.found());
  }
}
