package dev.tewheel.plugin;

import dev.tewheel.core.goal.PrintedFindings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.project.MavenProject;

/**
 * What one goal leaves for the next goals of the same project's build, kept in the project's context values: the
 * findings printed so far (core's {@link PrintedFindings}) and the wheel_lib folders te:assemble-wheel-lib wrote.
 * Goals meet here rather than through each other's classes.
 */
final class BuildState {
  private static final String PRINTED_FINDINGS = "dev.tewheel.printed-findings";
  private static final String ASSEMBLED = "dev.tewheel.assembled-wheel-lib";

  private final MavenProject project;

  BuildState(MavenProject project) {
    this.project = project;
  }

  /** The findings printed in this project's build; a fresh one without a project (each goal alone). */
  synchronized PrintedFindings printedFindings() {
    if (project == null) {
      return new PrintedFindings();
    }
    if (project.getContextValue(PRINTED_FINDINGS) instanceof PrintedFindings printed) {
      return printed;
    }
    PrintedFindings printed = new PrintedFindings();
    project.setContextValue(PRINTED_FINDINGS, printed);
    return printed;
  }

  /** The wheel_lib folders assemble wrote in this build, absolute and normalised, oldest first. */
  @SuppressWarnings("unchecked")
  List<Path> assembled() {
    Object value = project == null ? null : project.getContextValue(ASSEMBLED);
    return value instanceof List<?> list ? (List<Path>) list : List.of();
  }

  /** Records a wheel_lib folder assemble wrote. */
  synchronized void assembled(Path folder) {
    if (project != null) {
      List<Path> written = new ArrayList<>(assembled());
      written.add(folder.toAbsolutePath().normalize());
      project.setContextValue(ASSEMBLED, List.copyOf(written));
    }
  }
}
