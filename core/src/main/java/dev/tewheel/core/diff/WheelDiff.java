package dev.tewheel.core.diff;

import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.gate.Gate;
import dev.tewheel.core.gate.GateReport;
import dev.tewheel.core.gate.ReportKind;
import dev.tewheel.core.gate.ReportWriter;
import dev.tewheel.core.verify.FolderSubject;
import dev.tewheel.core.verify.WheelSubject;
import dev.tewheel.core.zip.OverBoundException;
import dev.tewheel.core.zip.ZipBombBounds;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Compares a release's wheel_lib with the previous release's, as japicmp and revapi compare Java APIs: files
 * added, removed and changed; per library its SONAME, DT_NEEDED, exported symbols, GLIBC/GLIBCXX ceilings,
 * BIND_NOW and CUDA architectures; the total size against a growth budget. The {@link DiffRules} are judged by the
 * one {@link Gate}, so the report prints, writes its files and fails exactly as verify's does.
 */
public final class WheelDiff {
  /** Compares and writes the reports when a report folder is given. */
  public GateReport diff(DiffRequest request) throws IOException {
    List<Comparison.Refused> refused = new ArrayList<>();
    try (Side baseline = Side.open(request.baseline(), "baseline", request, refused);
        Side current = Side.open(request.current(), "current release", request, refused)) {
      // A side over the bounds is not read on, so neither is compared: only DIFF-INPUT says why.
      Comparison comparison = baseline.whole && current.whole
          ? Comparison.of(baseline.subject, current.subject, request.maxGrowthPercent(), refused)
          : Comparison.none(baseline.subject, current.subject, request.maxGrowthPercent(), refused);
      GateReport report;
      try {
        report = Gate.judge(ReportKind.DIFF, DiffRules.RULES, comparison, current.subject.description()
            + " against " + baseline.subject.description(), request.policy()).withDetails(DiffDetails.of(comparison));
      } catch (UncheckedIOException e) {
        throw e.getCause();
      }
      ReportWriter.write(report, request.reportDirectory(), request.projectBase());
      return report;
    }
  }

  /** One side of the comparison, open until closed (a wheel keeps its archive open). */
  private static final class Side implements Closeable {
    final Subject subject;
    /** False when the side is over the bounds: its subject is then empty, and nothing is compared. */
    final boolean whole;
    private final Closeable resource;

    private Side(Subject subject, boolean whole, Closeable resource) {
      this.subject = subject;
      this.whole = whole;
      this.resource = resource;
    }

    /**
     * Opens a side, adding to {@code refused} what of it is not compared: all of it when it is over the zip-bomb
     * bounds, each entry that is no regular file (never read, so a link out of the folder is not followed).
     */
    static Side open(Path path, String role, DiffRequest request, List<Comparison.Refused> refused)
        throws IOException {
      if (Files.isDirectory(path)) {
        Subject folder;
        try {
          folder = FolderSubject.read(path, request.layout(), CheckSettings.defaults());
        } catch (OverBoundException e) {
          refused.add(overBounds(path.toString(), role, List.of(e.problem())));
          return new Side(empty(path, role, request), false, null);
        }
        return new Side(regularFilesOnly(folder, path, role, refused), true, null);
      }
      if (!Files.isRegularFile(path)) {
        throw new IOException(path + " is neither a .whl nor a wheel_lib folder");
      }
      WheelSubject wheel;
      try {
        wheel = WheelSubject.open(path, request.wheelLibPath(), request.layout(), CheckSettings.defaults());
      } catch (OverBoundException e) {
        refused.add(overBounds(path.toString(), role, List.of(e.problem())));
        return new Side(empty(path, role, request), false, null);
      }
      List<ZipBombBounds.Problem> bombs = ZipBombBounds.DEFAULTS.problems(wheel.archive().entries());
      if (!bombs.isEmpty()) {
        refused.add(overBounds(path.toString(), role, bombs));
        return new Side(empty(path, role, request), false, wheel);
      }
      return new Side(wheel.subject(), true, wheel);
    }

    private static Comparison.Refused overBounds(String file, String role, List<ZipBombBounds.Problem> problems) {
      return new Comparison.Refused(file, "a " + role + " over the zip-bomb bounds: " + problems.stream()
          .map(p -> p.entry().map(e -> e + ": ").orElse("") + p.found() + ", beyond " + p.expected())
          .collect(Collectors.joining("; ")) + "; nothing was compared", "a wheel or wheel_lib within WHEEL-BOMB's"
          + " bounds (a wheel_lib holds a few dozen files)", "give the " + role + "'s .whl or its wheel_lib folder,"
          + " not a folder or archive around it");
    }

    /** A side of no files, named as the side would be: what a refused side is compared as. */
    private static Subject empty(Path path, String role, DiffRequest request) {
      return new Subject(role + " " + path + " (refused: DIFF-INPUT)", request.layout(), List.of(),
          CheckSettings.defaults());
    }

    /**
     * The folder's regular files; each other entry (a symbolic link, wherever it points; a FIFO, a device) is
     * refused with what it is, and never opened.
     */
    private static Subject regularFilesOnly(Subject folder, Path root, String role, List<Comparison.Refused> refused) {
      List<SubjectFile> regular = new ArrayList<>();
      for (SubjectFile file : folder.files()) {
        if (file.type() == SubjectFile.EntryType.FILE) {
          regular.add(file);
        } else {
          refused.add(new Comparison.Refused(file.origin(), describe(file, root), "a regular file inside the " + role
              + "'s folder (a wheel_lib as te:assemble-wheel-lib writes it holds no links)", "give the " + role
              + "'s wheel_lib as assembled, or its .whl; the entry was not compared"));
        }
      }
      if (regular.size() == folder.files().size()) {
        return folder;
      }
      Subject kept = new Subject(folder.description(), folder.layout(), regular, folder.settings());
      return folder.manifest().map(kept::withManifest).orElse(kept);
    }

    /** "a symbolic link to /x (outside the folder)", or what else it is. */
    private static String describe(SubjectFile file, Path root) {
      Path at = Path.of(file.origin());
      if (file.type() == SubjectFile.EntryType.SYMLINK) {
        try {
          Path target = Files.readSymbolicLink(at);
          Path resolved = at.toAbsolutePath().getParent().resolve(target).normalize();
          boolean inside = resolved.startsWith(root.toAbsolutePath().normalize())
              || resolved.startsWith(root.toRealPath());
          return "a symbolic link to " + target + (inside ? " (inside the folder; not followed either)"
              : ", outside the folder; not followed");
        } catch (IOException e) {
          return "a symbolic link (" + e.getMessage() + "); not followed";
        }
      }
      return "no regular file (a FIFO, socket or device); not opened";
    }

    @Override
    public void close() throws IOException {
      if (resource != null) {
        resource.close();
      }
    }
  }
}
