package dev.tewheel.core.policy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The platform tags the libraries are held to, every one of them: pip installs a wheel on any system that supports
 * any one of its tags, so a compressed set ({@code manylinux_2_34_x86_64.manylinux2014_x86_64}) promises each.
 * Either configured ({@code platformTag}, checked when parsed) or carried by a .whl (its file name's set; PLATFORM
 * adds the Tag lines of its WHEEL file and reports a carried tag it cannot read as a finding).
 *
 * @param tags the tags as written, each once (compared as installers compare them, ignoring case), in order
 * @param carried whether they are a wheel's own, read from its file name
 */
public record PlatformTags(List<String> tags, boolean carried) {
  public PlatformTags {
    List<String> once = new ArrayList<>();
    for (String tag : tags) {
      if (once.stream().noneMatch(t -> t.equalsIgnoreCase(tag))) {
        once.add(tag);
      }
    }
    if (once.isEmpty()) {
      throw new IllegalArgumentException("a platform tag set needs at least one tag");
    }
    tags = List.copyOf(once);
  }

  /**
   * A configured tag or compressed set ({@code a.b}), each tag checked.
   *
   * @throws IllegalArgumentException naming the tag that is not a glibc Linux tag, and why
   */
  public static PlatformTags parse(String set) {
    String trimmed = set == null ? "" : set.trim();
    List<String> tags = Arrays.stream(trimmed.split("\\.", -1)).map(String::trim).toList();
    for (String tag : tags) {
      if (tag.isEmpty()) {
        throw new IllegalArgumentException("platform tag set '" + set + "' has an empty tag: expected one tag, or"
            + " several joined by '.', e.g. manylinux_2_28_x86_64.manylinux2014_x86_64");
      }
      PlatformTag.parse(tag);
    }
    return new PlatformTags(tags, false);
  }

  /** One configured tag. */
  public static PlatformTags of(PlatformTag tag) {
    return new PlatformTags(List.of(tag.tag()), false);
  }

  /** The tags a wheel's file name carries, as they are: PLATFORM reports those it cannot read. */
  public static PlatformTags carried(List<String> tags) {
    return new PlatformTags(tags, true);
  }

  /** The tags that parse, in order. */
  public List<PlatformTag> parsed() {
    List<PlatformTag> result = new ArrayList<>();
    for (String tag : tags) {
      try {
        result.add(PlatformTag.parse(tag));
      } catch (IllegalArgumentException e) {
        // PLATFORM reports it
      }
    }
    return result;
  }

  /** The first tag that parses: the architecture ISA-LEVEL and the suggested tag go by. */
  public Optional<PlatformTag> primary() {
    return parsed().stream().findFirst();
  }

  /** The set as a file name writes it: the tags joined by '.'. */
  public String text() {
    return String.join(".", tags);
  }

  /** Whether {@code tag} is one of these, compared as installers compare tags. */
  public boolean contains(String tag) {
    String lower = tag.toLowerCase(Locale.ROOT);
    return tags.stream().anyMatch(t -> t.toLowerCase(Locale.ROOT).equals(lower));
  }
}
