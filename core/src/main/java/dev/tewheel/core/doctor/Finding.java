package dev.tewheel.core.doctor;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One thing doctor found about the environment: what, where it comes from (the library, its file, the distribution
 * and version that installed it) and the one command or setting that fixes it.
 *
 * @param id the finding's kind, stable for CI ({@code DOCTOR-LOAD}, ...; docs/doctor.md lists them)
 * @param severity ERROR: the import fails; WARNING: it works, but something will fail later or may change;
 *     INFO: worth knowing
 * @param message what was found and what was expected
 * @param library the library's name as loaded ({@code libcublasLt.so.13}), if the finding is about one
 * @param file the file, if any
 * @param distribution the distribution that installed the file ({@code nvidia-cublas==13.0.0.19}), if known
 * @param fix one command or setting that fixes it
 */
public record Finding(String id, Severity severity, String message, Optional<String> library, Optional<Path> file,
    Optional<String> distribution, Optional<String> fix) {
  /** How bad a finding is for the import. */
  public enum Severity { ERROR, WARNING, INFO }

  public static Finding of(String id, Severity severity, String message, String fix) {
    return new Finding(id, severity, message, Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.ofNullable(fix));
  }

  /** The same finding about a file and the distribution that installed it. */
  public Finding about(String library, Path file, Optional<String> distribution) {
    return new Finding(id, severity, message, Optional.ofNullable(library), Optional.ofNullable(file), distribution,
        fix);
  }

  Map<String, Object> json() {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("id", id);
    out.put("severity", severity.name().toLowerCase(java.util.Locale.ROOT));
    out.put("message", message);
    library.ifPresent(l -> out.put("library", l));
    file.ifPresent(f -> out.put("file", f.toString()));
    distribution.ifPresent(d -> out.put("distribution", d));
    fix.ifPresent(f -> out.put("fix", f));
    return out;
  }
}
