package dev.tewheel.bundle.cuda;

import dev.tewheel.bundle.layout.BundleFiles;
import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.bundle.manifest.Manifest;
import dev.tewheel.bundle.manifest.ManifestEntry;
import dev.tewheel.bundle.manifest.ManifestException;
import dev.tewheel.elf.ByteSource;
import dev.tewheel.elf.ElfFile;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A bundle's CUDA variant, the CUDA major it was built for: as a person or a jar manifest writes it ({@code 13} or
 * {@code cu13}), else the one CUDA major of the CUDA libraries its TE library NEEDS ({@link CudaSonames}).
 *
 * @param major the CUDA major, when known
 * @param source where it came from, or why it is unknown, for people
 */
public record CudaVariant(Optional<Integer> major, String source) {
  private static final Pattern TEXT = Pattern.compile("(?:cu)?([1-9][0-9]{0,3})");
  /** The TE library is read whole only when nothing else says the variant; larger ones stay unknown. */
  private static final long MAX_ELF_BYTES = Integer.MAX_VALUE - 16;

  /** {@code 13} or {@code cu13} (blanks around it ignored) as 13; empty for anything else. */
  public static Optional<Integer> parse(String text) {
    Matcher m = TEXT.matcher(text.strip());
    return m.matches() ? Optional.of(Integer.parseInt(m.group(1))) : Optional.empty();
  }

  /**
   * The variant of the bundle whose files {@code files} opens: {@code written} (a jar manifest's
   * {@link Layout#CUDA_MAJOR_ATTRIBUTE}, named by {@code writtenSource}) when it is one, else the CUDA SONAME major
   * its TE library NEEDS; {@code where} names the bundle.
   */
  public static CudaVariant of(String where, BundleFiles files, String written, String writtenSource) {
    Optional<Integer> parsed = written == null ? Optional.empty() : parse(written);
    if (parsed.isPresent()) {
      return new CudaVariant(parsed, writtenSource);
    }
    try {
      Manifest manifest;
      try (InputStream in = files.open(Layout.MANIFEST)) {
        if (in == null) {
          return unknown("no " + Layout.MANIFEST);
        }
        manifest = Manifest.read(in, where + "!" + Layout.MANIFEST);
      }
      Optional<ManifestEntry> te = manifest.transformerEngineLibrary();
      if (te.isEmpty()) {
        return unknown("no TE library listed");
      }
      if (te.get().size() > MAX_ELF_BYTES) {
        return unknown("its TE library is too large to read for its DT_NEEDED");
      }
      String path = te.get().path();
      byte[] bytes;
      try (InputStream in = files.open(path)) {
        if (in == null) {
          return unknown(path + " missing");
        }
        bytes = in.readNBytes((int) te.get().size());
      }
      TreeSet<Integer> majors = new TreeSet<>();
      String needs = null;
      for (String needed : ElfFile.read(ByteSource.of(bytes, path)).needed()) {
        Optional<CudaSonames.CudaNeeded> cuda = CudaSonames.parse(needed);
        if (cuda.isPresent() && cuda.get().cudaMajor().isPresent()) {
          majors.add(cuda.get().cudaMajor().getAsInt());
          needs = needed;
        }
      }
      if (majors.size() == 1) {
        return new CudaVariant(Optional.of(majors.first()), path + " NEEDS " + needs);
      }
      return unknown(majors.isEmpty() ? "no " + Layout.CUDA_MAJOR_ATTRIBUTE + " and " + path + " NEEDS no CUDA library"
          : path + " NEEDS CUDA libraries of majors " + majors);
    } catch (IOException | ManifestException e) {
      return unknown("unreadable: " + e.getMessage());
    }
  }

  private static CudaVariant unknown(String why) {
    return new CudaVariant(Optional.empty(), why);
  }
}
