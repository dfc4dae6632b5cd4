package dev.tewheel.elf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.standins.StandIns;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A library stored inside a larger file (a stored zip entry) reads as the library itself. */
class FileRegionTest {
  @TempDir Path temp;

  @Test
  void aRegionReadsLikeTheFileItHolds() throws Exception {
    byte[] library = Files.readAllBytes(StandIns.ncclEpLibrary());
    Path container = temp.resolve("container.bin");
    try (OutputStream out = Files.newOutputStream(container)) {
      out.write(new byte[12345]);
      out.write(library);
      out.write(new byte[999]);
    }
    ElfFile direct = ElfFile.read(StandIns.ncclEpLibrary());
    try (ByteSource region = ByteSource.open(container, 12345, library.length, "container.bin!libnccl_ep.so")) {
      ElfFile inside = ElfFile.read(region);
      assertEquals(direct.soname(), inside.soname());
      assertEquals(direct.needed(), inside.needed());
      assertEquals(direct.definedSymbolNames(), inside.definedSymbolNames());
      assertEquals(direct.versionNeeds(), inside.versionNeeds());
      assertEquals("container.bin!libnccl_ep.so", region.name());
      assertThrows(EOFException.class, () -> region.read(library.length - 4, 8));
    }
    IOException outside = assertThrows(IOException.class, () -> ByteSource.open(container, 20000, library.length + 5000, "x"));
    assertTrue(outside.getMessage().contains("do not fit in"), outside.getMessage());
  }
}
