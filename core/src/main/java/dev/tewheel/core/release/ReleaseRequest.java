package dev.tewheel.core.release;

import dev.tewheel.core.gate.GatePolicy;
import dev.tewheel.core.verify.VerifyRequest;
import java.nio.file.Path;
import java.util.List;
import java.util.function.BiFunction;

/**
 * A release to verify as one.
 *
 * @param origin the release folder, or null when the wheels were named one by one
 * @param wheels every .whl of the release
 * @param expectCudaMajors the CUDA variants each platform must have (empty: those present)
 * @param expectPlatforms the architectures or platform tags each variant must have (empty: those present)
 * @param verification given a wheel and the folder its own reports go to (null: none), its verify request
 * @param wheelLibPath where wheel_lib sits inside each wheel
 * @param policy how the release's gate judges RELEASE-MATRIX (every check ID known)
 * @param reportDirectory where the release's report goes (each wheel's in a folder of its own below), or null
 * @param projectBase the folder reports name files relative to, or null
 * @param parallelism how many wheels are verified at once: each holds at most its chunk budget of inflated bytes
 */
public record ReleaseRequest(Path origin, List<Path> wheels, List<Integer> expectCudaMajors,
    List<String> expectPlatforms, BiFunction<Path, Path, VerifyRequest> verification, String wheelLibPath,
    GatePolicy policy, Path reportDirectory, Path projectBase, int parallelism) {
  /** At most this many wheels at once: four 200 MB wheels verify within a 256 MiB heap (ReleaseHeapTest). */
  public static final int MAX_PARALLELISM = 4;

  public ReleaseRequest {
    wheels = List.copyOf(wheels);
    expectCudaMajors = List.copyOf(expectCudaMajors);
    expectPlatforms = List.copyOf(expectPlatforms);
    wheelLibPath = wheelLibPath == null ? VerifyRequest.DEFAULT_WHEEL_LIB_PATH : wheelLibPath;
    if (parallelism < 1 || parallelism > MAX_PARALLELISM) {
      parallelism = Math.max(1, Math.min(MAX_PARALLELISM, Runtime.getRuntime().availableProcessors()));
    }
  }
}
