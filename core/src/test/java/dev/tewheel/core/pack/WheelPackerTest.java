package dev.tewheel.core.pack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.core.assemble.AssembleRequest;
import dev.tewheel.core.assemble.Assembler;
import dev.tewheel.core.gate.GateReport;
import dev.tewheel.core.verify.Verifier;
import dev.tewheel.core.verify.VerifyRequest;
import dev.tewheel.core.wheel.HeaderValues;
import dev.tewheel.core.wheel.Metadata;
import dev.tewheel.standins.StandIns;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Packing on the stand-ins, checked by our own verify and by independent tools: Python's zipfile and pip. */
@Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES)
class WheelPackerTest {
  private static final FileTime TIME = FileTime.from(Instant.parse("2026-01-01T00:00:00Z"));

  @TempDir Path temp;

  /** A staged tree as a TE build leaves it: a Python package, and wheel_lib assembled from the stand-ins. */
  private Path staging(String name) throws Exception {
    Path staging = temp.resolve(name);
    Path pkg = Files.createDirectories(staging.resolve("transformer_engine"));
    Files.writeString(pkg.resolve("__init__.py"), "__version__ = '2.9.0'\nWHEEL_LIB = 'wheel_lib'\n");
    Files.writeString(pkg.resolve("common.py"), "def answer():\n    return 42\n");
    new Assembler(line -> {}).assemble(AssembleRequest.of(StandIns.transformerEngine(), StandIns.ncclEpHome(),
        pkg.resolve("wheel_lib")).withTimestamp(TIME).withStateFile(temp.resolve(name + "-assemble-state.json")));
    return staging;
  }

  private static PackRequest request(Path staging, Path out) {
    return PackRequest.of(staging, "transformer_engine", "2.9.0", "manylinux_2_34_x86_64", out).withTimestamp(TIME);
  }

  @Test
  void packsAWheelThatVerifyPythonZipfileAndPipAccept() throws Exception {
    PackResult result = new WheelPacker().pack(request(staging("staging"), temp.resolve("dist")));
    Path whl = result.wheel();
    assertEquals("transformer_engine-2.9.0-py3-none-manylinux_2_34_x86_64.whl", whl.getFileName().toString());

    GateReport report = new Verifier().verify(VerifyRequest.wheel(whl));
    assertEquals(List.of(), report.findings().stream().filter(f -> !f.checkId().equals("BAKED-BUILD-PATHS")
        && !f.checkId().equals("SYMBOL-FLOOR") && !f.checkId().equals("DEPS-DECLARED")).toList());

    python("import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None", whl.toString());
    Path target = temp.resolve("site");
    run(List.of("python3", "-m", "pip", "install", "--no-index", "--no-deps", "--disable-pip-version-check",
        "--target", target.toString(), whl.toString()));
    assertEquals("42 True", python("import sys, os; sys.path.insert(0, sys.argv[1]); import transformer_engine.common"
        + " as c; lib = os.path.join(sys.argv[1], 'transformer_engine', 'wheel_lib', 'libnccl_ep.so');"
        + " print(c.answer(), os.access(lib, os.X_OK))", target.toString()));
  }

