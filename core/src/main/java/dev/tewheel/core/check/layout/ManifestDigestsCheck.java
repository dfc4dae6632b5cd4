package dev.tewheel.core.check.layout;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.bundle.manifest.Manifest;
import dev.tewheel.bundle.manifest.ManifestEntry;
import dev.tewheel.bundle.manifest.ManifestException;
import dev.tewheel.bundle.manifest.ManifestFiles;
import dev.tewheel.core.check.BaseCheck;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * When wheel_lib carries a manifest, it is readable (at most {@link Manifest#MAX_BYTES}, every path inside wheel_lib)
 * and every file it records is there with its size and sha256.
 */
public final class ManifestDigestsCheck extends BaseCheck {
  public ManifestDigestsCheck() {
    super("MANIFEST-DIGESTS",
        "the manifest is valid and every recorded file has its recorded size and sha256", Severity.ERROR);
  }

  @Override
  public List<Finding> run(Subject subject) {
    Optional<SubjectFile> file = subject.file(Layout.MANIFEST);
    if (file.isEmpty()) {
      return List.of();
    }
    Manifest manifest;
    // The runtime's reader: bounded, and every path confined to wheel_lib, so what the runtime refuses fails here.
    try (InputStream in = file.get().stream()) {
      manifest = Manifest.read(in, file.get().origin());
    } catch (IOException | ManifestException e) {
      return List.of(finding(file.get().origin(), "a manifest that cannot be read: " + e.getMessage(),
          "a te-wheel-lib/1 manifest", "assemble wheel_lib again with te:assemble-wheel-lib"));
    }
    List<Finding> findings = new ArrayList<>();
    String fix = "assemble wheel_lib again: a file changed after te:assemble-wheel-lib wrote it";
    ManifestFiles.Lookup shipped = entry -> subject.file(entry.path()).map(f -> new ManifestFiles.Shipped() {
      @Override
      public long size() throws IOException {
        return f.size();
      }

      @Override
      public String sha256() throws IOException {
        return subject.sha256(f);
      }
    });
    for (ManifestFiles.Mismatch m : ManifestFiles.compare(manifest.files(), shipped, true)) {
      ManifestEntry entry = m.entry();
      String origin = subject.file(entry.path()).map(SubjectFile::origin)
          .orElse(subject.description() + "/" + entry.path());
      findings.add(switch (m.problem()) {
        case MISSING -> finding(origin, "no such file", "the file the manifest records (" + entry.size() + " bytes)",
            fix);
        case UNREADABLE -> finding(origin, "an unreadable file (" + m.actual() + ")", "the recorded bytes", fix);
        case SIZE -> finding(origin, m.actual() + " bytes", entry.size() + " bytes as recorded", fix);
        case SHA256 -> finding(origin, "sha256 " + m.actual(), "sha256 " + entry.sha256() + " as recorded", fix);
      });
    }
    return findings;
  }
}
