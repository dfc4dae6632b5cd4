package dev.tewheel.core.check.floor;

import dev.tewheel.bundle.ncclep.NcclGate;
import dev.tewheel.core.wheel.WheelName;
import dev.tewheel.elf.ByteSource;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.SectionHeader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The release of a floor libnccl.so.2, from facts about the file, in this order: the text {@code NCCL version X.Y.Z}
 * that NCCL keeps in its .rodata (the only fact pip's {@code nvidia/nccl/lib/libnccl.so.2} carries), the file name
 * NCCL's own install gives it ({@code libnccl.so.X.Y.Z}), the version of the nvidia-nccl wheel holding it.
 *
 * @param code NCCL_VERSION_CODE, e.g. 22105
 * @param text e.g. "2.21.5"
 */
public record NcclRelease(int code, String text) {
  private static final Pattern IN_RODATA = Pattern.compile("NCCL version (\\d{1,2})\\.(\\d{1,2})\\.(\\d{1,2})");
  private static final Pattern IN_FILE_NAME = Pattern.compile("libnccl\\.so\\.(\\d{1,2})\\.(\\d{1,2})\\.(\\d{1,2})");
  private static final Pattern IN_WHEEL_VERSION = Pattern.compile("(\\d{1,2})\\.(\\d{1,2})\\.(\\d{1,2})(?:\\D.*)?");
  /** .rodata is read this much at a time; consecutive reads overlap by more than the text's length. */
  private static final int CHUNK = 1 << 20;
  private static final int OVERLAP = 64;
  /** Real NCCL's .rodata is a few MB; a larger one is not searched further. */
  private static final long MAX_RODATA = 256L << 20;

  /** Whether NCCL EP is loaded on this NCCL at all (see {@link NcclGate}). */
  public boolean passesGate() {
    return code >= NcclGate.MINIMUM_CODE;
  }

  /**
   * What the file says of its release; empty when none of the three facts is there.
   *
   * @param wheel the file name of the .whl holding it, or null
   */
  public static Optional<NcclRelease> of(ByteSource source, ElfFile elf, String fileName, String wheel) throws IOException {
    Optional<NcclRelease> release = fromRodata(source, elf);
    if (release.isEmpty()) {
      Matcher m = IN_FILE_NAME.matcher(fileName);
      release = m.matches() ? Optional.of(release(m)) : Optional.empty();
    }
    if (release.isEmpty() && wheel != null) {
      try {
        WheelName name = WheelName.parse(wheel);
        if (name.distribution().toLowerCase(java.util.Locale.ROOT).contains("nccl")) {
          Matcher m = IN_WHEEL_VERSION.matcher(name.version());
          release = m.matches() ? Optional.of(release(m)) : Optional.empty();
        }
      } catch (IllegalArgumentException e) {
        // not a wheel's name: it says nothing of the release
      }
    }
    return release;
  }

  private static Optional<NcclRelease> fromRodata(ByteSource source, ElfFile elf) throws IOException {
    for (SectionHeader section : elf.sectionHeaders()) {
      if (!section.name().equals(".rodata") || section.type() == SectionHeader.SHT_NOBITS
          || section.offset() < 0 || section.offset() >= source.size()) {
        continue;
      }
      long end = section.offset() + Math.min(Math.min(section.size(), MAX_RODATA), source.size() - section.offset());
      for (long at = section.offset(); at < end; at += CHUNK - OVERLAP) {
        int length = (int) Math.min(CHUNK, end - at);
        ByteBuffer buffer = source.read(at, length);
        byte[] bytes = new byte[length];
        buffer.get(bytes);
        Matcher m = IN_RODATA.matcher(new String(bytes, StandardCharsets.ISO_8859_1));
        if (m.find()) {
          return Optional.of(release(m));
        }
        if (at + length >= end) {
          break;
        }
      }
    }
    return Optional.empty();
  }

  /** The release a matcher of one of the patterns above has matched. */
  private static NcclRelease release(Matcher m) {
    int major = Integer.parseInt(m.group(1));
    int minor = Integer.parseInt(m.group(2));
    int patch = Integer.parseInt(m.group(3));
    return new NcclRelease(NcclGate.code(major, minor, patch), major + "." + minor + "." + patch);
  }

  @Override
  public String toString() {
    return text;
  }
}
