package dev.tewheel.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.elf.ElfMachine;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The ld.so.cache entry chosen for a DT_NEEDED is the same whether the machine is the constant or the one read from
 * the needing object's ELF header (a DT_NEEDED search asks with the latter): a machine is compared by value.
 */
class LdSoCacheMachineTest {
  @Test
  void aMachineReadFromAnElfHeaderChoosesTheSameEntry() throws Exception {
    Path libc = LdSoCache.lookup(LdSoCache.FILE, "libc.so.6").get(0);
    ElfMachine read = ElfFiles.readWithoutSymbols(libc).header().machine();
    assertEquals(ElfMachine.X86_64, read);
    Optional<Path> byConstant = LdSoCache.choose(LdSoCache.FILE, "libc.so.6", ElfMachine.X86_64, List.of(""));
    assertTrue(byConstant.isPresent(), "this machine's ld.so.cache lists libc.so.6");
    assertEquals(byConstant, LdSoCache.choose(LdSoCache.FILE, "libc.so.6", read, List.of("")));
  }
}
