package dev.tewheel.bench;

import dev.tewheel.core.gate.GateReport;
import dev.tewheel.core.verify.Verifier;
import dev.tewheel.core.verify.VerifyRequest;
import dev.tewheel.standins.StandIns;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.Deflater;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * te:verify-wheel-lib on a large .whl, read in place (every entry hashed, every ELF check), side by side with
 * {@code unzip -p the.whl | sha256sum} on the same file. The fork's heap is capped at 64 MB: the run fails if
 * verifying needs more, whatever the wheel's size.
 *
 * <p>The wheel: the stand-in libraries, the NCCL EP one grown with an incompressible random tail to {@code sizeMb},
 * the headers, METADATA, WHEEL and a correct RECORD, deflated as pip's wheels are.
 */
@Fork(value = 1, jvmArgsAppend = {"-Xmx64m", "-Xms64m"})
public class VerifyWheelBenchmark extends LargeInputBenchmark {
  private static final String NAME = "transformer_engine_cu12-2.9.0-py3-none-manylinux_2_34_x86_64.whl";

  @Param("1024")
  public int sizeMb;

  private Path wheel;

  @Setup(Level.Trial)
  public void wheel() throws Exception {
    newRoot("te-verify-bench");
    Path ep = root.resolve("libnccl_ep.so");
    Files.copy(StandIns.ncclEpLibrary(), ep);
    BenchFiles.appendRandom(ep, ((long) sizeMb << 20) - Files.size(ep), 7);
    Map<String, Path> files = new LinkedHashMap<>();
    String prefix = "transformer_engine/wheel_lib/";
    files.put(prefix + "libtransformer_engine.so", StandIns.transformerEngine());
    files.put(prefix + "libnccl_ep.so", ep);
    Path include = StandIns.ncclEpHome().resolve("include");
    try (Stream<Path> walk = Files.walk(include)) {
      for (Path header : walk.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().startsWith("."))
          .sorted().toList()) {
        files.put(prefix + "nccl_ep/include/" + include.relativize(header), header);
      }
    }
    wheel = root.resolve(NAME);
    write(wheel, files);
    System.out.printf("%nwheel: %s, %,d bytes%n", wheel, Files.size(wheel));
  }

  @Benchmark
  public GateReport verifyWheel() throws Exception {
    GateReport report = new Verifier().verify(VerifyRequest.wheel(wheel));
    if (report.count(dev.tewheel.core.gate.Severity.ERROR) > 0) {
      throw new IllegalStateException("the benchmark wheel should pass: " + report.findings());
    }
    return report;
  }

  @Benchmark
  public int unzipSha256sum() throws Exception {
    Process process = new ProcessBuilder("bash", "-c", "unzip -p \"$0\" | sha256sum > /dev/null", wheel.toString())
        .inheritIO().start();
    int exit = process.waitFor();
    if (exit != 0) {
      throw new IllegalStateException("unzip -p | sha256sum exited with " + exit);
    }
    return exit;
  }

  private static void write(Path wheel, Map<String, Path> files) throws Exception {
    String distInfo = "transformer_engine_cu12-2.9.0.dist-info/";
    List<String> record = new ArrayList<>();
    try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(wheel))) {
      zip.setLevel(Deflater.BEST_SPEED);
      for (Map.Entry<String, Path> file : files.entrySet()) {
        record.add(file.getKey() + ",sha256=" + add(zip, file.getKey(), Files.newInputStream(file.getValue())) + ","
            + Files.size(file.getValue()));
      }
      Map<String, String> meta = new LinkedHashMap<>();
      meta.put(distInfo + "METADATA", "Metadata-Version: 2.1\nName: transformer_engine_cu12\nVersion: 2.9.0\n");
      meta.put(distInfo + "WHEEL", "Wheel-Version: 1.0\nGenerator: bench\nRoot-Is-Purelib: false\n"
          + "Tag: py3-none-manylinux_2_34_x86_64\n");
      for (Map.Entry<String, String> m : meta.entrySet()) {
        byte[] bytes = m.getValue().getBytes(StandardCharsets.UTF_8);
        record.add(m.getKey() + ",sha256=" + add(zip, m.getKey(), new java.io.ByteArrayInputStream(bytes)) + ","
            + bytes.length);
      }
      record.add(distInfo + "RECORD,,");
      add(zip, distInfo + "RECORD", new java.io.ByteArrayInputStream(
          (String.join("\n", record) + "\n").getBytes(StandardCharsets.UTF_8)));
    }
  }

  private static String add(ZipOutputStream zip, String name, InputStream in) throws Exception {
    MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
    zip.putNextEntry(new ZipEntry(name));
    try (in) {
      byte[] buffer = new byte[1 << 16];
      for (int n; (n = in.read(buffer)) > 0; ) {
        sha256.update(buffer, 0, n);
        zip.write(buffer, 0, n);
      }
    }
    zip.closeEntry();
    return Base64.getUrlEncoder().withoutPadding().encodeToString(sha256.digest());
  }
}
