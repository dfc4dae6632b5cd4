package dev.tewheel.core.check.deps;

import dev.tewheel.bundle.cuda.CudaSonames;
import dev.tewheel.bundle.cuda.CudaSonames.CudaNeeded;
import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.check.Libraries;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectCheck;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.elf.ElfFile;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Every shipped library NEEDS the CUDA libraries of the wheel's CUDA variant ({@link CheckSettings#cudaMajor()}: the
 * configured cudaMajor, else the {@code _cuNN} of the wheel's name): a cu12 wheel whose TE NEEDS libcudart.so.13
 * fails to load on every CUDA 12 machine. Without a variant, the libraries must still agree on one CUDA major, and
 * the majors found are reported (info) as not compared.
 */
public final class CudaVariantCheck extends SubjectCheck {
  public static final String ID = "CUDA-VARIANT";

  public CudaVariantCheck() {
    super(ID, "every library NEEDS the CUDA libraries (SONAME majors) of the wheel's CUDA variant", Severity.ERROR);
  }

  /** One CUDA library NEEDED by one shipped library. */
  private record Use(SubjectFile library, CudaNeeded needed) {}

  @Override
  protected void check(Subject subject, List<Finding> findings) {
    nameDisagrees(subject).ifPresent(findings::add);
    List<Use> uses = new ArrayList<>();
    for (SubjectFile library : Libraries.of(subject)) {
      Optional<ElfFile> elf = subject.readableElf(library, this, findings);
      elf.ifPresent(e -> e.needed().forEach(n -> CudaSonames.parse(n).ifPresent(c -> uses.add(new Use(library, c)))));
    }
    if (uses.isEmpty()) {
      return;
    }
    Integer variant = subject.settings().cudaMajor();
    if (variant != null && CudaSonames.knows(variant)) {
      for (Use use : uses) {
        String expected = CudaSonames.soname(use.needed().stem(), variant).orElseThrow();
        if (!use.needed().name().equals(expected) && !use.needed().name().startsWith(expected + ".")) {
          findings.add(finding(use.library().origin(), "DT_NEEDED " + use.needed().name(),
              expected + " for a cu" + variant + " wheel", fix(use, variant)));
        }
      }
      return;
    }
    Map<Integer, Use> firstByMajor = new LinkedHashMap<>();
    for (Use use : uses) {
      OptionalInt major = use.needed().cudaMajor();
      if (major.isPresent()) {
        firstByMajor.putIfAbsent(major.getAsInt(), use);
      }
    }
    if (firstByMajor.size() > 1) {
      List<Use> firsts = List.copyOf(firstByMajor.values());
      Use first = firsts.get(0);
      for (Use other : firsts.subList(1, firsts.size())) {
        findings.add(finding(other.library().origin(), "DT_NEEDED " + other.needed().name() + " (CUDA "
            + other.needed().cudaMajor().getAsInt() + ") in a wheel whose " + first.library().path() + " NEEDS "
            + first.needed().name() + " (CUDA " + first.needed().cudaMajor().getAsInt() + ")",
            "the CUDA libraries of one CUDA major in one wheel",
            "build every shipped library against the same CUDA toolkit, then pack one wheel per CUDA major"));
      }
      return;
    }
    String names = uses.stream().map(u -> u.needed().name()).collect(Collectors.toCollection(TreeSet::new)).stream()
        .collect(Collectors.joining(", "));
    String majors = firstByMajor.isEmpty() ? "no CUDA major this check knows"
        : "CUDA " + firstByMajor.keySet().iterator().next();
    String file = uses.get(0).library().origin();
    if (variant != null) {
      findings.add(new Finding(ID, Severity.INFO, file, "DT_NEEDED " + names + " (" + majors + ") in a cu" + variant
          + " wheel, not compared: CUDA-VARIANT knows the SONAMEs of " + knownMajors() + " only",
          "a cu" + variant + " wheel's CUDA libraries compared with their SONAMEs",
          "check the CUDA libraries' SONAMEs by hand, or pack as one of " + knownMajors()));
    } else {
      findings.add(new Finding(ID, Severity.INFO, file, "DT_NEEDED " + names + " (" + majors + "), not compared: the"
          + " wheel's CUDA variant is unknown (no cudaMajor set and no _cuNN in the wheel's name)",
          "a CUDA variant to compare the CUDA libraries with",
          firstByMajor.isEmpty() ? "set te.cudaMajor to the CUDA major of the build"
              : "set te.cudaMajor (-Dte.cudaMajor=" + firstByMajor.keySet().iterator().next() + "), or verify the"
                  + " wheel named <distribution>_cu" + firstByMajor.keySet().iterator().next()));
    }
  }

  private static String fix(Use use, int variant) {
    OptionalInt built = use.needed().cudaMajor();
    String library = use.library().path().substring(use.library().path().lastIndexOf('/') + 1);
    return built.isPresent()
        ? "build " + library + " against CUDA " + variant + ", or pack it as cu" + built.getAsInt()
            + ": -Dte.cudaMajor=" + built.getAsInt()
        : "build " + library + " against CUDA " + variant + " (its " + use.needed().stem() + " is "
            + CudaSonames.soname(use.needed().stem(), variant).orElseThrow() + ")";
  }

  private static String knownMajors() {
    return CudaSonames.cudaMajors().stream().map(m -> "cu" + m).collect(Collectors.joining(", "));
  }

  /**
   * A configured cudaMajor other than the {@code _cuNN} of the wheel's name: pip installs the wheel as the name's
   * variant (its dependencies and its users' choice follow the name), so the two must agree.
   */
  private Optional<Finding> nameDisagrees(Subject subject) {
    Integer configured = subject.settings().cudaMajor();
    if (configured == null || subject.wheel().isEmpty()) {
      return Optional.empty();
    }
    String file = subject.wheel().get().fileName();
    OptionalInt named;
    try {
      named = dev.tewheel.core.wheel.WheelName.parse(file).cudaMajor();
    } catch (IllegalArgumentException e) {
      return Optional.empty(); // WHEEL-TAGS reports the name
    }
    if (named.isEmpty() || named.getAsInt() == configured) {
      return Optional.empty();
    }
    return Optional.of(finding(file, "cudaMajor " + configured + " for a wheel named _cu" + named.getAsInt(),
        "the CUDA variant the wheel's name carries (cu" + named.getAsInt() + "), which pip installs it as",
        "drop te.cudaMajor to verify it as cu" + named.getAsInt() + ", or pack it as cu" + configured
            + " (te:pack-wheel -Dte.cudaMajor=" + configured + ", which names it _cu" + configured + ")"));
  }
}
