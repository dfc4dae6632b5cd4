package dev.tewheel.core.zip;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * How big a wheel may say it is before it counts as a zip bomb, judged from the central directory before anything
 * is inflated. {@link WheelArchive} refuses to inflate what these bounds flag ({@link #notToInflate}), so no reader
 * unpacks a bomb; the WHEEL-BOMB check reports the {@link #problems} as findings.
 *
 * <p>Default bounds, {@link #DEFAULTS}: at most 64 GiB declared in total, at most 50,000 entries, and a
 * compression ratio of at most 200:1 for any entry, and for the archive as a whole, declaring more than 64 MiB.
 * Real Transformer Engine libraries (hundreds of MB of code and cubins) compress 3-5:1; deflate's ceiling is about
 * 1032:1, reached by runs of one byte, which is what bombs are made of. A TE wheel holds a few hundred entries, the
 * largest wheels on PyPI some tens of thousands; verifying costs about 3 KB of heap per entry (its name, digest and
 * the checks' findings), so 50,000 entries stay within a 256 MiB heap, which a test holds every goal to. The entry
 * count is judged before any reader makes an object per entry ({@link WheelArchive#open}), and the same bound holds
 * for floor and diff-baseline folders and wheels.
 *
 * @param maxTotalBytes the most the entries may declare uncompressed, together
 * @param maxEntries the most entries the central directory may hold
 * @param maxRatio the highest size / compressed size allowed for data over {@code ratioMinBytes}
 * @param ratioMinBytes entries (and archives) declaring at most this many bytes are never flagged for their ratio:
 *     small files may compress well and cost nothing to inflate
 */
public record ZipBombBounds(long maxTotalBytes, int maxEntries, long maxRatio, long ratioMinBytes) {
  public static final ZipBombBounds DEFAULTS = new ZipBombBounds(64L << 30, 50_000, 200, 64L << 20);

  /** Which bound a problem is over. */
  public enum Kind {
    ENTRY_COUNT,
    TOTAL_SIZE,
    ENTRY_RATIO,
    ARCHIVE_RATIO
  }

  /**
   * One thing over a bound.
   *
   * @param kind the bound
   * @param entry the entry concerned, or empty when the archive as a whole is over
   * @param found what it declares
   * @param expected the bound
   */
  public record Problem(Kind kind, Optional<String> entry, String found, String expected) {}

  /** Everything over the bounds, from the sizes the central directory declares; nothing is inflated. */
  public List<Problem> problems(List<WheelArchive.Entry> entries) {
    List<Problem> problems = new ArrayList<>();
    entryCount(entries.size()).ifPresent(problems::add);
    long total = 0;
    long rest = 0; // the ratio of the archive is judged on the entries not flagged one by one
    long restCompressed = 0;
    boolean flagged = false;
    for (WheelArchive.Entry entry : entries) {
      total = saturatedAdd(total, Math.max(0, entry.size()));
      if (overRatio(entry.size(), entry.compressedSize())) {
        problems.add(new Problem(Kind.ENTRY_RATIO, Optional.of(entry.name()),
            declared(entry.size(), entry.compressedSize()), ratioExpected()));
        flagged = true;
      } else {
        rest = saturatedAdd(rest, Math.max(0, entry.size()));
        restCompressed = saturatedAdd(restCompressed, Math.max(0, entry.compressedSize()));
      }
    }
    if (total > maxTotalBytes) {
      problems.add(new Problem(Kind.TOTAL_SIZE, Optional.empty(), "entries declaring " + total + " bytes in total ("
          + human(total) + ")", "at most " + maxTotalBytes + " bytes (" + human(maxTotalBytes)
          + ") uncompressed"));
    }
    if (overRatio(rest, restCompressed)) {
      problems.add(new Problem(Kind.ARCHIVE_RATIO, Optional.empty(), declared(rest, restCompressed)
          + (flagged ? " over the entries not flagged one by one" : " over all entries"), ratioExpected()));
    }
    return problems;
  }

  /**
   * The problem of an archive, folder or list of {@code count} entries, when that is more than {@link #maxEntries}:
   * what every reader of a wheel, a floor or a diff baseline checks before it makes an object per entry.
   */
  public Optional<Problem> entryCount(long count) {
    return count <= maxEntries ? Optional.empty() : Optional.of(new Problem(Kind.ENTRY_COUNT, Optional.empty(),
        String.format(Locale.ROOT, "%,d entries", count), String.format(Locale.ROOT, "at most %,d entries",
            maxEntries)));
  }

  /**
   * The entries, by index, that must not be inflated: each one over the ratio bound; when the archive as a whole is
   * over its ratio bound, each one that compresses better than the bound, whatever its size; when it is over its
   * total or entry count, all. What stays readable inflates, together, to at most {@code ratioMinBytes} or
   * {@code maxRatio} times what it stores, whichever is more.
   */
  public BitSet notToInflate(List<WheelArchive.Entry> entries) {
    BitSet refused = new BitSet(entries.size());
    List<Problem> problems = problems(entries);
    boolean all = problems.stream().anyMatch(p -> p.kind() == Kind.ENTRY_COUNT || p.kind() == Kind.TOTAL_SIZE);
    boolean highRatio = problems.stream().anyMatch(p -> p.kind() == Kind.ARCHIVE_RATIO);
    for (int i = 0; i < entries.size(); i++) {
      WheelArchive.Entry entry = entries.get(i);
      if (all || overRatio(entry.size(), entry.compressedSize())
          || highRatio && entry.size() > 0 && (entry.compressedSize() <= 0
              || (double) entry.size() / entry.compressedSize() > maxRatio)) {
        refused.set(i);
      }
    }
    return refused;
  }

  private boolean overRatio(long size, long compressedSize) {
    return size > ratioMinBytes && compressedSize > 0 && (double) size / compressedSize > maxRatio;
  }

  private static String declared(long size, long compressedSize) {
    return size + " bytes (" + human(size) + ") declared from " + compressedSize + " compressed (ratio "
        + (compressedSize > 0 ? size / compressedSize : size) + ":1)";
  }

  private String ratioExpected() {
    return "a compression ratio of at most " + maxRatio + ":1 above " + human(ratioMinBytes)
        + " (libraries compress 3-5:1)";
  }

  private static long saturatedAdd(long a, long b) {
    long sum = a + b;
    return sum < 0 ? Long.MAX_VALUE : sum;
  }

  public static String human(long bytes) {
    if (bytes >= 1L << 30) {
      return String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
    }
    if (bytes >= 1L << 20) {
      return String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1L << 20));
    }
    return bytes + " B";
  }
}
