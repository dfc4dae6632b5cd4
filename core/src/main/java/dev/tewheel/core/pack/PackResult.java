package dev.tewheel.core.pack;

import dev.tewheel.core.wheel.WheelName;
import java.nio.file.Path;
import java.time.Duration;

/**
 * What pack wrote.
 *
 * @param wheel the .whl
 * @param name its parsed file name
 * @param files entries written, dist-info included
 * @param bytesIn uncompressed bytes packed
 * @param bytesOut the .whl's size
 * @param time wall-clock time of packing (not of the verify that follows)
 */
public record PackResult(Path wheel, WheelName name, int files, long bytesIn, long bytesOut, Duration time) {
  public String summary() {
    return String.format("%s: %d files, %,d bytes packed into %,d (%.1f%%) in %d ms", wheel, files, bytesIn, bytesOut,
        bytesIn == 0 ? 100.0 : bytesOut * 100.0 / bytesIn, time.toMillis());
  }
}
