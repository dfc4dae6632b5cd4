package dev.tewheel.core.check.wheel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.verify.Verifier;
import dev.tewheel.core.verify.VerifyRequest;
import dev.tewheel.core.wheel.TestWheel;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * WHEEL-SIZE on real wheels: one of the stand-ins, and one carrying 101 MiB of random bytes stored (so its file is
 * above PyPI's default upload limit of 100 MiB as uploaded, not only inflated).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class WheelSizeCheckTest {
  private static final String BLOB = "transformer_engine/data/blob.bin";

  @TempDir static Path temp;
  private static Path big;
  private static Path small;

  @BeforeAll
  static void wheels() throws Exception {
    Path blob = temp.resolve("blob.bin");
    byte[] block = new byte[1 << 20];
    SplittableRandom random = new SplittableRandom(22);
    try (OutputStream out = Files.newOutputStream(blob)) {
      for (int i = 0; i < 101; i++) {
        for (int j = 0; j < block.length; j++) {
          block[j] = (byte) random.nextInt();
        }
        out.write(block);
      }
    }
    big = TestWheel.standIns().addStored(BLOB, blob).write(Files.createDirectories(temp.resolve("big")));
    small = TestWheel.standIns().write(Files.createDirectories(temp.resolve("small")));
  }

  private static List<Finding> wheelSize(Path wheel, String maxWheelSize) throws Exception {
    CheckSettings settings = CheckSettings.defaults();
    if (maxWheelSize != null) {
      settings = settings.withMaxWheelSize(CheckSettings.parseSize(maxWheelSize));
    }
    return new Verifier().verify(VerifyRequest.wheel(wheel).withSettings(settings)).findings().stream()
        .filter(f -> f.checkId().equals("WHEEL-SIZE")).toList();
  }

  @Test
  void aWheelAbovePypisDefaultLimitIsAWarningNamingItsSizesAndLargestEntries() throws Exception {
    List<Finding> findings = wheelSize(big, null);
    assertEquals(1, findings.size(), findings.toString());
    Finding finding = findings.get(0);
    assertEquals(Severity.WARNING, finding.severity());
    assertTrue(finding.found().matches("a wheel of 101\\.\\d MiB \\(101\\.\\d MiB uncompressed\\); largest entries: "
        + BLOB + " 101\\.0 MiB \\(101\\.0 MiB uncompressed\\), transformer_engine/wheel_lib/\\S+ .*"), finding.found());
    assertEquals("at most 100.0 MiB, PyPI's default upload limit per file", finding.expected());
    assertEquals(List.of(), wheelSize(small, null), "a small wheel is within the limit");
  }

  @Test
  void aWheelAboveMaxWheelSizeIsAnErrorAndTheBudgetReplacesPypisDefault() throws Exception {
    List<Finding> findings = wheelSize(small, "8KiB");
    assertEquals(1, findings.size(), findings.toString());
    assertEquals(Severity.ERROR, findings.get(0).severity());
    assertEquals("at most 8.0 KiB (maxWheelSize)", findings.get(0).expected());
    assertTrue(findings.get(0).found().startsWith("a wheel of "), findings.get(0).found());
    assertEquals(List.of(), wheelSize(big, "1GiB"), "a raised limit replaces PyPI's default");
  }

  @Test
  void sizesTakeKibMibGibOrBytes() {
    assertEquals(500L << 20, CheckSettings.parseSize("500MiB"));
    assertEquals(3L << 29, CheckSettings.parseSize("1.5 GiB"));
    assertEquals(8192, CheckSettings.parseSize("8KiB"));
    assertEquals(104857600, CheckSettings.parseSize("104857600"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CheckSettings.parseSize("1GB"));
    assertEquals("'1GB' is not a size: expected a number with KiB, MiB or GiB (e.g. 500MiB, 1.5GiB), or a number of"
        + " bytes", e.getMessage());
  }
}
