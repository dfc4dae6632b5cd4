package dev.tewheel.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.elf.ElfFile;
import dev.tewheel.standins.StandIns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cache returns what a fresh read would, and reads again once the file is another one. */
class ElfFilesTest {
  @TempDir Path dir;

  @Test
  void unchangedFilesAreReadOnceAndReplacedFilesAgain() throws Exception {
    Path file = Files.copy(StandIns.ncclLibDir().resolve("libnccl.so.2"), dir.resolve("libnccl.so.2"));
    ElfFile light = ElfFiles.readWithoutSymbols(file);
    assertEquals(Optional.of("libnccl.so.2"), light.soname());
    assertSame(light, ElfFiles.readWithoutSymbols(file));
    assertThrows(IllegalStateException.class, light::dynamicSymbols);

    ElfFile full = ElfFiles.read(file);
    assertTrue(full.definedSymbolNames().contains("ncclGetVersion"), "a full read has the symbols");
    assertSame(full, ElfFiles.read(file));
    assertSame(full, ElfFiles.readWithoutSymbols(file), "a full read also answers a read without symbols");

    // Another library moved over the same path (as an upgrade does): new file key, read again.
    Path other = Files.copy(StandIns.oldNcclLibDir().resolve("libnccl.so.2"), dir.resolve("next"));
    Files.move(other, file, StandardCopyOption.REPLACE_EXISTING);
    ElfFile replaced = ElfFiles.read(file);
    assertNotSame(full, replaced);
    assertEquals(ElfFile.read(file).definedSymbolNames(), replaced.definedSymbolNames());

    // Rewritten in place with another modification time: read again.
    Files.setLastModifiedTime(file, FileTime.fromMillis(Files.getLastModifiedTime(file).toMillis() - 60_000));
    assertNotSame(replaced, ElfFiles.read(file));
  }
}
