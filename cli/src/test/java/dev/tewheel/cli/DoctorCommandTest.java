package dev.tewheel.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** te-wheel doctor's options, exit statuses and output forms (the replay itself is core's, tested there). */
class DoctorCommandTest {
  @TempDir Path temp;

  private record Run(int exit, String out, String err) {}

  private Run run(Map<String, String> environment, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    String[] all = new String[args.length + 1];
    all[0] = "doctor";
    System.arraycopy(args, 0, all, 1, args.length);
    int exit = TeWheel.run(all, new Io(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), environment::get, temp));
    return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  private Run run(String... args) {
    return run(Map.of(), args);
  }

  /** A site-packages holding only TE's metapackage, installed from a wheel: TE's import raises there. */
  private Path metaOnly(String name) throws Exception {
    Path site = Files.createDirectories(temp.resolve("site"));
    Path info = Files.createDirectories(site.resolve("transformer_engine-2.9.0.dist-info"));
    Files.writeString(info.resolve("METADATA"), "Metadata-Version: 2.1\nName: " + name + "\nVersion: 2.9.0\n\n");
    Files.writeString(info.resolve("WHEEL"), "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n");
    Files.writeString(info.resolve("RECORD"), "transformer_engine-2.9.0.dist-info/METADATA,,\n"
        + "transformer_engine-2.9.0.dist-info/WHEEL,,\ntransformer_engine-2.9.0.dist-info/RECORD,,\n");
    return site;
  }

  @Test
  void anEnvironmentWhereTheImportFailsExitsOneWithTheFix() throws Exception {
    Path site = metaOnly("transformer_engine");
    Run text = run("--site-packages", site.toString());
    assertEquals(1, text.exit(), text.err());
    assertTrue(text.out().contains("error DOCTOR-TE-PACKAGES: only the metapackage transformer_engine==2.9.0"),
        text.out());
    assertTrue(text.out().contains("\n  fix: pip install 'transformer-engine[core_cu13]==2.9.0'\n"), text.out());
    assertTrue(text.out().endsWith("import transformer_engine would fail (1 error, 0 warnings)\n"), text.out());
    Run json = run("--site-packages", site.toString(), "--format", "json", "--env", "CUDA_HOME=/opt/cuda,13");
    assertEquals(1, json.exit());
    @SuppressWarnings("unchecked")
    Map<String, Object> report = (Map<String, Object>) Json.parse(json.out());
    assertEquals("te-wheel-doctor-report/1", report.get("schema"));
    assertEquals("fails", report.get("verdict"));
    assertEquals(Map.of("CUDA_HOME", "/opt/cuda,13"), report.get("environment"), "--env is never split at commas");
  }

  @Test
  void namesFromTheEnvironmentArePrintedEscaped() throws Exception {
    Path site = metaOnly("transformer_engine\u001b[31m");
    Run text = run("--site-packages", site.toString());
    assertFalse(text.out().contains("\u001b"), text.out());
    assertTrue(text.out().contains("transformer_engine\\u001b[31m==2.9.0"), text.out());
  }

  @Test
  void usageErrorsExitTwoAndSayWhatIsExpected() throws Exception {
    Run none = run();
    assertEquals(2, none.exit());
    assertTrue(none.err().contains("--python or --site-packages is required"), none.err());
    Run both = run("--python", "/usr/bin/python3", "--site-packages", temp.toString());
    assertEquals(2, both.exit());
    assertTrue(both.err().contains("give one of the two"), both.err());
    Run env = run("--site-packages", temp.toString(), "--env", "CUDA_HOME");
    assertEquals(2, env.exit());
    assertTrue(env.err().contains("expected KEY=VALUE"), env.err());
    Run format = run("--site-packages", temp.toString(), "--format", "sarif");
    assertEquals(2, format.exit());
    assertTrue(format.err().contains("doctor prints text or json"), format.err());
    Run python = run("--python", temp.resolve("nope").toString());
    assertEquals(2, python.exit());
    assertTrue(python.err().contains(temp.resolve("nope") + ": not an executable file"), python.err());
    Run folder = run("--site-packages", temp.resolve("missing").toString());
    assertEquals(2, folder.exit());
    assertTrue(folder.err().contains("missing: not a folder"), folder.err());
  }
}
