package dev.tewheel.core.check.headers;

import dev.tewheel.core.check.BaseCheck;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.headers.IncludeGraph;
import dev.tewheel.core.headers.UnresolvedInclude;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Every quoted include of every shipped header resolves, as NCCL EP's JIT resolves it, to a shipped header or to
 * one that comes from NCCL or CUDA: the bug of JIT headers missing from the wheel, caught before users hit it.
 */
public final class HeadersSelfContainedCheck extends BaseCheck {
  public HeadersSelfContainedCheck() {
    super("HEADERS-SELF-CONTAINED",
        "every quoted #include of a shipped header resolves to a shipped or an external header", Severity.ERROR);
  }

  @Override
  public List<Finding> run(Subject subject) {
    SortedMap<String, SubjectFile> headers = subject.headers();
    if (headers.isEmpty()) {
      return List.of();
    }
    Map<String, String> texts = new TreeMap<>();
    List<Finding> findings = new ArrayList<>();
    for (Map.Entry<String, SubjectFile> header : headers.entrySet()) {
      try {
        texts.put(header.getKey(), subject.text(header.getValue()));
      } catch (IOException e) {
        findings.add(finding(header.getValue().origin(), "an unreadable header (" + e.getMessage() + ")",
            "a readable text file", "ship the header NCCL EP's build installed"));
      }
    }
    String root = subject.layout().includeRoot() + "/";
    for (UnresolvedInclude missing : IncludeGraph.of(texts, subject.settings().includeSearchPath()).unresolved()) {
      SubjectFile file = headers.get(missing.file());
      findings.add(finding(file.origin(),
          "#include \"" + missing.name() + "\" that resolves nowhere (tried " + prefixed(root, missing.tried())
              + "; reached through " + missing.describeChain() + ")",
          "a header shipped under " + root + " or declared external",
          "ship " + missing.name() + " with NCCL EP's include/ tree (check headerIncludes/headerExcludes), or add it to"
              + " externalHeaders if NCCL or CUDA provides it").atLine(missing.line()));
    }
    return findings;
  }

  private static String prefixed(String root, List<String> paths) {
    return String.join(", ", paths.stream().map(p -> root + p).toList());
  }
}
