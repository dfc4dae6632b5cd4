package dev.tewheel.elf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ElfFile#dynamicSymbolsNamed} follows DT_GNU_HASH as glibc does. Held two ways: on every library of this
 * machine's system folders, every name it holds (and names it does not) is found exactly as a scan of the whole
 * table finds it; and on libraries whose hash table was made to refuse a symbol, the lookup misses it exactly when
 * glibc's {@code dlsym} does.
 */
class GnuHashLookupTest {
  private static final List<String> ABSENT = List.of("", "te_wheel_absent", "mallocx", "printf@@GLIBC_2.2.5", "é");

  @Test
  void everyNameOfEverySystemLibraryIsFoundAsAScanOfTheWholeTableFindsIt() throws Exception {
    int libraries = 0;
    int hashed = 0;
    long names = 0;
    List<String> wrong = new ArrayList<>();
    for (Path folder : SystemLibraries.folders()) {
      List<Path> files;
      try (Stream<Path> listing = Files.list(folder)) {
        files = listing.filter(p -> p.getFileName().toString().contains(".so")).filter(Files::isRegularFile)
            .sorted().toList();
      }
      for (Path file : files) {
        ElfFile elf;
        try {
          elf = ElfFile.read(file);
        } catch (IOException notAnElfLibrary) {
          continue; // linker scripts (libc.so), other machines' files: nothing to look up
        }
        libraries++;
        if (elf.sectionHeaders().stream().anyMatch(s -> s.name().equals(".gnu.hash"))) {
          hashed++;
        }
        Map<String, List<DynamicSymbol>> scan = new LinkedHashMap<>();
        for (DynamicSymbol s : elf.dynamicSymbols()) {
          scan.computeIfAbsent(s.name(), n -> new ArrayList<>()).add(s);
        }
        scan.remove("");
        for (Map.Entry<String, List<DynamicSymbol>> e : scan.entrySet()) {
          names++;
          if (!elf.dynamicSymbolsNamed(e.getKey()).equals(e.getValue())) {
            wrong.add(file + ": " + e.getKey() + " -> " + elf.dynamicSymbolsNamed(e.getKey()) + ", the table holds "
                + e.getValue());
          }
        }
        for (String absent : ABSENT) {
          if (!scan.containsKey(absent) && !elf.dynamicSymbolsNamed(absent).isEmpty()) {
            wrong.add(file + ": " + absent + " is not in the table, yet the lookup found "
                + elf.dynamicSymbolsNamed(absent));
          }
        }
      }
    }
    assertTrue(wrong.isEmpty(), wrong.size() + " lookups differ from the table, first: "
        + wrong.subList(0, Math.min(5, wrong.size())));
    assertTrue(hashed >= 20, "only " + hashed + " of " + libraries + " system libraries have DT_GNU_HASH: the"
        + " lookup through it was hardly tried");
    assertTrue(names >= 10_000, "only " + names + " names looked up");
  }

  @TempDir Path temp;

  /** Each way to make glibc's GNU hash lookup miss a defined symbol, applied to a copy of one library. */
  enum Refusal {
    NONE, BLOOM_CLEARED, BUCKETS_CLEARED, CHAIN_HASH_CHANGED
  }

  @Test
  void aHashTableThatRefusesASymbolHidesItFromTheLookupExactlyWhenGlibcMissesIt() throws Exception {
    Path library = Tools.gcc(temp, "libprobe.so", "int te_probe(void) { return 7; }\nint te_other(void) { return 8; }\n",
        "-Wl,--hash-style=gnu", "-Wl,-soname,libprobe.so");
    Path dlsym = dlsymProgram();
    for (Refusal refusal : Refusal.values()) {
      Path copy = temp.resolve("libprobe-" + refusal + ".so");
      Files.copy(library, copy);
      refuse(copy, refusal);
      Tools.Result glibc = Tools.run(List.of(dlsym.toString(), copy.toString(), "te_probe"));
      assertTrue(glibc.exitCode() == 0 || glibc.exitCode() == 1, "the dlsym probe failed on " + copy + ": "
          + glibc.stdout() + glibc.stderr());
      boolean glibcFinds = glibc.exitCode() == 0;
      boolean lookupFinds = !ElfFile.read(copy).dynamicSymbolsNamed("te_probe").isEmpty();
      assertEquals(glibcFinds, lookupFinds, refusal + ": glibc's dlsym " + (glibcFinds ? "finds" : "misses")
          + " te_probe in " + copy);
      assertEquals(refusal == Refusal.NONE, glibcFinds, refusal + " was meant to " + (refusal == Refusal.NONE
          ? "keep" : "hide") + " the symbol from glibc");
    }
  }

  private Path dlsymProgram() throws Exception {
    Path c = temp.resolve("dlsym.c");
    Files.writeString(c, """
        #include <dlfcn.h>
        #include <stdio.h>
        int main(int argc, char **argv) {
          void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
          if (!h) { printf("dlopen: %s\\n", dlerror()); return 2; }
          return dlsym(h, argv[2]) ? 0 : 1;
        }
        """);
    Path exe = temp.resolve("dlsym");
    Tools.check("gcc", "-o", exe.toString(), c.toString(), "-ldl");
    return exe;
  }

  /** Rewrites the copy's .gnu.hash so that glibc's lookup of te_probe stops at the refusal's step. */
  private static void refuse(Path copy, Refusal refusal) throws Exception {
    if (refusal == Refusal.NONE) {
      return;
    }
    ElfFile elf = ElfFile.read(copy);
    SectionHeader section = elf.sectionHeaders().stream().filter(s -> s.name().equals(".gnu.hash")).findFirst()
        .orElseThrow(() -> new AssertionError("gcc made no .gnu.hash in " + copy));
    byte[] bytes = Files.readAllBytes(copy);
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    int at = (int) section.offset();
    int buckets = b.getInt(at);
    int symOffset = b.getInt(at + 4);
    int bloomWords = b.getInt(at + 8);
    int bloomAt = at + 16;
    int bucketsAt = bloomAt + bloomWords * 8;
    int chainsAt = bucketsAt + buckets * 4;
    switch (refusal) {
      case BLOOM_CLEARED -> {
        for (int i = 0; i < bloomWords * 8; i++) {
          bytes[bloomAt + i] = 0;
        }
      }
      case BUCKETS_CLEARED -> {
        for (int i = 0; i < buckets * 4; i++) {
          bytes[bucketsAt + i] = 0;
        }
      }
      case CHAIN_HASH_CHANGED -> {
        int index = -1;
        List<DynamicSymbol> symbols = elf.dynamicSymbols();
        for (int i = 0; i < symbols.size(); i++) {
          if (symbols.get(i).name().equals("te_probe")) {
            index = i;
          }
        }
        int word = chainsAt + (index - symOffset) * 4;
        b.putInt(word, b.getInt(word) ^ 0x10); // another hash, same end-of-chain bit
      }
      default -> throw new AssertionError(refusal);
    }
    Files.write(copy, bytes);
  }
}
