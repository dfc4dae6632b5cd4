package dev.tewheel.core.assemble;

import dev.tewheel.bundle.manifest.Manifest;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.GateReport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What a run did.
 *
 * @param outputDirectory the wheel_lib written
 * @param manifest what it holds
 * @param copied files copied because they were new or changed
 * @param upToDate files kept because their source had not changed
 * @param removed files of the previous tree no longer produced
 * @param bytesCopied bytes of the copied files
 * @param verdict the gate's report on the planned tree: warnings and infos only (errors stop the run)
 * @param time the run's wall-clock time
 */
public record AssembleResult(Path outputDirectory, Manifest manifest, List<String> copied, List<String> upToDate,
    List<String> removed, long bytesCopied, GateReport verdict, Duration time) {
  /** The checks' warnings and infos. */
  public List<Finding> findings() {
    return verdict.findings();
  }

  /** The lines the goal logs: what is where, then one summary line; findings are logged apart, each at its level. */
  public List<String> report() {
    List<String> lines = new java.util.ArrayList<>();
    lines.add("wheel_lib: " + outputDirectory);
    for (dev.tewheel.bundle.manifest.ManifestEntry file : manifest.files()) {
      String extra = file.soname() == null ? "" : "  SONAME " + file.soname()
          + (file.version() == null ? "" : ", NCCL EP " + file.version());
      lines.add(String.format("  %-60s %,12d bytes%s", file.path(), file.size(), extra));
    }
    lines.add("  " + dev.tewheel.bundle.layout.Layout.MANIFEST + " (manifest, layout " + manifest.layout() + ")");
    lines.add(String.format("%d files: %d copied (%,d bytes), %d up to date, %d removed, in %d ms%s",
        manifest.files().size(), copied.size(), bytesCopied, upToDate.size(), removed.size(), time.toMillis(),
        nothingChanged() ? " (nothing to do)" : ""));
    return lines;
  }

  /** True when nothing was written at all. */
  public boolean nothingChanged() {
    return copied.isEmpty() && removed.isEmpty();
  }
}
