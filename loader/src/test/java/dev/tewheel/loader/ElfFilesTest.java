package dev.tewheel.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.ElfFormatException;
import dev.tewheel.elf.SectionHeader;
import dev.tewheel.standins.StandIns;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cache returns what a fresh read would, and reads again once the file is another one. */
class ElfFilesTest {
  @TempDir Path dir;

  @Test
  void unchangedFilesAreReadOnceAndReplacedFilesAgain() throws Exception {
    // Above the size read in full at once (a sparse tail: the tables stay where they were).
    Path file = Files.copy(StandIns.ncclLibDir().resolve("libnccl.so.2"), dir.resolve("libnccl.so.2"));
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      channel.write(ByteBuffer.wrap(new byte[] {0}), ElfFiles.SMALL_FILE);
    }
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

  @Test
  void aSmallFileIsParsedOnceForBothKindsOfRead() throws Exception {
    Path file = Files.copy(StandIns.ncclLibDir().resolve("libnccl.so.2"), dir.resolve("libnccl.so.2"));
    ElfFile first = ElfFiles.readWithoutSymbols(file);
    assertTrue(first.definedSymbolNames().contains("ncclGetVersion"), "a small file is read with its symbols");
    assertSame(first, ElfFiles.read(file), "the symbols asked for next come from the same parse");
  }

  @Test
  void aSmallFileWithABrokenSymbolTableIsStillReadWithoutIt() throws Exception {
    Path file = Files.copy(StandIns.ncclLibDir().resolve("libnccl.so.2"), dir.resolve("libnccl.so.2"));
    SectionHeader dynsym = ElfFile.read(file).sectionHeaders().stream()
        .filter(h -> h.type() == SectionHeader.SHT_DYNSYM).findFirst().orElseThrow();
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      // Entry 1's st_name far past .dynstr: a full read fails on it, a read without symbols never looks.
      channel.write(ByteBuffer.wrap(new byte[] {-1, -1, -1, 0x7f}), dynsym.offset() + dynsym.entrySize());
    }
    assertThrows(ElfFormatException.class, () -> ElfFile.read(file));
    ElfFile light = ElfFiles.readWithoutSymbols(file);
    assertEquals(Optional.of("libnccl.so.2"), light.soname());
    assertThrows(IllegalStateException.class, light::dynamicSymbols);
    assertThrows(ElfFormatException.class, () -> ElfFiles.read(file), "a read that asks for the symbols still fails");
  }
}
