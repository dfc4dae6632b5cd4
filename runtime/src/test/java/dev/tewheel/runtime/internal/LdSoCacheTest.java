package dev.tewheel.runtime.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

/** The ld.so.cache reader against ldconfig's own listing of the same file: every entry, in ldconfig's order. */
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
}
