package dev.tewheel.bundle.cuda;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The choice among several bundles of one release, one per CUDA variant (te-runtime's class-path bundles): by the
 * variant configured, else by the CUDA runtime that would load (docs/runtime.md, "Several class-path bundles").
 */
public final class CudaVariantChoice {
  /** The property that picks the variant, over every signal: {@code 13} or {@code cu13}. */
  public static final String PROPERTY = "te.cudaVariant";

  private CudaVariantChoice() {}

  /** One bundle to choose: where it is, its CUDA variant when known ({@link CudaVariant}) and where that came from. */
  public interface Candidate {
    String where();

    Optional<Integer> variant();

    String variantSource();

    default String describe() {
      return where() + " (" + variant().map(v -> "cu" + v).orElse("CUDA variant unknown") + ", " + variantSource()
          + ")";
    }
  }

  /**
   * What the machine says of CUDA.
   *
   * @param driverVersion cuDriverGetVersion's answer, e.g. 12090, when a driver was found and answered
   * @param driver how the driver was found, or why not
   * @param cudarts each variant's libcudart.so.N the loader search finds, and where
   */
  public record Signals(Optional<Integer> driverVersion, String driver, Map<Integer, Path> cudarts) {}

  /**
   * The bundle chosen.
   *
   * @param reason why, for people
   * @param warnings an ambiguous choice, for people
   */
  public record Choice<B extends Candidate>(B chosen, String reason, List<String> warnings) {}

  /** The configured variant is on no bundle; the message names the bundles there and the fix. */
  public static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;

    Refused(String message) {
      super(message);
    }
  }

  /**
   * The bundle to use: the configured variant's, else the newest variant the driver runs (all, when no driver
   * answers) whose libcudart.so.N the loader search finds, else the newest the driver runs, else the first, with a
   * warning. {@code probe} is asked only when several bundles leave a choice.
   */
  public static <B extends Candidate> Choice<B> choose(List<B> bundles, Integer configured, Supplier<Signals> probe)
      throws Refused {
    List<String> warnings = new ArrayList<>();
    if (configured != null) {
      List<B> matching = of(bundles, configured);
      if (matching.isEmpty()) {
        throw new Refused("system property " + PROPERTY + " asks for cu" + configured + ", but no class-path bundle"
            + " is: " + describe(bundles) + ". Put the cu" + configured + " jar on the class path, or set "
            + PROPERTY + " to a variant there");
      }
      return choice(matching, configured, "cu" + configured + ": system property " + PROPERTY, warnings);
    }
    if (bundles.size() == 1) {
      return new Choice<>(bundles.get(0), "the only class-path bundle", warnings);
    }
    TreeSet<Integer> variants = new TreeSet<>();
    bundles.forEach(b -> b.variant().ifPresent(variants::add));
    Signals signals = probe.get();
    Optional<Integer> driverMajor = signals.driverVersion().map(v -> v / 1000);
    String driver = signals.driverVersion().map(v -> "the driver supports CUDA " + v / 1000 + "." + v % 1000 / 10
        + " (" + signals.driver() + ")").orElse("no CUDA driver answered (" + signals.driver() + ")");
    TreeSet<Integer> runnable = new TreeSet<>(variants);
    driverMajor.ifPresent(d -> runnable.removeIf(v -> v > d));
    TreeSet<Integer> withCudart = new TreeSet<>(runnable);
    withCudart.retainAll(signals.cudarts().keySet());
    String cudarts = signals.cudarts().isEmpty() ? "no libcudart.so.N of a bundle's variant is found"
        : signals.cudarts().entrySet().stream().map(e -> "libcudart.so." + e.getKey() + " is found at "
            + e.getValue()).collect(Collectors.joining(", "));
    int variant;
    String reason;
    if (!withCudart.isEmpty()) {
      variant = withCudart.last();
      reason = "libcudart.so." + variant + " is found at " + signals.cudarts().get(variant) + " and " + driver;
    } else if (driverMajor.isPresent() && !runnable.isEmpty()) {
      variant = runnable.last();
      reason = driver + ", the newest variant it runs; " + cudarts;
    } else if (driverMajor.isPresent() && !variants.isEmpty()) {
      variant = variants.first();
      reason = driver;
      warnings.add("no class-path bundle's CUDA variant runs on this driver, which supports CUDA "
          + driverMajor.get() + " at most; using the oldest, cu" + variant + ". Update the NVIDIA driver, or put a"
          + " cu" + driverMajor.get() + " jar on the class path");
    } else {
      B first = bundles.get(0);
      warnings.add("nothing says which CUDA runtime would load (" + driver + "; " + cudarts + "), so the first"
          + " class-path bundle is used, " + first.where() + ". Set -D" + PROPERTY + "=<major> to choose");
      return new Choice<>(first, "the first on the class path; nothing says which CUDA runtime would load", warnings);
    }
    List<B> unknown = bundles.stream().filter(b -> b.variant().isEmpty()).toList();
    if (!unknown.isEmpty()) {
      warnings.add("the CUDA variant of " + describe(unknown) + " is unknown, so it was not chosen. Make the jar with"
          + " te:jar-wheel-lib given cudaMajor");
    }
    return choice(of(bundles, variant), variant, "cu" + variant + ": " + reason, warnings);
  }

  private static <B extends Candidate> List<B> of(List<B> bundles, int variant) {
    return bundles.stream().filter(b -> b.variant().equals(Optional.of(variant))).toList();
  }

  private static String describe(List<? extends Candidate> bundles) {
    return bundles.stream().map(Candidate::describe).collect(Collectors.joining("; "));
  }

  /** The first of the bundles of one variant, with a warning when there are several. */
  private static <B extends Candidate> Choice<B> choice(List<B> matching, int variant, String reason,
      List<String> warnings) {
    B first = matching.get(0);
    if (matching.size() > 1) {
      warnings.add(matching.size() + " class-path bundles are cu" + variant + ": "
          + matching.stream().map(Candidate::where).collect(Collectors.joining(", ")) + "; using the first, "
          + first.where() + ". Keep one jar per CUDA variant on the class path");
    }
    return new Choice<>(first, reason, List.copyOf(warnings));
  }
}
