package dev.tewheel.core.check;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** No two shipped files have the same bytes: the mark of a symlink chain copied once per link. */
final class DuplicateContentCheck implements Check {
  @Override
  public String id() {
    return "DUPLICATE-CONTENT";
  }

  @Override
  public String title() {
    return "no two shipped files have the same content";
  }

  @Override
  public Severity defaultSeverity() {
    return Severity.ERROR;
  }

  @Override
  public List<Finding> run(Subject subject) {
    Map<String, SubjectFile> seen = new HashMap<>();
    List<Finding> findings = new ArrayList<>();
    for (SubjectFile file : subject.files()) {
      try {
        if (file.type() != SubjectFile.EntryType.FILE || file.size() == 0) {
          continue;
        }
        String key = file.size() + ":" + subject.sha256(file);
        SubjectFile first = seen.putIfAbsent(key, file);
        if (first != null) {
          findings.add(finding(file.origin(), "the same " + file.size() + " bytes as " + first.path(),
              "each file shipped once", "ship one real file per library (resolve the symlink chain: libnccl_ep.so"
                  + " -> libnccl_ep.so.M -> libnccl_ep.so.M.m.p is one file), remove the copy"));
        }
      } catch (IOException e) {
        findings.add(finding(file.origin(), "an unreadable file (" + e.getMessage() + ")", "a readable file",
            "rebuild the wheel"));
      }
    }
    return findings;
  }
}
