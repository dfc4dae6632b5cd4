package dev.tewheel.runtime.internal.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.loader.LdSoCache;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The ld.so.cache reader against ldconfig's own listing of the same file: every entry, in ldconfig's order. */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class LdSoCacheTest {
  private static final Pattern LINE = Pattern.compile("^\\s*(\\S+) \\(libc6[^)]*\\) => (\\S+)$");

  @Test
  void everyEntryLdconfigListsIsFoundInItsOrder() throws Exception {
    Path ldconfig = Files.isExecutable(Path.of("/sbin/ldconfig")) ? Path.of("/sbin/ldconfig")
        : Path.of("/usr/sbin/ldconfig");
    Process process = new ProcessBuilder(ldconfig.toString(), "-p").redirectErrorStream(true).start();
    String listing = new String(process.getInputStream().readAllBytes());
    assertTrue(process.waitFor(30, TimeUnit.SECONDS));
    assertEquals(0, process.exitValue(), listing);
    Map<String, List<Path>> expected = new LinkedHashMap<>();
    for (String line : listing.split("\n")) {
      Matcher m = LINE.matcher(line);
      if (m.matches()) {
        expected.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(Path.of(m.group(2)));
      }
    }
    assertTrue(expected.containsKey("libc.so.6"), "ldconfig lists libc.so.6: " + listing.lines().limit(5).toList());
    for (Map.Entry<String, List<Path>> entry : expected.entrySet()) {
      List<Path> found = LdSoCache.lookup(LdSoCache.FILE, entry.getKey());
      // ldconfig -p also lists other ABIs' libc6 entries (e.g. x32); ours keeps every libc6 entry, filtering by the
      // ELF header later, so each listed path is there and in the same order.
      assertEquals(entry.getValue(), found.stream().filter(entry.getValue()::contains).toList(), entry.getKey());
    }
    assertEquals(List.of(), LdSoCache.lookup(LdSoCache.FILE, "libno-such-library.so.42"));
  }

  /**
   * A cache ldconfig writes here (-C, -f) for a folder with glibc-hwcaps subfolders: the entry chosen is the one
   * glibc's search_cache takes, the highest subfolder this CPU supports (as ld.so --help lists them), skipping
   * those it does not (x86-64-v4 on a CPU without AVX-512), else the plain entry.
   */
  @Test
  void theCacheEntryOfTheBestSupportedHwcapsSubfolderIsChosenAsGlibcChoosesIt(@TempDir Path temp) throws Exception {
    Path folder = temp.resolve("lib");
    List<String> levels = List.of("x86-64-v4", "x86-64-v2");
    Path source = Files.writeString(temp.resolve("hwc.c"), "int hwc_fn(void) { return 1; }\n");
    for (String sub : List.of("", "glibc-hwcaps/x86-64-v4/", "glibc-hwcaps/x86-64-v2/")) {
      Path file = folder.resolve(sub + "libhwc.so.1");
      Files.createDirectories(file.getParent());
      run(List.of("gcc", "-shared", "-fPIC", "-Wl,-soname,libhwc.so.1", "-o", file.toString(), source.toString()));
    }
    Path onlyV4 = temp.resolve("v4only");
    Path v4file = onlyV4.resolve("glibc-hwcaps/x86-64-v4/libhwv4.so.1");
    Files.createDirectories(v4file.getParent());
    run(List.of("gcc", "-shared", "-fPIC", "-Wl,-soname,libhwv4.so.1", "-o", v4file.toString(), source.toString()));
    run(List.of("gcc", "-shared", "-fPIC", "-Wl,-soname,libhwv4.so.1", "-o",
        onlyV4.resolve("libhwv4.so.1").toString(), source.toString()));
    Path conf = Files.writeString(temp.resolve("ld.so.conf"), folder + "\n" + onlyV4 + "\n");
    Path cache = temp.resolve("ld.so.cache");
    Path ldconfig = Files.isExecutable(Path.of("/sbin/ldconfig")) ? Path.of("/sbin/ldconfig")
        : Path.of("/usr/sbin/ldconfig");
    run(List.of(ldconfig.toString(), "-C", cache.toString(), "-f", conf.toString()));
    assertTrue(run(List.of(ldconfig.toString(), "-C", cache.toString(), "-p")).contains("hwcap: \"x86-64-v4\""));

    List<String> supported = new ArrayList<>();
    boolean inSection = false;
    for (String line : run(List.of("/lib64/ld-linux-x86-64.so.2", "--help")).split("\n")) {
      if (line.startsWith("Subdirectories of glibc-hwcaps directories")) {
        inSection = true;
      } else if (inSection && line.isBlank()) {
        break;
      } else if (inSection && line.contains("supported, searched")) {
        supported.add(line.strip().split(" ")[0]);
      }
    }
    String best = supported.stream().filter(levels::contains).findFirst().orElse(null);
    assertEquals(folder.resolve(best == null ? "" : "glibc-hwcaps/" + best + "/").resolve("libhwc.so.1"),
        LdSoCache.choose(cache, "libhwc.so.1", dev.tewheel.elf.ElfMachine.X86_64, LinkerHost.host().subfolders())
            .orElseThrow());
    assertEquals(supported.contains("x86-64-v4") ? v4file : onlyV4.resolve("libhwv4.so.1"),
        LdSoCache.choose(cache, "libhwv4.so.1", dev.tewheel.elf.ElfMachine.X86_64, LinkerHost.host().subfolders())
            .orElseThrow());
  }

  private static String run(List<String> command) throws Exception {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes());
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), command + " did not finish");
    assertEquals(0, process.exitValue(), command + "\n" + out);
    return out;
  }
}
