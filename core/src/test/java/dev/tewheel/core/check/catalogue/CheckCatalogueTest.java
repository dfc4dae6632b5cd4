package dev.tewheel.core.check.catalogue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.core.check.Check;
import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Judged;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.standins.StandIns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckCatalogueTest {
  @TempDir Path temp;

  @Test
  void idsAreUniqueAndDocumentedInChecksMd() throws Exception {
    List<String> ids = CheckCatalogue.all().stream().map(Check::id).toList();
    assertEquals(ids.size(), Set.copyOf(ids).size(), "duplicate IDs: " + ids);
    String text = Files.readString(Path.of("../docs/checks.md")); // surefire runs in core/
    Set<String> documented = new TreeSet<>();
    Matcher rows = Pattern.compile("^\\| `([A-Z0-9-]+)` \\|", Pattern.MULTILINE).matcher(text);
    while (rows.find()) {
      documented.add(rows.group(1));
    }
    // te:verify-release's RELEASE-MATRIX is a check of the release, documented with the catalogue's.
    Set<String> expected = new TreeSet<>(ids);
    expected.add(dev.tewheel.core.release.ReleaseMatrix.ID);
    assertEquals(expected, documented, "docs/checks.md and CheckCatalogue disagree");
    for (String id : expected) {
      assertTrue(text.contains("## " + id), "docs/checks.md has no section for " + id);
    }
  }

  @Test
  void severityOverridesApplyAndUnknownIdsAreRefused() throws Exception {
    Subject subject = new Subject("test", Layout.DEFAULT, List.of(
        SubjectFile.onDisk("libtransformer_engine.so", StandIns.defect(StandIns.Defect.TE_LAZY_BINDING))),
        CheckSettings.defaults());
    List<Finding> findings = Judged.findings(subject, Map.of("TE-BIND-NOW", Severity.WARNING));
    assertEquals(List.of("TE-BIND-NOW/WARNING", "SYMBOL-FLOOR/INFO"),
        findings.stream().map(f -> f.checkId() + "/" + f.severity()).collect(Collectors.toList()));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Judged.findings(subject, Map.of("TE-BIND-LATER", Severity.INFO)));
    assertTrue(e.getMessage().contains("no check has the ID 'TE-BIND-LATER'"), e.getMessage());
  }

  @Test
  void findingsOfUncoveredChecksNameFileFoundExpectedAndFix() throws Exception {
    Path notElf = Files.writeString(temp.resolve("libtransformer_engine.so"), "#!/bin/sh\n");
    Path header = Files.writeString(temp.resolve("nccl_ep.h"),
        "#define NCCL_EP_MAJOR 0\n#define NCCL_EP_MINOR 2\n#define NCCL_EP_PATCH 0\n");
    Subject subject = new Subject("test", Layout.EP_HOME, List.of(
        SubjectFile.onDisk("libtransformer_engine.so", notElf),
        SubjectFile.onDisk("nccl_ep/lib/libnccl_ep.so.0", StandIns.ncclEpLibrary()),
        SubjectFile.onDisk("nccl_ep/include/nccl_ep.h", header)), CheckSettings.defaults());
    List<Finding> findings = Judged.findings(subject, Map.of());
    Finding notShared = findings.stream().filter(f -> f.checkId().equals("ELF-SHARED-OBJECT")).findFirst().orElseThrow();
    assertEquals(notElf.toString(), notShared.file());
    assertTrue(notShared.found().startsWith("a file the ELF reader refuses"), notShared.found());
    Finding version = findings.stream().filter(f -> f.checkId().equals("EP-FILE-VERSION")).findFirst().orElseThrow();
    assertEquals("file name version 0.1.0", version.found());
    assertEquals("version 0.2.0", version.expected());
  }
}
