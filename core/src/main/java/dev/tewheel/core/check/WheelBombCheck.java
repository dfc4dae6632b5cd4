package dev.tewheel.core.check;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;

/**
 * A wheel is no zip bomb: the sizes its entries declare stay within bounds, judged from the central directory
 * before anything is inflated. The wheel reader applies the same bounds ({@link #problems}) and refuses to inflate
 * what they flag, so the other checks never unpack a bomb; this check reports why.
 *
 * <p>Default bounds, {@link Bounds#DEFAULTS}: at most 64 GiB declared in total, at most 100,000 entries, and a
 * compression ratio of at most 200:1 for any entry, and for the archive as a whole, declaring more than 64 MiB.
 * Real Transformer Engine libraries (hundreds of MB of code and cubins) compress 3-5:1; deflate's ceiling is about
 * 1032:1, reached by runs of one byte, which is what bombs are made of.
 */
public final class WheelBombCheck implements Check {
  /**
   * The bounds.
   *
   * @param maxTotalBytes the most the entries may declare uncompressed, together
   * @param maxEntries the most entries the central directory may hold
   * @param maxRatio the highest size / compressed size allowed for data over {@code ratioMinBytes}
   * @param ratioMinBytes entries (and archives) declaring at most this many bytes are never flagged for their ratio:
   *     small files may compress well and cost nothing to inflate
   */
  public record Bounds(long maxTotalBytes, int maxEntries, long maxRatio, long ratioMinBytes) {
    public static final Bounds DEFAULTS = new Bounds(64L << 30, 100_000, 200, 64L << 20);
  }

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

  private final Bounds bounds;

  public WheelBombCheck() {
    this(Bounds.DEFAULTS);
  }

  public WheelBombCheck(Bounds bounds) {
    this.bounds = bounds;
  }

  @Override
  public String id() {
    return "WHEEL-BOMB";
  }

  @Override
  public String title() {
    return "the entries' declared sizes and compression ratios stay within bounds (no zip bomb)";
  }

  @Override
  public Severity defaultSeverity() {
    return Severity.ERROR;
  }

  @Override
  public List<Finding> run(Subject subject) {
    if (subject.wheel().isEmpty()) {
      return List.of();
    }
    WheelFacts wheel = subject.wheel().get();
    List<Finding> findings = new ArrayList<>();
    for (Problem problem : problems(wheel.entries(), bounds)) {
      findings.add(finding(problem.entry().map(e -> wheel.path() + "!" + e).orElse(wheel.path()), problem.found(),
          problem.expected(), "do not ship this archive: nothing legitimate compresses like this; if it is a wheel"
              + " you built, look for a padded or zero-filled file and rebuild without it"));
    }
    return findings;
  }

  /** Everything over the bounds, from the sizes the central directory declares; nothing is inflated. */
  public static List<Problem> problems(List<WheelFacts.Entry> entries, Bounds bounds) {
    List<Problem> problems = new ArrayList<>();
    if (entries.size() > bounds.maxEntries()) {
      problems.add(new Problem(Kind.ENTRY_COUNT, Optional.empty(), entries.size() + " entries",
          "at most " + bounds.maxEntries() + " entries"));
    }
    long total = 0;
    long rest = 0; // the ratio of the archive is judged on the entries not flagged one by one
    long restCompressed = 0;
    boolean flagged = false;
    for (WheelFacts.Entry entry : entries) {
      total = saturatedAdd(total, Math.max(0, entry.size()));
      if (overRatio(entry.size(), entry.compressedSize(), bounds)) {
        problems.add(new Problem(Kind.ENTRY_RATIO, Optional.of(entry.name()),
            declared(entry.size(), entry.compressedSize()), ratioExpected(bounds)));
        flagged = true;
      } else {
        rest = saturatedAdd(rest, Math.max(0, entry.size()));
        restCompressed = saturatedAdd(restCompressed, Math.max(0, entry.compressedSize()));
      }
    }
    if (total > bounds.maxTotalBytes()) {
      problems.add(new Problem(Kind.TOTAL_SIZE, Optional.empty(), "entries declaring " + total + " bytes in total ("
          + human(total) + ")", "at most " + bounds.maxTotalBytes() + " bytes (" + human(bounds.maxTotalBytes())
          + ") uncompressed"));
    }
    if (overRatio(rest, restCompressed, bounds)) {
      problems.add(new Problem(Kind.ARCHIVE_RATIO, Optional.empty(), declared(rest, restCompressed)
          + (flagged ? " over the entries not flagged one by one" : " over all entries"), ratioExpected(bounds)));
    }
    return problems;
  }

  /**
   * The entries, by index, that must not be inflated: each one over the ratio bound; when the archive as a whole is
   * over its ratio bound, each one that compresses better than the bound, whatever its size; when it is over its
   * total or entry count, all. What stays readable inflates, together, to at most {@code ratioMinBytes} or
   * {@code maxRatio} times what it stores, whichever is more.
   */
  public static BitSet notToInflate(List<WheelFacts.Entry> entries, Bounds bounds) {
    BitSet refused = new BitSet(entries.size());
    List<Problem> problems = problems(entries, bounds);
    boolean all = problems.stream().anyMatch(p -> p.kind() == Kind.ENTRY_COUNT || p.kind() == Kind.TOTAL_SIZE);
    boolean highRatio = problems.stream().anyMatch(p -> p.kind() == Kind.ARCHIVE_RATIO);
    for (int i = 0; i < entries.size(); i++) {
      WheelFacts.Entry entry = entries.get(i);
      if (all || overRatio(entry.size(), entry.compressedSize(), bounds)
          || highRatio && entry.size() > 0 && (entry.compressedSize() <= 0
              || (double) entry.size() / entry.compressedSize() > bounds.maxRatio())) {
        refused.set(i);
      }
    }
    return refused;
  }

  private static boolean overRatio(long size, long compressedSize, Bounds bounds) {
    return size > bounds.ratioMinBytes() && compressedSize > 0 && (double) size / compressedSize > bounds.maxRatio();
  }

  private static String declared(long size, long compressedSize) {
    return size + " bytes (" + human(size) + ") declared from " + compressedSize + " compressed (ratio "
        + (compressedSize > 0 ? size / compressedSize : size) + ":1)";
  }

  private static String ratioExpected(Bounds bounds) {
    return "a compression ratio of at most " + bounds.maxRatio() + ":1 above " + human(bounds.ratioMinBytes())
        + " (libraries compress 3-5:1)";
  }

  private static long saturatedAdd(long a, long b) {
    long sum = a + b;
    return sum < 0 ? Long.MAX_VALUE : sum;
  }

  static String human(long bytes) {
    if (bytes >= 1L << 30) {
      return String.format(java.util.Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
    }
    if (bytes >= 1L << 20) {
      return String.format(java.util.Locale.ROOT, "%.1f MiB", bytes / (double) (1L << 20));
    }
    return bytes + " B";
  }
}
