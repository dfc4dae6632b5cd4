package dev.tewheel.core.doctor;

import dev.tewheel.json.Json;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Doctor's answer: would {@code import transformer_engine} work here, what it found, and the environment it looked
 * at. One model for the text (people) and the JSON (CI; docs/schema/doctor.schema.json).
 *
 * @param verdict the answer
 * @param reason why doctor could not tell (UNKNOWN), else empty
 * @param environment the environment looked at
 * @param environmentVariables the variables that decide loading, as set (unset ones left out)
 * @param distributions the distributions installed there
 * @param loads the loads TE's import performs, in order, as far as the replay went
 * @param nccl the libnccl.so.2 that binds, when TE's import maps one or TE ships NCCL EP
 * @param ncclEp NCCL EP's availability, when TE ships NCCL EP (or NCCL_EP_HOME names one)
 * @param findings what was found, errors first
 */
public record DoctorReport(Verdict verdict, Optional<String> reason, PythonEnvironment environment,
    Map<String, String> environmentVariables, List<Distribution> distributions, List<Load> loads,
    Optional<Nccl> nccl, Optional<NcclEp> ncclEp, List<Finding> findings) {
  /**
   * One load of TE's import.
   *
   * @param stage TE's step ({@code cudnn}, {@code core}, {@code extension}, ...)
   * @param file the file opened
   * @param mode its dlopen flags ({@code RTLD_GLOBAL | RTLD_NOW})
   * @param foundBy how TE's search found it
   * @param distribution the distribution that installed the file, from its RECORD; empty when none did
   */
  public record Load(String stage, Path file, String mode, String foundBy, Optional<String> distribution) {}

  /**
   * The libnccl.so.2 that binds after TE's import.
   *
   * @param file the file
   * @param how why that one ({@code mapped by TE's import}, or glibc's search step)
   * @param release the NCCL release its file says it is
   * @param distribution the distribution that installed it, if any
   */
  public record Nccl(Path file, String how, Optional<dev.tewheel.core.check.floor.NcclRelease> release,
      Optional<String> distribution) {}

  /**
   * NCCL EP's availability by TE's provider rule.
   *
   * @param available whether the provider's library, NCCL, the JIT's headers and nvcc are all there
   * @param library the NCCL EP library TE's provider opens and the selection rule accepts, if any
   * @param major the NCCL EP major TE's provider accepts
   * @param headers the JIT's kernel headers' folder, when it has them
   * @param nvcc the nvcc the JIT would run, if any (never run by doctor)
   */
  public record NcclEp(boolean available, Optional<Path> library, int major, Optional<Path> headers,
      Optional<Path> nvcc) {}

  /** The JSON report's kind and format version (docs/schema/doctor.schema.json). */
  public static final String SCHEMA = "te-wheel-doctor-report/1";

  /** Would the import work; each with te-wheel's exit status. */
  public enum Verdict {
    WORKS(0, "import transformer_engine would work"),
    FAILS(1, "import transformer_engine would fail"),
    UNKNOWN(2, "could not tell whether import transformer_engine would work");

    private final int exitStatus;
    private final String text;

    Verdict(int exitStatus, String text) {
      this.exitStatus = exitStatus;
      this.text = text;
    }

    public int exitStatus() {
      return exitStatus;
    }
  }

  public DoctorReport {
    environmentVariables = Map.copyOf(environmentVariables);
    distributions = List.copyOf(distributions);
    loads = List.copyOf(loads);
    findings = List.copyOf(findings);
  }

  public long count(Finding.Severity severity) {
    return findings.stream().filter(f -> f.severity() == severity).count();
  }

  private String count(Finding.Severity severity, String noun) {
    long n = count(severity);
    return n + " " + noun + (n == 1 ? "" : "s");
  }

  /** The text for people, one line each (not yet escaped: the printer escapes every line). */
  public List<String> lines() {
    List<String> lines = new ArrayList<>();
    PythonEnvironment env = environment;
    lines.add("python: " + env.interpreter().map(p -> p + " (" + env.version().orElse("?") + ", "
        + env.platform().orElse("?") + ")").orElse("none asked (--site-packages)"));
    lines.add("site-packages: " + String.join(", ", env.searchFolders().stream().map(Path::toString).toList())
        + "; purelib " + env.purelib());
    lines.add("distributions: " + distributions.size() + (distributions.isEmpty() ? "" : " ("
        + String.join(", ", distributions.stream().map(Distribution::label).toList()) + ")"));
    for (Load load : loads) {
      lines.add("load " + load.stage() + ": " + load.file() + " (" + load.mode() + "; " + load.foundBy()
          + load.distribution().map(d -> "; from " + d).orElse("") + ")");
    }
    nccl.ifPresent(n -> lines.add("nccl: " + n.file() + " (" + n.how() + n.release().map(r -> "; NCCL " + r.text())
        .orElse("; release unknown") + n.distribution().map(d -> "; from " + d).orElse("") + ")"));
    ncclEp.ifPresent(ep -> lines.add("nccl ep: " + (ep.available() ? "available: " + ep.library().orElseThrow()
        + " (libnccl_ep.so." + ep.major() + "), JIT headers " + ep.headers().orElseThrow() + ", nvcc "
        + ep.nvcc().orElseThrow() : "unavailable (the DOCTOR-NCCL-EP warnings say why)")));
    for (Finding f : findings) {
      StringBuilder line = new StringBuilder(f.severity().name().toLowerCase(java.util.Locale.ROOT)).append(' ')
          .append(f.id()).append(": ");
      f.library().ifPresent(l -> line.append(l).append(' '));
      if (f.file().isPresent() || f.distribution().isPresent()) {
        line.append('(').append(f.file().map(Path::toString).orElse(""))
            .append(f.file().isPresent() && f.distribution().isPresent() ? ", " : "")
            .append(f.distribution().map(d -> "from " + d).orElse("")).append(") ");
      }
      line.append(f.message());
      lines.add(line.toString());
      f.fix().ifPresent(fix -> lines.add("  fix: " + fix));
    }
    lines.add(verdict.text + " (" + count(Finding.Severity.ERROR, "error") + ", "
        + count(Finding.Severity.WARNING, "warning") + ")" + reason.map(r -> ": " + r).orElse(""));
    return lines;
  }

  /** The JSON report. */
  public String json() {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("schema", SCHEMA);
    out.put("verdict", verdict.name().toLowerCase(java.util.Locale.ROOT));
    out.put("exitStatus", (long) verdict.exitStatus);
    reason.ifPresent(r -> out.put("reason", r));
    Map<String, Object> python = new LinkedHashMap<>();
    environment.interpreter().ifPresent(p -> python.put("interpreter", p.toString()));
    environment.version().ifPresent(v -> python.put("version", v));
    environment.prefix().ifPresent(p -> python.put("prefix", p.toString()));
    environment.platform().ifPresent(p -> python.put("platform", p));
    environment.extensionSuffix().ifPresent(s -> python.put("extensionSuffix", s));
    python.put("sitePackages", environment.searchFolders().stream().map(Path::toString).toList());
    python.put("purelib", environment.purelib().toString());
    out.put("python", python);
    out.put("environment", new java.util.TreeMap<>(environmentVariables));
    List<Object> dists = new ArrayList<>();
    for (Distribution d : distributions) {
      dists.add(Json.object("name", d.name(), "version", d.version(), "distInfo", d.distInfo().toString()));
    }
    out.put("distributions", dists);
    List<Object> loadList = new ArrayList<>();
    for (Load load : loads) {
      Map<String, Object> l = Json.object("stage", load.stage(), "file", load.file().toString(), "mode", load.mode(),
          "foundBy", load.foundBy());
      load.distribution().ifPresent(d -> l.put("distribution", d));
      loadList.add(l);
    }
    out.put("loads", loadList);
    nccl.ifPresent(n -> {
      Map<String, Object> o = Json.object("file", n.file().toString(), "how", n.how());
      n.release().ifPresent(r -> o.put("release", r.text()));
      n.distribution().ifPresent(d -> o.put("distribution", d));
      out.put("nccl", o);
    });
    ncclEp.ifPresent(ep -> {
      Map<String, Object> o = Json.object("available", ep.available(), "major", (long) ep.major());
      ep.library().ifPresent(l -> o.put("library", l.toString()));
      ep.headers().ifPresent(h -> o.put("headers", h.toString()));
      ep.nvcc().ifPresent(n -> o.put("nvcc", n.toString()));
      out.put("ncclEp", o);
    });
    out.put("findings", findings.stream().map(f -> (Object) f.json()).toList());
    return Json.write(out);
  }
}
