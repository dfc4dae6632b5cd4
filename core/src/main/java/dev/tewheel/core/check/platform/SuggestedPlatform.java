package dev.tewheel.core.check.platform;

import dev.tewheel.core.check.Libraries;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.check.deps.DependenciesResolveCheck;
import dev.tewheel.core.policy.ManylinuxPolicies;
import dev.tewheel.core.policy.PlatformSuggestion;
import dev.tewheel.core.policy.PlatformTag;
import dev.tewheel.core.policy.PlatformTags;
import dev.tewheel.core.policy.TagSuggester;
import dev.tewheel.elf.ElfFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The subject's libraries handed to {@link TagSuggester}: what each needs that no shipped file satisfies (glibc's
 * search as DEPS-RESOLVE sees it) and which of those DEPS-RESOLVE allows. Libraries that cannot be read, or are of
 * another architecture than the platform tag (the first of a set), are left out: ELF-SHARED-OBJECT and PLATFORM
 * report them.
 */
public final class SuggestedPlatform {
  private SuggestedPlatform() {}

  /** The suggestion for the subject, empty when it has no readable library of its platform's architecture. */
  public static Optional<PlatformSuggestion> of(Subject subject) {
    PlatformTags tags = subject.settings().platform();
    PlatformTag tag = tags == null ? null : tags.primary().orElse(null);
    if (tag == null) {
      return Optional.empty();
    }
    List<TagSuggester.Library> libraries = new ArrayList<>();
    for (SubjectFile library : Libraries.of(subject)) {
      Optional<ElfFile> read = subject.elfIfReadable(library);
      if (read.isEmpty() || !read.get().header().machine().equals(tag.machine())
          || read.get().header().elfClass() != tag.elfClass()) {
        continue;
      }
      ElfFile elf = read.get();
      int isa;
      try {
        isa = subject.gnuProperties(library).x86IsaLevelNeeded();
      } catch (IOException e) {
        isa = 0; // ISA-LEVEL reports the unreadable note
      }
      String kind = DependenciesResolveCheck.kind(subject, library);
      List<String> outside = new ArrayList<>();
      Set<String> provided = new HashSet<>();
      for (String needed : elf.needed()) {
        if (subject.shippedNeeded(library, elf, needed).isEmpty()) {
          outside.add(needed);
          // Allowed beside the policies (an NVIDIA wheel library, allowedNeeded); a policy's own library is judged
          // by each policy in turn.
          if (!ManylinuxPolicies.get().systemLibraries().contains(needed) && DependenciesResolveCheck.permits(subject, needed, kind)) {
            provided.add(needed);
          }
        }
      }
      libraries.add(new TagSuggester.Library(library.path(), elf, isa, outside, provided));
    }
    return libraries.isEmpty() ? Optional.empty() : Optional.of(TagSuggester.suggest(tag.arch(), libraries));
  }
}
