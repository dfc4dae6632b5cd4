package dev.tewheel.core.diff;

import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.elf.ElfFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * What the diff rules examine: the previous release's wheel_lib and this one's, and the growth budget. The file
 * changes and the pairs of libraries are worked out once ({@link #of}) and shared by the rules and report.json.
 *
 * @param baseline the previous release's wheel_lib
 * @param current this release's
 * @param maxGrowthPercent the largest total size growth that passes, in percent of the baseline's size
 * @param files every path of either side, sorted, with what became of it
 * @param libraries the libraries both sides ship, both readable as ELF
 * @param unreadable the libraries of either side that cannot be read as ELF, which no ABI rule could compare
 * @param refused what of either side was not compared, and why (DIFF-INPUT): a side over the zip-bomb bounds (then
 *     nothing is compared), or an entry that is no regular file (a link is never followed)
 */
public record Comparison(Subject baseline, Subject current, double maxGrowthPercent, List<FileChange> files,
    List<LibraryPair> libraries, List<Unreadable> unreadable, List<Refused> refused) {
  public Comparison {
    files = List.copyOf(files);
    libraries = List.copyOf(libraries);
    unreadable = List.copyOf(unreadable);
    refused = List.copyOf(refused);
  }

  /**
   * Compares two sides: every path of either, sorted, and the libraries both ship.
   *
   * @throws IOException when a file of either side cannot be read
   */
  public static Comparison of(Subject baseline, Subject current, double maxGrowthPercent) throws IOException {
    return of(baseline, current, maxGrowthPercent, List.of());
  }

  /** {@link #of(Subject, Subject, double)}, with what of the sides was left out and why. */
  public static Comparison of(Subject baseline, Subject current, double maxGrowthPercent, List<Refused> refused)
      throws IOException {
    return new Comparison(baseline, current, maxGrowthPercent, files(baseline, current),
        libraries(baseline, current), unreadable(baseline, current), refused);
  }

  /** No comparison: a side is over the bounds, so neither is read on; only why is reported. */
  public static Comparison none(Subject baseline, Subject current, double maxGrowthPercent, List<Refused> refused) {
    return new Comparison(baseline, current, maxGrowthPercent, List.of(), List.of(), List.of(), refused);
  }

  /**
   * Something of one side that was not compared, in a finding's words.
   *
   * @param file the file or folder concerned
   * @param found what it is
   * @param expected what a side must be
   * @param fix how to give one
   */
  public record Refused(String file, String found, String expected, String fix) {}

  /** What became of one path of either side. */
  public enum Change {
    ADDED, REMOVED, CHANGED, UNCHANGED
  }

  /**
   * One path and what became of it.
   *
   * @param before the baseline's file, or null when added
   * @param after this release's file, or null when removed
   * @param baselineSize the baseline file's size, 0 when added
   * @param size this release's file's size, 0 when removed
   */
  public record FileChange(String path, Change change, SubjectFile before, SubjectFile after, long baselineSize,
      long size) {}

  /** A library both releases ship under one path, both readable as ELF. */
  public record LibraryPair(SubjectFile file, ElfFile before, ElfFile after, SubjectFile baselineFile) {
    /** How findings name it: this release's file. */
    String origin() {
      return file.origin();
    }
  }

  private static List<FileChange> files(Subject baseline, Subject current) throws IOException {
    SortedSet<String> paths = new TreeSet<>();
    baseline.files().forEach(f -> paths.add(f.path()));
    current.files().forEach(f -> paths.add(f.path()));
    List<FileChange> result = new ArrayList<>();
    for (String path : paths) {
      SubjectFile old = baseline.file(path).orElse(null);
      SubjectFile now = current.file(path).orElse(null);
      long oldSize = old == null ? 0 : old.size();
      long newSize = now == null ? 0 : now.size();
      Change change = old == null ? Change.ADDED : now == null ? Change.REMOVED
          : oldSize != newSize || !baseline.sha256(old).equals(current.sha256(now)) ? Change.CHANGED
          : Change.UNCHANGED;
      result.add(new FileChange(path, change, old, now, oldSize, newSize));
    }
    return result;
  }

  /**
   * A library of one side that the ELF reader refuses: the ABI rules cannot compare it, so DIFF-READABLE reports it
   * rather than letting the diff pass without a word.
   *
   * @param file the file, named as findings name it
   * @param baselineSide whether it is the baseline's (else this release's)
   * @param reason the reader's reason
   */
  public record Unreadable(SubjectFile file, boolean baselineSide, String reason) {}

  /** Every library of either side that cannot be read as ELF, the baseline's first. */
  private static List<Unreadable> unreadable(Subject baseline, Subject current) {
    List<Unreadable> result = new ArrayList<>();
    for (Subject side : List.of(baseline, current)) {
      for (SubjectFile library : side.libraries()) {
        try {
          side.elf(library);
        } catch (IOException e) {
          result.add(new Unreadable(library, side == baseline, e.getMessage()));
        }
      }
    }
    return result;
  }

  /**
   * The libraries both sides ship, both readable; one added is DIFF-FILES' to report, one unreadable
   * DIFF-READABLE's.
   */
  private static List<LibraryPair> libraries(Subject baseline, Subject current) {
    List<LibraryPair> result = new ArrayList<>();
    for (SubjectFile now : current.libraries()) {
      Optional<SubjectFile> old = baseline.file(now.path());
      Optional<ElfFile> a = old.flatMap(baseline::elfIfReadable);
      Optional<ElfFile> b = current.elfIfReadable(now);
      if (a.isPresent() && b.isPresent()) {
        result.add(new LibraryPair(now, a.get(), b.get(), old.get()));
      }
    }
    return result;
  }

  public long baselineSize() {
    return files().stream().mapToLong(FileChange::baselineSize).sum();
  }

  public long currentSize() {
    return files().stream().mapToLong(FileChange::size).sum();
  }

  /** The total size's growth in percent of the baseline's; infinite from an empty baseline to files. */
  public double growthPercent() {
    long before = baselineSize();
    long after = currentSize();
    return before == 0 ? (after == 0 ? 0 : Double.POSITIVE_INFINITY) : 100.0 * (after - before) / before;
  }
}