  @Test
  void theDistInfoFilesComeLastWithRecordTheVeryLast() throws Exception {
    Path whl = new WheelPacker().pack(request(staging("staging"), temp.resolve("dist"))).wheel();
    try (ZipFile zip = ZipFile.builder().setPath(whl).get()) {
      List<String> names = Collections.list(zip.getEntriesInPhysicalOrder()).stream().map(ZipArchiveEntry::getName).toList();
      int n = names.size();
      assertEquals(List.of("transformer_engine-2.9.0.dist-info/METADATA", "transformer_engine-2.9.0.dist-info/WHEEL",
          "transformer_engine-2.9.0.dist-info/RECORD"), names.subList(n - 3, n));
      List<String> sorted = new ArrayList<>(names.subList(0, n - 3));
      Collections.sort(sorted);
      assertEquals(sorted, names.subList(0, n - 3));
      ZipArchiveEntry lib = zip.getEntry("transformer_engine/wheel_lib/libnccl_ep.so");
      assertEquals(0100755, lib.getUnixMode());
      assertEquals(0100644, zip.getEntry("transformer_engine/common.py").getUnixMode());
      assertEquals(TIME.toMillis(), lib.getTime());
      String record = new String(zip.getInputStream(zip.getEntry("transformer_engine-2.9.0.dist-info/RECORD"))
          .readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(record.endsWith("transformer_engine-2.9.0.dist-info/RECORD,,\n"), record);
      String wheel = new String(zip.getInputStream(zip.getEntry("transformer_engine-2.9.0.dist-info/WHEEL"))
          .readAllBytes(), StandardCharsets.UTF_8);
      assertEquals("Wheel-Version: 1.0\nGenerator: te-wheel\nRoot-Is-Purelib: false\n"
          + "Tag: py3-none-manylinux_2_34_x86_64\n", wheel);
    }
  }

  @Test
  void twoPacksOfTheSameTreeAreByteIdentical() throws Exception {
    Path staging = staging("staging");
    Path first = new WheelPacker(2).pack(request(staging, temp.resolve("a"))).wheel();
    // Touch every file: a rebuild with the same bytes must give the same wheel.
    try (Stream<Path> walk = Files.walk(staging)) {
      for (Path p : walk.filter(Files::isRegularFile).toList()) {
        Files.setLastModifiedTime(p, FileTime.from(Instant.now()));
      }
    }
    Path second = new WheelPacker(1).pack(request(staging, temp.resolve("b"))).wheel();
    assertEquals(-1L, Files.mismatch(first, second));
  }

  /** What TE's release chain (wheel unpack; sed on METADATA and WHEEL; mv dist-info; wheel pack; mv) produces. */
  private static final Map<String, String> CU12_EXPECTED = Map.of(
      "file", "transformer_engine_cu12-2.9.0-py3-none-manylinux_2_28_x86_64.whl",
      "distInfo", "transformer_engine_cu12-2.9.0.dist-info/",
      "metadataName", "Name: transformer_engine_cu12",
      "wheelTag", "Tag: py3-none-manylinux_2_28_x86_64");

  @Test
  void theCudaVariantCarriesTheNamesOfTeReleaseChain() throws Exception {
    Path metadata = Files.writeString(temp.resolve("METADATA"),
        "Metadata-Version: 2.1\nName: transformer_engine\nVersion: 2.9.0\nSummary: Transformer acceleration library\n");
    Path whl = new WheelPacker().pack(PackRequest.of(staging("staging"), "transformer_engine", "2.9.0",
        "manylinux_2_28_x86_64", temp.resolve("dist")).withCudaMajor(12).withMetadataFile(metadata)).wheel();
    assertEquals(CU12_EXPECTED.get("file"), whl.getFileName().toString());
    try (ZipFile zip = ZipFile.builder().setPath(whl).get()) {
      String distInfo = CU12_EXPECTED.get("distInfo");
      String text = new String(zip.getInputStream(zip.getEntry(distInfo + "METADATA")).readAllBytes(),
          StandardCharsets.UTF_8);
      assertTrue(text.contains(CU12_EXPECTED.get("metadataName") + "\n"), text);
      assertTrue(text.contains("Summary: Transformer acceleration library"), text);
      assertTrue(new String(zip.getInputStream(zip.getEntry(distInfo + "WHEEL")).readAllBytes(), StandardCharsets.UTF_8)
          .contains(CU12_EXPECTED.get("wheelTag") + "\n"));
    }
    assertEquals("transformer-engine-cu13", Metadata.variantName("transformer-engine", 13));
  }

  @Test
  void largeFilesAreDeflatedInSlicesThatPythonInflatesAsOneStream() throws Exception {
    Path blob = blob(temp.resolve("big"));
    Path whl = new WheelPacker().pack(PackRequest.of(temp.resolve("big"), "blob", "1.0", "linux_x86_64",
        temp.resolve("dist"))).wheel();
    assertEquals("ok 8", python(readsBlobBack(), whl.toString(), blob.toString()));
  }

  @Test
  void levelZeroStoresEveryEntryAsItIs() throws Exception {
    Path blob = blob(temp.resolve("big"));
    Path whl = new WheelPacker().pack(PackRequest.of(temp.resolve("big"), "blob", "1.0", "linux_x86_64",
        temp.resolve("dist")).withCompressionLevel(0)).wheel();
    assertEquals("ok 0", python(readsBlobBack(), whl.toString(), blob.toString()));
  }

  /** 11 MiB and a bit, compressible with repeats across slices: three slices at level 1 to 9. */
  private static Path blob(Path root) throws IOException {
    Path staging = Files.createDirectories(root.resolve("transformer_engine/wheel_lib"));
    Files.writeString(staging.resolveSibling("__init__.py"), "");
    byte[] block = new byte[1 << 20];
    SplittableRandom random = new SplittableRandom(3);
    try (var out = Files.newOutputStream(staging.resolve("blob.bin"))) {
      for (int i = 0; i < 11; i++) {
        for (int j = 0; j < block.length; j++) {
          block[j] = (byte) (j % 251 < 200 ? j % 17 : random.nextInt());
        }
        out.write(block);
      }
      out.write(new byte[123]);
    }
    return staging.resolve("blob.bin");
  }

  /** Python checks every CRC, compares the blob with the original and prints the blob's compression method. */
  private static String readsBlobBack() {
    return "import sys, zipfile, hashlib; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None;"
        + " name = 'transformer_engine/wheel_lib/blob.bin'; data = z.read(name);"
        + " assert hashlib.sha256(data).hexdigest() == hashlib.sha256(open(sys.argv[2], 'rb').read()).hexdigest();"
        + " methods = {i.compress_type for i in z.infolist()}; assert len(methods) == 1, methods;"
        + " print('ok', z.getinfo(name).compress_type)";
  }

  @Test
  void aStagingTreeWithoutAPythonPackageIsRefusedNamingWhatItHolds() throws Exception {
    Path staging = temp.resolve("only-wheel-lib");
    new Assembler(line -> {}).assemble(AssembleRequest.of(StandIns.transformerEngine(), StandIns.ncclEpHome(),
        staging.resolve("transformer_engine/wheel_lib")).withStateFile(temp.resolve("state.json")));
    IOException e = assertThrows(IOException.class, () -> new WheelPacker().pack(request(staging,
        temp.resolve("dist"))));
    assertTrue(e.getMessage().startsWith("stagingDirectory " + staging + " holds no Python package (no .py file):"
        + " found only transformer_engine/wheel_lib/"), e.getMessage());
    assertTrue(e.getMessage().contains("expected TE's Python package (e.g. transformer_engine/__init__.py)"),
        e.getMessage());
    assertFalse(Files.exists(temp.resolve("dist")) && Files.list(temp.resolve("dist")).findAny().isPresent(),
        "nothing written");
  }

  /**
   * The wheel's own dist-info may be staged for the files pip reads beside METADATA (entry_points.txt): packed and
   * in RECORD, so that Debian's pip installs the console script it declares, which runs; METADATA, WHEEL and RECORD
   * staged there are refused, since pack writes them.
   */
  @Test
  void theStagedDistInfosEntryPointsBecomeAConsoleScriptThatPipInstalls() throws Exception {
    Path staging = staging("staging");
    Path distInfo = Files.createDirectories(staging.resolve("transformer_engine-2.9.0.dist-info"));
    Files.writeString(staging.resolve("transformer_engine/common.py"), "def main():\n    print('answer', 42)\n",
        java.nio.file.StandardOpenOption.APPEND);
    Files.writeString(distInfo.resolve("entry_points.txt"), "[console_scripts]\nte-answer = transformer_engine.common:main\n");
    Path whl = new WheelPacker().pack(request(staging, temp.resolve("dist"))).wheel();

    GateReport report = new Verifier().verify(VerifyRequest.wheel(whl));
    assertTrue(report.passed(), report.findings().toString());
    Path target = temp.resolve("site");
    run(List.of(DEBIAN_PYTHON, "-m", "pip", "install", "--no-index", "--no-deps", "--disable-pip-version-check",
        "--target", target.toString(), whl.toString()));
    ProcessBuilder script = new ProcessBuilder(target.resolve("bin/te-answer").toString()).redirectErrorStream(true);
    script.environment().put("PYTHONPATH", target.toString());
    Process process = script.start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertTrue(process.waitFor(60, TimeUnit.SECONDS));
    assertEquals("answer 42", out);

    for (String written : List.of("METADATA", "WHEEL", "RECORD")) {
      Path staged = Files.writeString(distInfo.resolve(written), "staged\n");
      IOException e = assertThrows(IOException.class, () -> new WheelPacker().pack(request(staging, temp.resolve("again"))));
      assertTrue(e.getMessage().contains("is staged in the wheel's dist-info, but pack writes"
          + " transformer_engine-2.9.0.dist-info/" + written + " itself"), e.getMessage());
      Files.delete(staged);
    }
  }

  @Test
  void refusesSymlinksAForeignDistInfoAndMetadataOfAnotherVersion() throws Exception {
    Path staging = staging("staging");
    Files.createSymbolicLink(staging.resolve("transformer_engine/link.so"), Path.of("wheel_lib/libnccl_ep.so"));
    IOException link = assertThrows(IOException.class,
        () -> new WheelPacker().pack(request(staging, temp.resolve("dist"))));
    assertTrue(link.getMessage().contains("link.so is a symbolic link -> wheel_lib/libnccl_ep.so"), link.getMessage());
    Files.delete(staging.resolve("transformer_engine/link.so"));

    Files.createDirectories(staging.resolve("old-1.0.dist-info"));
    assertTrue(assertThrows(IOException.class, () -> new WheelPacker().pack(request(staging, temp.resolve("dist"))))
        .getMessage().contains("is a dist-info folder inside stagingDirectory"));
    Files.delete(staging.resolve("old-1.0.dist-info"));

    Path state = Files.writeString(staging.resolve("transformer_engine/.wheel_lib.te-wheel-state.json"), "{}");
    assertTrue(assertThrows(IOException.class, () -> new WheelPacker().pack(request(staging, temp.resolve("dist"))))
        .getMessage().contains("is a working file of te:assemble-wheel-lib"));
    Files.delete(state);

    Path metadata = Files.writeString(temp.resolve("METADATA"), "Metadata-Version: 2.1\nName: x\nVersion: 1.0\n");
    IllegalArgumentException version = assertThrows(IllegalArgumentException.class,
        () -> new WheelPacker().pack(request(staging, temp.resolve("dist")).withMetadataFile(metadata)));
    assertTrue(version.getMessage().contains("says Version: 1.0 but the wheel's version is 2.9.0"), version.getMessage());
    assertTrue(!Files.exists(temp.resolve("dist")) || Files.list(temp.resolve("dist")).findAny().isEmpty(),
        "a failed pack leaves nothing behind");
  }

  @Test
  @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aMetadataFileThatIsAFifoIsRefusedWithoutBeingOpened() throws Exception {
    Path fifo = temp.resolve("METADATA");
    Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
    assertEquals(0, mkfifo.waitFor(), "mkfifo " + fifo);
    IOException e = assertThrows(IOException.class,
        () -> new WheelPacker().pack(request(staging("staging"), temp.resolve("dist")).withMetadataFile(fifo)));
    assertTrue(e.getMessage().startsWith("metadataFile " + fifo + " is not a regular file"), e.getMessage());
  }

  /** Debian's interpreter: its email parser and importlib.metadata are what pip reads METADATA and WHEEL with. */
  private static final String DEBIAN_PYTHON = "/usr/bin/python3";

  /** The line breaks refused are exactly those Python's str.splitlines (older email parsers' split) ends lines at. */
  @Test
  void theLineBreaksRefusedAreThoseOfPythonsSplitlines() throws Exception {
    String python = run(List.of(DEBIAN_PYTHON, "-c", "import sys\nprint(' '.join(str(c) for c in range(sys.maxunicode"
        + " + 1) if len(('a' + chr(c) + 'b').splitlines()) > 1))"));
    List<Integer> refused = HeaderValues.LINE_BREAKS.chars().boxed().toList();
    assertEquals(python, String.join(" ", refused.stream().map(String::valueOf).toList()));
  }

  /**
   * Every header value pack writes, holding any line break, is refused before anything is written, naming the
   * parameter, the value (escaped) and the line break: {@code te.summary = "x\rRequires-Dist: evil-pkg"} once gave
   * a METADATA in which pip read an extra Requires-Dist.
   */
  @Test
  void aLineBreakInAnyHeaderValueIsRefusedNamingTheParameterAndTheValue() throws Exception {
    Path staging = staging("staging");
    Path out = temp.resolve("dist");
    int refusals = 0;
    for (char c : HeaderValues.LINE_BREAKS.toCharArray()) {
      String value = "x" + c + "Requires-Dist: evil-pkg";
      Map<String, java.util.function.Supplier<Object>> parameters = new java.util.LinkedHashMap<>();
      parameters.put("distribution", () -> new PackRequest(staging, value, "2.9.0", null, null, null,
          "manylinux_2_34_x86_64", null, null, 6, out, TIME, null));
      parameters.put("version", () -> PackRequest.of(staging, "transformer_engine", value, "manylinux_2_34_x86_64", out));
      parameters.put("pythonTag", () -> new PackRequest(staging, "te", "1", null, value, null, "linux_x86_64", null,
          null, 6, out, TIME, null));
      parameters.put("abiTag", () -> new PackRequest(staging, "te", "1", null, null, value, "linux_x86_64", null,
          null, 6, out, TIME, null));
      parameters.put("platformTag", () -> PackRequest.of(staging, "te", "1", value, out));
      parameters.put("generator", () -> new PackRequest(staging, "te", "1", null, null, null, "linux_x86_64", null,
          null, 6, out, TIME, value));
      parameters.put("summary", () -> new Metadata.Fields(value, null, null, null, null));
      parameters.put("requiresPython", () -> new Metadata.Fields(null, value, null, null, null));
      parameters.put("requiresDist", () -> new Metadata.Fields(null, null, List.of("numpy", value), null, null));
      parameters.put("license", () -> new Metadata.Fields(null, null, null, value, null));
      parameters.put("homePage", () -> new Metadata.Fields(null, null, null, null, value));
      for (var parameter : parameters.entrySet()) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parameter.getValue().get(),
            parameter.getKey() + " with U+" + Integer.toHexString(c));
        String escaped = dev.tewheel.json.Printable.text(value);
        assertTrue(e.getMessage().startsWith(parameter.getKey() + " = '" + escaped + "'"), e.getMessage());
        assertTrue(e.getMessage().contains(String.format("U+%04X %s, at character 2", (int) c,
            Character.getName(c))) && e.getMessage().contains("expected one line: remove the line break"),
            e.getMessage());
        assertTrue(e.getMessage().chars().noneMatch(ch -> HeaderValues.LINE_BREAKS.indexOf(ch) >= 0),
            "the message itself is one line: " + e.getMessage());
        refusals++;
      }
      if (c == '\n') {
        continue; // in a given METADATA, LF is what ends a header
      }
      // A given METADATA is held to the same rule in its header lines.
      Path metadata = Files.writeString(temp.resolve("METADATA"), "Metadata-Version: 2.1\nName: te\nVersion: 1\n"
          + "Summary: " + value + "\n\nA description may hold" + c + "anything.\n");
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new WheelPacker().pack(
          PackRequest.of(staging, "te", "1", "linux_x86_64", out).withMetadataFile(metadata)));
      assertTrue(e.getMessage().startsWith(metadata + " line 4 ('Summary: "
          + dev.tewheel.json.Printable.text(value) + "') holds a line break"), e.getMessage());
    }
    assertEquals(11 * HeaderValues.LINE_BREAKS.length(), refusals);
    assertFalse(Files.exists(out), "nothing was written");
  }

  /**
   * The oracle: pack writes METADATA and WHEEL from generated values holding every other control character, format
   * character and a few more (each between two letters), and Python's email parser and importlib.metadata, reading
   * the wheel's bytes, must yield exactly the fields given, in order.
   */
  @Test
  void pythonsEmailParserReadsExactlyTheFieldsPackWasGiven() throws Exception {
    List<String> requirements = new ArrayList<>();
    List<Integer> codePoints = new ArrayList<>();
    for (int c = 0; c <= 0xa0; c++) {
      codePoints.add(c);
    }
    codePoints.addAll(List.of(0x200b, 0x200e, 0x202e, 0x2066, 0x2027, 0x202a, 0x2030, 0xfeff, 0xfffd, 0x1f600));
    for (int c : codePoints) {
      if (c > 0xffff || HeaderValues.LINE_BREAKS.indexOf(c) < 0) {
        requirements.add("pkg" + c + " ; extra == 'a" + new String(Character.toChars(c)) + "b'");
      }
    }
    Metadata.Fields fields = new Metadata.Fields("Caf\u00e9: =?utf-8?q?Requires-Dist=3A_evil?= \u202eevil\u202c",
        ">=3.9", requirements, "Apache-2.0\tor MIT", "https://example.invalid/te?a=b:c");
    PackRequest request = new PackRequest(staging("staging"), "transformer_engine", "2.9.0+local.1", 12, "py3",
        "none", "manylinux_2_34_x86_64.manylinux2014_x86_64", null, fields, 6, temp.resolve("dist"), TIME,
        "te-wheel 0.1.0 (t\u00e9st)");
    Path whl = new WheelPacker().pack(request).wheel();
    List<List<String>> metadata = new ArrayList<>(List.of(List.of("Metadata-Version", "2.1"),
        List.of("Name", "transformer_engine_cu12"), List.of("Version", "2.9.0+local.1"),
        List.of("Summary", fields.summary()), List.of("Home-page", fields.homePage()),
        List.of("License", fields.license()), List.of("Requires-Python", ">=3.9")));
    requirements.forEach(r -> metadata.add(List.of("Requires-Dist", r)));
    List<List<String>> wheel = List.of(List.of("Wheel-Version", "1.0"), List.of("Generator", request.generator()),
        List.of("Root-Is-Purelib", "false"), List.of("Tag", "py3-none-manylinux_2_34_x86_64"),
        List.of("Tag", "py3-none-manylinux2014_x86_64"));
    String read = run(List.of(DEBIAN_PYTHON, "-c", String.join("\n",
        "import email.parser, importlib.metadata, json, sys, zipfile",
        "whl, info = sys.argv[1], sys.argv[2]",
        "z = zipfile.ZipFile(whl)",
        "out = {}",
        "for name in ('METADATA', 'WHEEL'):",
        "    text = z.read(info + '/' + name).decode('utf-8')",
        "    out[name] = [[k, v] for k, v in email.parser.Parser().parsestr(text).items()]",
        "dist = importlib.metadata.PathDistribution(zipfile.Path(whl, info + '/'))",
        "out['importlib'] = [[k, v] for k, v in dist.metadata.items()]",
        "out['requires'] = dist.requires",
        "print(json.dumps(out))"), whl.toString(), request.distInfo()));
    Map<?, ?> parsed = (Map<?, ?>) dev.tewheel.json.Json.parse(read);
    assertEquals(metadata, parsed.get("METADATA"), "email.parser on METADATA");
    assertEquals(metadata, parsed.get("importlib"), "importlib.metadata on METADATA");
    assertEquals(requirements, parsed.get("requires"));
    assertEquals(wheel, parsed.get("WHEEL"), "email.parser on WHEEL");
  }

  private static String python(String code, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("python3", "-c", code));
    command.addAll(List.of(args));
    return run(command);
  }

  private static String run(List<String> command) throws Exception {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertTrue(process.waitFor(120, TimeUnit.SECONDS), String.join(" ", command) + " timed out");
    assertEquals(0, process.exitValue(), String.join(" ", command) + ":\n" + out);
    return out;
  }
}
