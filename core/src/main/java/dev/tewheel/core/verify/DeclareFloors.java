package dev.tewheel.core.verify;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.check.floor.ProvenFloors;
import dev.tewheel.core.wheel.Metadata;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Pack's declareFloors: before the wheel is written, SYMBOL-FLOOR runs on the staged wheel_lib with the floors and
 * CUDA variant pack verifies with, and each floor wheel that passed becomes a Requires-Dist line ({@link
 * ProvenFloors}); pack's own verification then holds the written METADATA to the same proof (DEPS-DECLARED).
 *
 * @param extra the extra the lines go under (floorExtra), or null
 * @param settings the check settings pack verifies with (floors, cudaMajor)
 * @param layout the layout of the staged wheel_lib
 * @param wheelLibPath where wheel_lib sits in the staged tree
 */
public record DeclareFloors(String extra, CheckSettings settings, Layout layout, String wheelLibPath) {
  /** The lines for the wheel staged in {@code staging}, of CUDA variant {@code cudaMajor} (null: none). */
  public Metadata.Declared lines(Path staging, Integer cudaMajor) throws IOException {
    CheckSettings variant = settings.withCudaMajor(cudaMajor);
    return new Metadata.Declared(ProvenFloors.requirements(FolderSubject.read(staging.resolve(wheelLibPath), layout,
        variant), extra), extra);
  }
}
