package dev.tewheel.runtime.report;

import dev.tewheel.bundle.ncclep.NcclEpVersion;
import dev.tewheel.bundle.ncclep.NcclGate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A version of NCCL or of NCCL EP, MAJOR.MINOR.PATCH. {@link #fromCode(int)} reads NCCL's {@code ncclGetVersion}:
 * {@code NCCL_VERSION_CODE} is MAJOR*10000 + MINOR*100 + PATCH since NCCL 2.9, and MAJOR*1000 + MINOR*100 + PATCH
 * before (so 2708 is 2.7.8 and 23004 is 2.30.4). NCCL EP's versions ({@link
 * dev.tewheel.runtime.ncclep.NcclEp#version()},
 * {@link NcclEpCandidate#version()}) come from te-runtime, not from {@code fromCode}. A value an application may make
 * itself (e.g. for {@link dev.tewheel.runtime.TeRuntime.Builder#minimumNcclVersion}), so its constructor is public.
 */
public record NcclVersion(int major, int minor, int patch) implements Comparable<NcclVersion> {
  /** What NCCL EP needs at run time, as TE's EP backend requires: the bundle's {@link NcclGate} (2.30.4). */
  public static final NcclVersion EP_MINIMUM = fromCode(NcclGate.MINIMUM_CODE);

  // Compiled on the first parse (a configured version), not by every load: a cold Pattern costs classes.
  private static final class Text {
    static final Pattern PATTERN = Pattern.compile("(\\d{1,4})\\.(\\d{1,2})\\.(\\d{1,2})");
  }

  public NcclVersion {
    if (major < 0 || minor < 0 || patch < 0 || minor > 99 || patch > 99) {
      throw new IllegalArgumentException("not an NCCL version: " + major + "." + minor + "." + patch);
    }
  }

  /** From {@code ncclGetVersion}'s code. */
  public static NcclVersion fromCode(int code) {
    if (code <= 0) {
      throw new IllegalArgumentException("not an NCCL version code: " + code);
    }
    return code < 10000 ? new NcclVersion(code / 1000, code / 100 % 10, code % 100)
        : new NcclVersion(code / 10000, code / 100 % 100, code % 100);
  }

  /**
   * Parses {@code MAJOR.MINOR.PATCH}.
   *
   * @throws IllegalArgumentException for any other text
   */
  public static NcclVersion parse(String text) {
    Matcher m = Text.PATTERN.matcher(text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException("'" + text + "' is not an NCCL version MAJOR.MINOR.PATCH, e.g. 2.30.4");
    }
    return new NcclVersion(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
        Integer.parseInt(m.group(3)));
  }

  @Override
  public int compareTo(NcclVersion other) {
    return NcclEpVersion.compare(major, minor, patch, other.major, other.minor, other.patch);
  }

  @Override
  public String toString() {
    return major + "." + minor + "." + patch;
  }
}
