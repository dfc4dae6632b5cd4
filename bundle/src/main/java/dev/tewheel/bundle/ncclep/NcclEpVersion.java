package dev.tewheel.bundle.ncclep;

import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An NCCL EP version, MAJOR.MINOR.PATCH. The {@code #define NCCL_EP_MAJOR/MINOR/PATCH} lines of {@code nccl_ep.h}
 * are its single source of truth, as in NCCL EP's own build; {@code ncclEpGetVersion} reports
 * MAJOR*10000 + MINOR*100 + PATCH.
 */
public record NcclEpVersion(int major, int minor, int patch) implements Comparable<NcclEpVersion> {
  /** The header's name inside the include root. */
  public static final String HEADER = "nccl_ep.h";

  public NcclEpVersion {
    if (major < 0 || minor < 0 || patch < 0 || minor > 99 || patch > 99) {
      throw new IllegalArgumentException("not an NCCL EP version: " + major + "." + minor + "." + patch);
    }
  }

  /** From {@code ncclEpGetVersion}'s code, e.g. 100 is 0.1.0. */
  public static NcclEpVersion fromCode(int code) {
    if (code < 0) {
      throw new IllegalArgumentException("not an NCCL EP version code: " + code);
    }
    return new NcclEpVersion(code / 10000, code / 100 % 100, code % 100);
  }

  public int code() {
    return major * 10000 + minor * 100 + patch;
  }

  /**
   * Reads the version macros of {@code nccl_ep.h}.
   *
   * @throws IllegalArgumentException naming the missing macro
   */
  public static NcclEpVersion fromHeader(String text) {
    return new NcclEpVersion(macro(text, "MAJOR"), macro(text, "MINOR"), macro(text, "PATCH"));
  }

  /** Only NCCL_EP_MAJOR, when a header defines no more. */
  public static OptionalInt majorFromHeader(String text) {
    Matcher m = pattern("MAJOR").matcher(text);
    return m.find() ? OptionalInt.of(Integer.parseInt(m.group(1))) : OptionalInt.empty();
  }

  private static int macro(String text, String part) {
    Matcher m = pattern(part).matcher(text);
    if (!m.find()) {
      throw new IllegalArgumentException("no '#define NCCL_EP_" + part + " <number>' line");
    }
    return Integer.parseInt(m.group(1));
  }

  private static Pattern pattern(String part) {
    return Pattern.compile("^\\s*#\\s*define\\s+NCCL_EP_" + part + "\\s+\\(?\\s*(\\d{1,6})\\s*\\)?\\s*(?://.*|/\\*.*)?$",
        Pattern.MULTILINE);
  }

  @Override
  public int compareTo(NcclEpVersion other) {
    return compare(major, minor, patch, other.major, other.minor, other.patch);
  }

  /**
   * MAJOR.MINOR.PATCH order, for this type and te-runtime's NCCL version. By hand: {@code Comparator.comparingInt}'s
   * lambdas would be generated on te-runtime's cold first call.
   */
  public static int compare(int major, int minor, int patch, int otherMajor, int otherMinor, int otherPatch) {
    int c = Integer.compare(major, otherMajor);
    if (c == 0) {
      c = Integer.compare(minor, otherMinor);
    }
    return c != 0 ? c : Integer.compare(patch, otherPatch);
  }

  @Override
  public String toString() {
    return major + "." + minor + "." + patch;
  }
}
