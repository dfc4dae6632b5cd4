package dev.tewheel.runtime;

import dev.tewheel.bundle.json.Json;
import dev.tewheel.bundle.ncclep.NcclEpCandidate;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The answer to "is NCCL EP available?", computed by exactly the rule {@link TeRuntime#load()} uses: available
 * means an accepted candidate exists, no other copy of its SONAME is already loaded from elsewhere, and the NCCL
 * gate passes; these are the conditions under which {@code load()} succeeds. A failed load carries this report
 * ({@link LoadException#availability()}).
 *
 * @param available whether {@code load()} would succeed
 * @param reason {@code "available"}, or the first condition that failed, for people
 * @param searched every step of the bundle search, in order
 * @param bundle the folder the search settled on (a wheel_lib, an extracted class-path bundle or NCCL_EP_HOME)
 * @param requiredMajor the NCCL EP SONAME major accepted
 * @param requiredMajorSource where that major came from: the manifest, the configuration, or the default
 * @param candidates every file the selection rule judged, with its verdict
 * @param chosen the accepted candidate {@code load()} loads
 * @param loadedElsewhere a library with the chosen SONAME that another component already loaded from another file
 * @param nccl the NCCL gate
 */
public record Availability(boolean available, String reason, List<SearchStep> searched, Optional<Path> bundle,
    int requiredMajor, String requiredMajorSource, List<NcclEpCandidate> candidates,
    Optional<NcclEpCandidate> chosen, Optional<Path> loadedElsewhere, NcclStatus nccl) {
  public Availability {
    Objects.requireNonNull(reason, "reason");
    searched = List.copyOf(searched);
    Objects.requireNonNull(bundle, "bundle");
    Objects.requireNonNull(requiredMajorSource, "requiredMajorSource");
    candidates = List.copyOf(candidates);
    Objects.requireNonNull(chosen, "chosen");
    Objects.requireNonNull(loadedElsewhere, "loadedElsewhere");
    Objects.requireNonNull(nccl, "nccl");
  }

  /** The chosen file, if any. */
  public Optional<Path> chosenFile() {
    return chosen.map(NcclEpCandidate::file);
  }

  /**
   * The report as a JSON object in key order: {@code available}, {@code reason}, {@code chosen} (path or null),
   * {@code candidates} ({@code [{path, accepted, reason}]}), {@code ncclVersion} (string or null),
   * {@code requiredMajor}, {@code searched} ({@code [{source, value, outcome}]}), then {@code bundle},
   * {@code requiredMajorSource}, {@code loadedElsewhere} and {@code nccl}.
   */
  public Map<String, Object> toJsonObject() {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("available", available);
    root.put("reason", reason);
    root.put("chosen", chosenFile().map(Path::toString).orElse(null));
    List<Object> list = new ArrayList<>();
    for (NcclEpCandidate candidate : candidates) {
      Map<String, Object> c = new LinkedHashMap<>();
      c.put("path", candidate.file().toString());
      c.put("accepted", candidate.accepted());
      c.put("reason", candidate.reason());
      c.put("soname", candidate.soname().orElse(null));
      c.put("version", candidate.version().map(Object::toString).orElse(null));
      list.add(c);
    }
    root.put("candidates", list);
    root.put("ncclVersion", nccl.version().map(Object::toString).orElse(null));
    root.put("requiredMajor", requiredMajor);
    List<Object> steps = new ArrayList<>();
    for (SearchStep step : searched) {
      Map<String, Object> s = new LinkedHashMap<>();
      s.put("source", step.source());
      s.put("value", step.value());
      s.put("outcome", step.outcome());
      steps.add(s);
    }
    root.put("searched", steps);
    root.put("bundle", bundle.map(Path::toString).orElse(null));
    root.put("requiredMajorSource", requiredMajorSource);
    root.put("loadedElsewhere", loadedElsewhere.map(Path::toString).orElse(null));
    Map<String, Object> gate = new LinkedHashMap<>();
    gate.put("library", nccl.library().map(Path::toString).orElse(null));
    gate.put("version", nccl.version().map(Object::toString).orElse(null));
    gate.put("minimum", nccl.minimum().toString());
    gate.put("ok", nccl.ok());
    gate.put("detail", nccl.detail());
    root.put("nccl", gate);
    return root;
  }

  /** {@link #toJsonObject()} as text. */
  public String toJson() {
    return Json.write(toJsonObject());
  }

  /** The report for people: the search, the candidates with their reasons, the NCCL gate, the verdict. */
  public String toText() {
    StringBuilder out = new StringBuilder();
    out.append("Searched, in order:\n");
    int width = searched.stream().mapToInt(s -> s.source().length()).max().orElse(0);
    for (int i = 0; i < searched.size(); i++) {
      SearchStep step = searched.get(i);
      out.append(String.format("  %d. %-" + width + "s  %s%s%n", i + 1, step.source(),
          step.value() == null ? "" : step.value() + ": ", step.outcome()));
    }
    out.append("Bundle: ").append(bundle.map(Path::toString).orElse("none")).append('\n');
    out.append("Required NCCL EP major: ").append(requiredMajor).append(" (").append(requiredMajorSource)
        .append(")\n");
    out.append("Candidates:").append(candidates.isEmpty() ? " none\n" : "\n");
    for (NcclEpCandidate candidate : candidates) {
      out.append(candidate.accepted() ? "  accepted  " : "  rejected  ").append(candidate.file()).append(": ")
          .append(candidate.reason()).append('\n');
    }
    loadedElsewhere.ifPresent(p -> out.append("Already loaded by another component from: ").append(p).append('\n'));
    out.append("NCCL: ").append(nccl.detail()).append('\n');
    out.append("Chosen: ").append(chosenFile().map(Path::toString).orElse("none")).append('\n');
    out.append("Available: ").append(available ? "yes" : "no, " + reason).append('\n');
    return out.toString();
  }
}
