package dev.tewheel.core.wheel;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/** Floor wheels of NCCL as pip downloads them, made from the stand-ins: the library in nvidia/nccl/lib. */
public final class FloorWheels {
  private FloorWheels() {}

  /**
   * Writes {@code <dist>-<release>-py3-none-manylinux_2_18_x86_64.whl} into {@code dir}.
   *
   * @param metadataVersion the Version its METADATA says (the release, unless a test makes them disagree)
   */
  public static Path nccl(Path dir, String distribution, String release, Path library, String metadataVersion)
      throws IOException {
    String stem = distribution.replace('-', '_');
    Path whl = dir.resolve(stem + "-" + release + "-py3-none-manylinux_2_18_x86_64.whl");
    String info = stem + "-" + release + ".dist-info/";
    try (OutputStream file = Files.newOutputStream(whl); ZipOutputStream zip = new ZipOutputStream(file)) {
      zip.putNextEntry(new ZipEntry("nvidia/nccl/lib/libnccl.so.2"));
      Files.copy(library, zip);
      zip.closeEntry();
      zip.putNextEntry(new ZipEntry(info + "METADATA"));
      zip.write(("Metadata-Version: 2.1\nName: " + distribution + "\nVersion: " + metadataVersion + "\n")
          .getBytes(StandardCharsets.UTF_8));
      zip.closeEntry();
      zip.putNextEntry(new ZipEntry(info + "WHEEL"));
      zip.write("Wheel-Version: 1.0\nGenerator: te-wheel-test\nRoot-Is-Purelib: false\nTag: py3-none-manylinux_2_18_x86_64\n"
          .getBytes(StandardCharsets.UTF_8));
      zip.closeEntry();
      zip.putNextEntry(new ZipEntry(info + "RECORD"));
      zip.closeEntry();
    }
    return whl;
  }
}
