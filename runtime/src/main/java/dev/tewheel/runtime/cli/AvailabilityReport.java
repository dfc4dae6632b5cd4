package dev.tewheel.runtime.cli;

import dev.tewheel.bundle.ncclep.NcclEpCandidate;
import dev.tewheel.runtime.Availability;
import dev.tewheel.runtime.Dependency;
import dev.tewheel.runtime.NcclStatus;
import dev.tewheel.runtime.SearchStep;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The CLI's renderings of an {@link Availability}: text for people, a JSON object for tools. */
final class AvailabilityReport {
  private AvailabilityReport() {}

  /**
   * The report as a JSON object in key order: {@code available}, {@code reason}, {@code chosen} (path or null),
   * {@code candidates} ({@code [{path, accepted, reason, soname, version}]}), {@code ncclVersion} (string or null),
   * {@code requiredMajor}, {@code searched} ({@code [{source, value, outcome}]}), then {@code bundle},
   * {@code requiredMajorSource}, {@code loadedElsewhere}, {@code dependencies} ({@code [{name, neededBy, file,
   * foundBy}]}) and {@code nccl} ({@code {library, source, version, minimum, ok, detail}}).
   */
  static Map<String, Object> json(Availability availability) {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("available", availability.available());
    root.put("reason", availability.reason());
    root.put("chosen", availability.chosenFile().map(Path::toString).orElse(null));
    List<Object> list = new ArrayList<>();
    for (NcclEpCandidate candidate : availability.candidates()) {
      Map<String, Object> c = new LinkedHashMap<>();
      c.put("path", candidate.file().toString());
      c.put("accepted", candidate.accepted());
      c.put("reason", candidate.reason());
      c.put("soname", candidate.soname().orElse(null));
      c.put("version", candidate.version().map(Object::toString).orElse(null));
      list.add(c);
    }
    root.put("candidates", list);
    NcclStatus nccl = availability.nccl();
    root.put("ncclVersion", nccl.version().map(Object::toString).orElse(null));
    root.put("requiredMajor", availability.requiredMajor());
    List<Object> steps = new ArrayList<>();
    for (SearchStep step : availability.searched()) {
      Map<String, Object> s = new LinkedHashMap<>();
      s.put("source", step.source());
      s.put("value", step.value());
      s.put("outcome", step.outcome());
      steps.add(s);
    }
    root.put("searched", steps);
    root.put("bundle", availability.bundle().map(Path::toString).orElse(null));
    root.put("requiredMajorSource", availability.requiredMajorSource());
    root.put("loadedElsewhere", availability.loadedElsewhere().map(Path::toString).orElse(null));
    List<Object> needed = new ArrayList<>();
    for (Dependency dependency : availability.dependencies()) {
      Map<String, Object> d = new LinkedHashMap<>();
      d.put("name", dependency.name());
      d.put("neededBy", dependency.neededBy());
      d.put("file", dependency.file().map(Path::toString).orElse(null));
      d.put("foundBy", dependency.foundBy());
      d.put("missingVersions", dependency.missingVersions());
      needed.add(d);
    }
    root.put("dependencies", needed);
    Map<String, Object> gate = new LinkedHashMap<>();
    gate.put("library", nccl.library().map(Path::toString).orElse(null));
    gate.put("source", nccl.source().name());
    gate.put("version", nccl.version().map(Object::toString).orElse(null));
    gate.put("minimum", nccl.minimum().toString());
    gate.put("ok", nccl.ok());
    gate.put("detail", nccl.detail());
    root.put("nccl", gate);
    return root;
  }

  /** The report for people: the search, the candidates with their reasons, dependencies, the NCCL gate, the verdict. */
  static String text(Availability availability) {
    StringBuilder out = new StringBuilder();
    List<SearchStep> searched = availability.searched();
    out.append("Searched, in order:\n");
    int width = searched.stream().mapToInt(s -> s.source().length()).max().orElse(0);
    for (int i = 0; i < searched.size(); i++) {
      SearchStep step = searched.get(i);
      out.append(String.format("  %d. %-" + width + "s  %s%s%n", i + 1, step.source(),
          step.value() == null ? "" : step.value() + ": ", step.outcome()));
    }
    out.append("Bundle: ").append(availability.bundle().map(Path::toString).orElse("none")).append('\n');
    out.append("Required NCCL EP major: ").append(availability.requiredMajor()).append(" (")
        .append(availability.requiredMajorSource()).append(")\n");
    out.append("Candidates:").append(availability.candidates().isEmpty() ? " none\n" : "\n");
    for (NcclEpCandidate candidate : availability.candidates()) {
      out.append(candidate.accepted() ? "  accepted  " : "  rejected  ").append(candidate.file()).append(": ")
          .append(candidate.reason()).append('\n');
    }
    availability.loadedElsewhere()
        .ifPresent(p -> out.append("Already loaded by another component from: ").append(p).append('\n'));
    if (!availability.dependencies().isEmpty()) {
      out.append("Needed by the chosen library:\n");
      for (Dependency d : availability.dependencies()) {
        out.append("  ").append(d.name()).append(": ")
            .append(d.file().map(f -> f + " (" + d.foundBy() + ")").orElse("NOT FOUND"))
            .append(d.missingVersions().isEmpty() ? "" : ", LACKS " + String.join(", ", d.missingVersions()))
            .append('\n');
      }
    }
    out.append("NCCL: ").append(availability.nccl().detail()).append('\n');
    out.append("Chosen: ").append(availability.chosenFile().map(Path::toString).orElse("none")).append('\n');
    out.append("Available: ").append(availability.available() ? "yes" : "no, " + availability.reason()).append('\n');
    return out.toString();
  }
}
