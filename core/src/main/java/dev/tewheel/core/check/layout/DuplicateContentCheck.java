package dev.tewheel.core.check.layout;

import dev.tewheel.core.check.BaseCheck;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** No two shipped files have the same bytes: the mark of a symlink chain copied once per link. */
public final class DuplicateContentCheck extends BaseCheck {
  public DuplicateContentCheck() {
    super("DUPLICATE-CONTENT",
        "no two shipped files have the same content", Severity.ERROR);
  }

  @Override
  public List<Finding> run(Subject subject) {
    // Only files of equal size can be equal: hash those alone, so a tree of unique sizes costs no reading.
    Map<Long, List<SubjectFile>> bySize = new java.util.TreeMap<>();
    List<Finding> findings = new ArrayList<>();
    for (SubjectFile file : subject.files()) {
      try {
        if (file.type() == SubjectFile.EntryType.FILE && file.size() > 0) {
          bySize.computeIfAbsent(file.size(), size -> new ArrayList<>()).add(file);
        }
      } catch (IOException e) {
        findings.add(unreadable(file, e));
      }
    }
    for (List<SubjectFile> sameSize : bySize.values()) {
      if (sameSize.size() < 2) {
        continue;
      }
      Map<String, SubjectFile> seen = new HashMap<>();
      for (SubjectFile file : sameSize) {
        try {
          SubjectFile first = seen.putIfAbsent(subject.sha256(file), file);
          if (first != null) {
            findings.add(finding(file.origin(), "the same " + file.size() + " bytes as " + first.path(),
                "each file shipped once", "ship one real file per library (resolve the symlink chain: libnccl_ep.so"
                    + " -> libnccl_ep.so.M -> libnccl_ep.so.M.m.p is one file), remove the copy"));
          }
        } catch (IOException e) {
          findings.add(unreadable(file, e));
        }
      }
    }
    return findings;
  }

  private Finding unreadable(SubjectFile file, IOException e) {
    return finding(file.origin(), "an unreadable file (" + e.getMessage() + ")", "a readable file", "rebuild the wheel");
  }
}
