package dev.tewheel.core.pack;

import dev.tewheel.core.wheel.HeaderValues;
import dev.tewheel.core.wheel.Metadata;
import dev.tewheel.core.wheel.WheelName;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Objects;

/**
 * What to pack.
 *
 * @param stagingDirectory the tree to pack: the Python package files and transformer_engine/wheel_lib
 * @param distribution e.g. transformer_engine
 * @param version e.g. 2.9.0
 * @param cudaMajor when set, the distribution becomes {@code <name>_cu<N>} in file name, dist-info and METADATA
 * @param pythonTag e.g. py3
 * @param abiTag e.g. none
 * @param platformTag e.g. manylinux_2_28_x86_64
 * @param metadataFile a METADATA to use, or null to generate one from {@code metadata}
 * @param metadata the fields of a generated METADATA
 * @param compressionLevel 0 (stored) to 9
 * @param outputDirectory where the .whl goes
 * @param timestamp every entry's time; null: 1980-01-01, the earliest a zip can hold
 * @param generator the WHEEL file's Generator value, e.g. "te-wheel 0.1.0"
 * @param declared the Requires-Dist lines declareFloors adds after the user's own (with the extra they are under);
 *     null: none
 */
public record PackRequest(Path stagingDirectory, String distribution, String version, Integer cudaMajor,
    String pythonTag, String abiTag, String platformTag, Path metadataFile, Metadata.Fields metadata,
    int compressionLevel, Path outputDirectory, FileTime timestamp, String generator, Metadata.Declared declared) {
  /** The zip epoch: the earliest DOS time, used when no timestamp is given. */
  public static final FileTime ZIP_EPOCH = FileTime.from(Instant.parse("1980-01-01T00:00:00Z"));

  public static final String DEFAULT_DISTRIBUTION = "transformer_engine";
  public static final String DEFAULT_PYTHON_TAG = "py3";
  public static final String DEFAULT_ABI_TAG = "none";
  public static final int DEFAULT_COMPRESSION_LEVEL = 6;

  public PackRequest {
    Objects.requireNonNull(stagingDirectory, "stagingDirectory");
    requireText(distribution, "distribution");
    requireText(version, "version");
    pythonTag = pythonTag == null || pythonTag.isBlank() ? DEFAULT_PYTHON_TAG : pythonTag;
    abiTag = abiTag == null || abiTag.isBlank() ? DEFAULT_ABI_TAG : abiTag;
    requireText(platformTag, "platformTag");
    metadata = metadata == null ? Metadata.Fields.none() : metadata;
    if (compressionLevel < 0 || compressionLevel > 9) {
      throw new IllegalArgumentException("compressionLevel must be 0 to 9, got " + compressionLevel);
    }
    Objects.requireNonNull(outputDirectory, "outputDirectory");
    timestamp = timestamp == null ? ZIP_EPOCH : timestamp;
    generator = generator == null ? "te-wheel" : generator;
    // Each goes into a METADATA or WHEEL header (and most into the file name): one line each.
    HeaderValues.requireOneLine("distribution", distribution);
    HeaderValues.requireOneLine("version", version);
    HeaderValues.requireOneLine("pythonTag", pythonTag);
    HeaderValues.requireOneLine("abiTag", abiTag);
    HeaderValues.requireOneLine("platformTag", platformTag);
    HeaderValues.requireOneLine("generator", generator);
  }

  public PackRequest(Path stagingDirectory, String distribution, String version, Integer cudaMajor, String pythonTag,
      String abiTag, String platformTag, Path metadataFile, Metadata.Fields metadata, int compressionLevel,
      Path outputDirectory, FileTime timestamp, String generator) {
    this(stagingDirectory, distribution, version, cudaMajor, pythonTag, abiTag, platformTag, metadataFile, metadata,
        compressionLevel, outputDirectory, timestamp, generator, null);
  }

  /** The same request adding these Requires-Dist lines (declareFloors) after the user's own. */
  public PackRequest withDeclared(Metadata.Declared lines) {
    return new PackRequest(stagingDirectory, distribution, version, cudaMajor, pythonTag, abiTag, platformTag,
        metadataFile, metadata, compressionLevel, outputDirectory, timestamp, generator, lines);
  }

  public static PackRequest of(Path staging, String distribution, String version, String platformTag, Path out) {
    return new PackRequest(staging, distribution, version, null, null, null, platformTag, null, null, DEFAULT_COMPRESSION_LEVEL, out, null,
        null);
  }

  public PackRequest withCudaMajor(Integer major) {
    return new PackRequest(stagingDirectory, distribution, version, major, pythonTag, abiTag, platformTag,
        metadataFile, metadata, compressionLevel, outputDirectory, timestamp, generator, declared);
  }

  public PackRequest withMetadataFile(Path file) {
    return new PackRequest(stagingDirectory, distribution, version, cudaMajor, pythonTag, abiTag, platformTag, file,
        metadata, compressionLevel, outputDirectory, timestamp, generator, declared);
  }

  public PackRequest withTimestamp(FileTime time) {
    return new PackRequest(stagingDirectory, distribution, version, cudaMajor, pythonTag, abiTag, platformTag,
        metadataFile, metadata, compressionLevel, outputDirectory, time, generator, declared);
  }

  public PackRequest withCompressionLevel(int level) {
    return new PackRequest(stagingDirectory, distribution, version, cudaMajor, pythonTag, abiTag, platformTag,
        metadataFile, metadata, level, outputDirectory, timestamp, generator, declared);
  }

  /** The distribution as the wheel names it: with the CUDA suffix when asked. */
  public String wheelDistribution() {
    return cudaMajor == null ? distribution : Metadata.variantName(distribution, cudaMajor);
  }

  /** The file name: normalized distribution, version with '-' as '_', the tags. */
  public WheelName wheelName() {
    return new WheelName(WheelName.normalizeDistribution(wheelDistribution()), version.replace('-', '_'),
        java.util.Optional.empty(), pythonTag, abiTag, platformTag);
  }

  /** {@code <normalized dist>-<version>.dist-info}. */
  public String distInfo() {
    return wheelName().distInfo();
  }

  private static void requireText(String value, String what) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(what + " is required");
    }
  }
}
