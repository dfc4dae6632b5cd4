package dev.tewheel.core.release;

import java.util.List;

/**
 * What RELEASE-MATRIX judges: each wheel's facts, and the variants and platforms the release must hold.
 *
 * @param origin how findings about the release as a whole name it: the release folder, or the first wheel's
 * @param wheels each wheel by file name with its facts (null facts: it could not be opened; verify says why)
 * @param expectCudaMajors the CUDA variants every platform must have a wheel of; empty: the ones present
 * @param expectPlatforms the architectures (x86_64, aarch64) or platform tags every variant must have a wheel of;
 *     empty: the ones present
 */
public record Release(String origin, List<Wheel> wheels, List<Integer> expectCudaMajors,
    List<String> expectPlatforms) {
  public Release {
    wheels = List.copyOf(wheels);
    expectCudaMajors = List.copyOf(expectCudaMajors);
    expectPlatforms = List.copyOf(expectPlatforms);
  }

  /** One wheel of the release: where it is, and what was read of it (null when it could not be opened). */
  public record Wheel(String file, WheelFacts facts) {}
}
