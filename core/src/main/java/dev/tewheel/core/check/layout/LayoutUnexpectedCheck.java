package dev.tewheel.core.check.layout;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.core.check.BaseCheck;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import java.util.ArrayList;
import java.util.List;

/** Nothing sits in wheel_lib beside what the layout places there: strays are build leftovers or mistakes. */
public final class LayoutUnexpectedCheck extends BaseCheck {
  public LayoutUnexpectedCheck() {
    super("LAYOUT-UNEXPECTED",
        "wheel_lib holds nothing beside the layout's files, the include tree and the manifest", Severity.WARNING);
  }

  @Override
  public List<Finding> run(Subject subject) {
    Layout layout = subject.layout();
    String includePrefix = layout.includeRoot() + "/";
    List<Finding> findings = new ArrayList<>();
    String ep = subject.ncclEpLibrary().map(SubjectFile::path).orElse(null);
    for (SubjectFile file : subject.files()) {
      String path = file.path();
      boolean expected = path.equals(layout.transformerEngineLibrary()) || path.equals(ep)
          || path.startsWith(includePrefix) || path.equals(Layout.MANIFEST);
      if (!expected) {
        findings.add(finding(file.origin(), "an unexpected file " + path, "only the files layout " + layout.name()
            + " places (" + layout.transformerEngineLibrary() + ", " + layout.ncclEpLibrary() + ", " + includePrefix
            + "…, " + Layout.MANIFEST + ")", "remove it from the build's output, or assemble with a layout that"
            + " places it"));
      }
    }
    return findings;
  }
}
