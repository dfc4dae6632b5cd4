package dev.tewheel.core.zip;

import java.io.IOException;
import java.util.BitSet;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipMethod;

/**
 * The compressed entries {@link ZipBombBounds#notToInflate} names, each with the reason a read of it is refused:
 * decided once from the declared sizes, before anything is inflated.
 */
final class InflateRefusals {
  private final Map<ZipArchiveEntry, String> refused = new IdentityHashMap<>();

  InflateRefusals(ZipBombBounds bounds, List<ZipArchiveEntry> zipEntries, List<WheelArchive.Entry> entries) {
    List<ZipBombBounds.Problem> problems = bounds.problems(entries);
    String archiveProblem = problems.stream().filter(p -> p.entry().isEmpty()).findFirst()
        .map(p -> "the archive declares " + reason(p)).orElse(null);
    Map<String, String> entryProblems = new HashMap<>();
    problems.forEach(p -> p.entry().ifPresent(name -> entryProblems.putIfAbsent(name, reason(p))));
    BitSet notToInflate = bounds.notToInflate(entries);
    for (int i = notToInflate.nextSetBit(0); i >= 0; i = notToInflate.nextSetBit(i + 1)) {
      refused.put(zipEntries.get(i), entryProblems.getOrDefault(entries.get(i).name(), archiveProblem));
    }
  }

  /** A bound as messages word it: what was found, the bound, and the rule that reports it. */
  static String reason(ZipBombBounds.Problem problem) {
    return problem.found() + ", beyond " + problem.expected() + " (WHEEL-BOMB)";
  }

  /** Throws, naming {@code origin} and the bound, when the entry is compressed and refused; STORED ones pass. */
  void check(ZipArchiveEntry entry, String origin) throws IOException {
    if (entry.getMethod() == ZipMethod.STORED.getCode()) {
      return;
    }
    String reason = refused.get(entry);
    if (reason != null) {
      throw new IOException(origin + ": not inflated: " + reason);
    }
  }
}
