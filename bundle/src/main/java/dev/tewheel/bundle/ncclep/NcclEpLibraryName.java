package dev.tewheel.bundle.ncclep;

import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The file names NCCL EP's library goes by: {@code libnccl_ep.so}, {@code libnccl_ep.so.<N>} (its SONAME) and
 * {@code libnccl_ep.so.<N>.<m>.<p>} (the real file its build writes).
 *
 * @param fileName the name itself
 * @param major N, when the name carries it
 * @param version N.m.p, when the name carries all three
 */
public record NcclEpLibraryName(String fileName, OptionalInt major, Optional<NcclEpVersion> version) {
  public static final String BASE = "libnccl_ep.so";

  private static final Pattern FORM = Pattern.compile("libnccl_ep\\.so(?:\\.(\\d{1,6})(?:\\.(\\d{1,2})\\.(\\d{1,2}))?)?");

  /** The name's parts, or empty when it is none of the three forms. */
  public static Optional<NcclEpLibraryName> parse(String fileName) {
    Matcher m = FORM.matcher(fileName);
    if (!m.matches()) {
      return Optional.empty();
    }
    OptionalInt major = m.group(1) == null ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(m.group(1)));
    Optional<NcclEpVersion> version = m.group(2) == null ? Optional.empty()
        : Optional.of(new NcclEpVersion(major.getAsInt(), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3))));
    return Optional.of(new NcclEpLibraryName(fileName, major, version));
  }

  /** The SONAME a library of this major must carry: {@code libnccl_ep.so.<major>}. */
  public static String soname(int major) {
    return BASE + "." + major;
  }

  /** N of a SONAME {@code libnccl_ep.so.<N>}, or empty for any other SONAME. */
  public static OptionalInt sonameMajor(String soname) {
    Optional<NcclEpLibraryName> name = parse(soname);
    return name.isPresent() && name.get().version.isEmpty() ? name.get().major : OptionalInt.empty();
  }
}
