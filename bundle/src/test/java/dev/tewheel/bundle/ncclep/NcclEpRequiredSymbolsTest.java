package dev.tewheel.bundle.ncclep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.elf.ElfMachine;
import dev.tewheel.standins.StandIns;
import dev.tewheel.standins.StandIns.Defect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rule can also require the functions a caller will call, read from the dynamic symbol table. */
class NcclEpRequiredSymbolsTest {
  private static final Set<String> API = Set.copyOf(NcclEpFunctions.REQUIRED);

  @TempDir Path temp;

  @Test
  void rejectsALibraryLackingARequiredFunctionAndNamesIt() throws Exception {
    Path folder = Files.createDirectories(temp.resolve("lib"));
    Files.copy(StandIns.defect(Defect.NCCL_EP_WITHOUT_COMBINE), folder.resolve("libnccl_ep.so.0"));
    NcclEpSelection selection =
        NcclEpSelection.select(NcclEpSelection.candidatesIn(folder), 0, ElfMachine.X86_64, null, API);
    NcclEpCandidate candidate = selection.candidates().get(0);
    assertFalse(candidate.accepted());
    assertEquals("SONAME libnccl_ep.so.0 matches major 0, but it does not define ncclEpCombine", candidate.reason());
    assertTrue(selection.chosen().isEmpty());
  }

  @Test
  void withoutRequiredFunctionsTheSameLibraryIsAccepted() throws Exception {
    Path folder = Files.createDirectories(temp.resolve("lib"));
    Files.copy(StandIns.defect(Defect.NCCL_EP_WITHOUT_COMBINE), folder.resolve("libnccl_ep.so.0"));
    assertTrue(NcclEpSelection.select(NcclEpSelection.candidatesIn(folder), 0, ElfMachine.X86_64, null)
        .chosen().isPresent());
  }

  @Test
  void acceptsTheCompleteLibraryAndListsEveryMissingNameInOrder() throws Exception {
    Path folder = Files.createDirectories(temp.resolve("lib"));
    Files.copy(StandIns.ncclEpLibrary(), folder.resolve("libnccl_ep.so.0.1.0"));
    List<Path> files = NcclEpSelection.candidatesIn(folder);
    assertTrue(NcclEpSelection.select(files, 0, ElfMachine.X86_64, null, API).chosen().isPresent());
    NcclEpCandidate candidate =
        NcclEpSelection.select(files, 0, null, null, Set.of("ncclEpZ", "ncclEpA", "ncclEpGetVersion")).candidates()
            .get(0);
    assertEquals("SONAME libnccl_ep.so.0 matches major 0, but it does not define ncclEpA, ncclEpZ",
        candidate.reason());
  }

  @Test
  void aLibraryWithoutSonameIsRejected() throws Exception {
    Path folder = Files.createDirectories(temp.resolve("lib"));
    Files.copy(StandIns.defect(Defect.NCCL_EP_WITHOUT_SONAME), folder.resolve("libnccl_ep.so.0.1.0"));
    NcclEpCandidate candidate =
        NcclEpSelection.select(NcclEpSelection.candidatesIn(folder), 0, ElfMachine.X86_64, null, API).candidates()
            .get(0);
    assertEquals("has no SONAME, expected libnccl_ep.so.0", candidate.reason());
  }
}
