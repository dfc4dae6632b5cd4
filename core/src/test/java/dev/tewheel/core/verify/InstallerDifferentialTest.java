package dev.tewheel.core.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.tewheel.bundle.io.Sha256;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.GateReport;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.wheel.DebianPython;
import dev.tewheel.core.wheel.RawZip;
import dev.tewheel.core.wheel.RecordFile;
import dev.tewheel.core.wheel.TestWheel;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.zip.ZipFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The gate agrees with the installers. Each wheel below, good or hostile, is verified and installed by the real
 * installers of this machine, Debian's {@code /usr/bin/python3 -m pip install --target} and
 * {@code /usr/bin/python3 -m wheel unpack}. When verify passes, both must install exactly the files RECORD lists,
 * byte for byte; when an installer refuses the wheel or installs anything else, verify must have failed, with a
 * named check ID. Hostile wheels are made here, byte by byte where Commons Compress would not write them.
 */
class InstallerDifferentialTest {
  private static final String PYTHON = DebianPython.PYTHON;
  private static final String EP = TestWheel.PREFIX + "/libnccl_ep.so";
  private static final String DIST_INFO = "transformer_engine_cu12-2.9.0.dist-info";
  /** A tag the stand-ins (built on this machine's glibc) satisfy, so that only the shape decides the verdict. */
  private static final String FILE_NAME = "transformer_engine_cu12-2.9.0-py3-none-manylinux_2_34_x86_64.whl";
  private static final byte[] EVIL = "\177ELF evil".getBytes(StandardCharsets.US_ASCII);
  private static final Path ABSOLUTE = Path.of("/tmp/te-wheel-differential-" + ProcessHandle.current().pid()
      + ".txt");

  @TempDir Path temp;

  /** A way to make a wheel in a folder. */
  private interface Maker {
    Path make(Path folder) throws IOException;
  }

  /** Each wheel, and the check ID verify must fail it with (null: a good wheel, which must pass). */
  enum Shape {
    GOOD(null, folder -> wheel().write(folder)),
    GOOD_REWRITTEN_BYTE_BY_BYTE(null, folder -> raw(folder, zip -> { })),
    GOOD_ZIP64(null, folder -> wheel().zip64().write(folder)),
    GOOD_WITH_DATA_DESCRIPTORS(null, folder -> wheel().streamed().write(folder)),
    NUL_IN_NAME("WHEEL-PATHS", folder -> wheel().add(EP + "\0txt", EVIL).write(folder)),
    NEWLINE_IN_NAME("WHEEL-PATHS", folder -> wheel()
        .add("transformer_engine/x\n[INFO] BUILD SUCCESS", EVIL).write(folder)),
    LOCAL_HEADER_NAMES_ANOTHER_FILE("WHEEL-ZIP", folder -> raw(folder,
        zip -> zip.entry(EP).localName = "transformer_engine/wheel_lib/evil.so".getBytes(StandardCharsets.UTF_8))),
    DUPLICATE_ENTRY("WHEEL-PATHS", folder -> wheel().add(EP, EVIL).write(folder)),
    OVERLAPPING_ENTRIES("WHEEL-ZIP", folder -> raw(folder, InstallerDifferentialTest::overlap)),
    RECORD_HASH_MISMATCH("WHEEL-RECORD", folder -> wheel()
        .recordField(EP, 1, "sha256=" + "A".repeat(43)).write(folder)),
    PATH_LEAVING_THE_ROOT("WHEEL-PATHS", folder -> wheel().add("../x", EVIL).write(folder)),
    ABSOLUTE_PATH("WHEEL-PATHS", folder -> wheel().add(ABSOLUTE.toString(), EVIL).write(folder)),
    SYMLINK_ENTRY("WHEEL-PATHS", folder -> wheel()
        .addSymlink(TestWheel.PREFIX + "/libnccl_ep.so.0", "libnccl_ep.so").write(folder)),
    TRAILING_GARBAGE("WHEEL-ZIP", folder -> raw(folder,
        zip -> zip.trailer = "trailing garbage".getBytes(StandardCharsets.US_ASCII))),
    DATA_BEFORE_THE_FIRST_ENTRY("WHEEL-ZIP", folder -> raw(folder, zip -> zip.prefix = new byte[64])),
    DATA_DESCRIPTOR_DISAGREES("WHEEL-ZIP", folder -> raw(folder, zip -> {
      RawZip.Entry entry = zip.entry(EP);
      entry.descriptor = true;
      entry.descriptorCrc = entry.crc ^ 1;
    })),
    CRC_DISAGREES_WITH_THE_DATA("WHEEL-ZIP", folder -> raw(folder, zip -> zip.entry(EP).centralCrc =
        zip.entry(EP).crc ^ 1)),
    LOCAL_ENTRY_THE_CENTRAL_DIRECTORY_DOES_NOT_LIST("WHEEL-ZIP", folder -> raw(folder, zip -> {
      RawZip.Entry hidden = RawZip.stored(EP, EVIL);
      hidden.central = false;
      zip.entries.add(0, hidden);
    })),
    ZIP64_END_RECORD_DISAGREES("WHEEL-ZIP", folder -> {
      Path whl = wheel().zip64().write(folder);
      dev.tewheel.core.wheel.ZipBytes.bumpZip64EntryCount(whl, 1);
      return whl;
    }),
    TRUNCATED("WHEEL-ZIP", folder -> {
      Path whl = wheel().write(folder);
      byte[] bytes = Files.readAllBytes(whl);
      return Files.write(whl, java.util.Arrays.copyOf(bytes, bytes.length / 2));
    }),
    NON_ASCII_NAME_WITHOUT_THE_UTF8_FLAG("WHEEL-ZIP", folder -> {
      Path good = wheel().add("transformer_engine/caf\u00e9.py", EVIL)
          .write(Files.createDirectories(folder.resolve("source")));
      RawZip zip = RawZip.copyOf(good);
      zip.entry("transformer_engine/caf\u00e9.py").flags &= ~0x800;
      Files.delete(good);
      Files.delete(folder.resolve("source"));
      return zip.write(folder.resolve(FILE_NAME));
    });

    final String id;
    final Maker maker;

    Shape(String id, Maker maker) {
      this.id = id;
      this.maker = maker;
    }
  }

  /** The stand-in libraries and headers, as a good wheel. */
  private static TestWheel wheel() throws IOException {
    return TestWheel.standIns().fileName(FILE_NAME);
  }

  /** The good stand-in wheel, rewritten by {@link RawZip} after {@code edit}. */
  private static Path raw(Path folder, java.util.function.Consumer<RawZip> edit) throws IOException {
    Path source = wheel().write(Files.createDirectories(folder.resolve("source")));
    RawZip zip = RawZip.copyOf(source);
    Files.delete(source);
    Files.delete(folder.resolve("source"));
    edit.accept(zip);
    return zip.write(folder.resolve(FILE_NAME));
  }

  /**
   * A stored entry whose data is the whole local record of {@code __init__.py}, which the central directory then
   * points into: both entries read consistently, their bytes overlap (the quoted-overlap shape of zip bombs).
   */
  private static void overlap(RawZip zip) {
    String inner = "transformer_engine/__init__.py";
    RawZip.Entry init = zip.entry(inner);
    byte[] record = RawZip.localRecord(init);
    RawZip.Entry outer = RawZip.stored("transformer_engine/overlap.bin", record);
    int at = zip.entries.indexOf(init);
    zip.entries.add(at, outer);
    init.written = false;
    init.centralOffset = zip.offsetOf(at) + 30 + outer.name.length;
    addRecordRow(zip, outer.name(), record);
  }

  /** Lists one more file in RECORD, rewritten as a stored entry. */
  private static void addRecordRow(RawZip zip, String name, byte[] bytes) {
    RawZip.Entry record = zip.entry(DIST_INFO + "/RECORD");
    String text;
    try (InputStream in = new java.util.zip.InflaterInputStream(new java.io.ByteArrayInputStream(record.data),
        new java.util.zip.Inflater(true))) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    text = name + "," + RecordFile.hash(Sha256.of(bytes)) + "," + bytes.length + "\n" + text;
    RawZip.Entry rewritten = RawZip.stored(record.name(), text.getBytes(StandardCharsets.UTF_8));
    zip.entries.set(zip.entries.indexOf(record), rewritten);
  }

  /** What an installer did: whether it succeeded, its output, and how the tree it wrote differs from RECORD. */
  private record Outcome(String tool, boolean succeeded, String output, List<String> differences) {
    boolean installedExactlyRecord() {
      return succeeded && differences.isEmpty();
    }

    @Override
    public String toString() {
      return tool + (succeeded ? " installed" + (differences.isEmpty() ? " exactly RECORD's files"
          : " other files than RECORD lists: " + differences) : " refused: "
          + DebianPython.lastLine(output));
    }
  }

  @BeforeAll
  static void installersArePresent() throws Exception {
    DebianPython.requireInstallers();
  }

  @ParameterizedTest
  @EnumSource(Shape.class)
  @Timeout(180)
  void theGatesVerdictIsWhatPipAndWheelUnpackDo(Shape shape) throws Exception {
    Path folder = Files.createDirectories(temp.resolve(shape.name()));
    Files.deleteIfExists(ABSOLUTE);
    Path whl = shape.maker.make(folder);
    Map<String, String> record = recordOf(whl);

    GateReport report;
    try {
      report = new Verifier().verify(VerifyRequest.wheel(whl));
    } catch (IOException e) {
      throw new AssertionError(shape + ": verify gave no verdict with a check ID but " + e, e);
    }
    List<Finding> errors = report.findings().stream().filter(f -> f.severity() == Severity.ERROR).toList();

    Outcome pip = pip(whl, folder.resolve("pip-target"), record);
    Outcome unpack = unpack(whl, folder.resolve("unpacked"), record);
    List<String> outside = writtenOutside(folder, whl);
    String verdict = shape + ": verify " + (report.passed() ? "PASSED" : "FAILED with " + errors.stream()
        .map(Finding::checkId).distinct().toList()) + "; " + pip + "; " + unpack
        + (outside.isEmpty() ? "" : "; written outside the target: " + outside);
    System.out.println(verdict.replace("\n", "\\n").replace("\0", "\\0"));

    if (report.passed()) {
      assertTrue(pip.installedExactlyRecord() && unpack.installedExactlyRecord() && outside.isEmpty(),
          "verify passed a wheel the installers do not install as RECORD lists: " + verdict);
    }
    if (!pip.installedExactlyRecord() || !unpack.installedExactlyRecord() || !outside.isEmpty()) {
      assertFalse(report.passed(), "an installer disagrees with RECORD, verify must fail: " + verdict);
      assertFalse(errors.isEmpty(), verdict);
    }
    if (shape.id == null) {
      assertTrue(report.passed(), verdict + "\n" + report.findings());
      assertTrue(pip.installedExactlyRecord() && unpack.installedExactlyRecord(), verdict);
    } else {
      assertTrue(errors.stream().anyMatch(f -> f.checkId().equals(shape.id)),
          "expected an error of " + shape.id + ": " + verdict + "\n" + errors);
    }
  }

  /**
   * RECORD's rows, path to hash, as the installers read them: the central directory's RECORD entry; none when the
   * file is no readable zip.
   */
  private static Map<String, String> recordOf(Path whl) throws IOException {
    try {
      ZipFile.builder().setPath(whl).get().close();
    } catch (IOException e) {
      return Map.of();
    }
    try (ZipFile zip = ZipFile.builder().setPath(whl).get();
        InputStream in = zip.getInputStream(zip.getEntry(DIST_INFO + "/RECORD"))) {
      Map<String, String> rows = new TreeMap<>();
      for (RecordFile.Row row : RecordFile.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8))) {
        rows.put(row.fields().get(0), row.fields().get(1));
      }
      return rows;
    }
  }

  private static Outcome pip(Path whl, Path target, Map<String, String> record) throws Exception {
    DebianPython.Result result = DebianPython.run(List.of(PYTHON, "-m", "pip", "install", "--no-index", "--no-deps",
        "--no-compile", "--disable-pip-version-check", "--no-warn-script-location", "--target", target.toString(),
        whl.toString()), whl.getParent(), 120);
    // pip adds its own files to the dist-info folder and rewrites RECORD.
    Set<String> added = Set.of("RECORD", "INSTALLER", "REQUESTED", "direct_url.json").stream()
        .map(name -> DIST_INFO + "/" + name).collect(Collectors.toSet());
    return new Outcome("pip", result.exit() == 0, result.output(),
        result.exit() == 0 ? differences(target, record, added) : List.of());
  }

  private static Outcome unpack(Path whl, Path target, Map<String, String> record) throws Exception {
    DebianPython.Result result = DebianPython.run(List.of(PYTHON, "-m", "wheel", "unpack", "-d",
        target.toString(), whl.toString()), whl.getParent(), 120);
    return new Outcome("wheel unpack", result.exit() == 0, result.output(), result.exit() == 0
        ? differences(target.resolve("transformer_engine_cu12-2.9.0"), record, Set.of(DIST_INFO + "/RECORD"))
        : List.of());
  }

  /** How the installed tree differs from RECORD's rows: files missing, added, of other bytes, not regular. */
  private static List<String> differences(Path root, Map<String, String> record, Set<String> allowed)
      throws IOException {
    List<String> differences = new ArrayList<>();
    Map<String, String> expected = new TreeMap<>(record);
    expected.remove(DIST_INFO + "/RECORD");
    if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
      return List.of("no folder " + root);
    }
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path file : walk.sorted().toList()) {
        BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class,
            LinkOption.NOFOLLOW_LINKS);
        if (attributes.isDirectory()) {
          continue;
        }
        String path = root.relativize(file).toString();
        String hash = expected.remove(path);
        if (!attributes.isRegularFile()) {
          differences.add(path + " is not a regular file");
        } else if (hash == null) {
          if (!allowed.contains(path)) {
            differences.add("a file RECORD does not list: " + path);
          }
        } else if (!hash.equals(RecordFile.hash(Sha256.of(file)))) {
          differences.add(path + " holds other bytes than RECORD lists");
        }
      }
    }
    expected.keySet().forEach(path -> differences.add("missing " + path));
    return differences;
  }

  /** Anything an installer wrote beside its target folder, or at the absolute path one wheel names. */
  private static List<String> writtenOutside(Path folder, Path whl) throws IOException {
    Set<Path> ours = Set.of(whl, folder.resolve("pip-target"), folder.resolve("unpacked"));
    List<String> outside = new ArrayList<>();
    try (Stream<Path> list = Files.list(folder)) {
      list.filter(p -> !ours.contains(p)).forEach(p -> outside.add(p.toString()));
    }
    if (Files.exists(ABSOLUTE, LinkOption.NOFOLLOW_LINKS)) {
      outside.add(ABSOLUTE.toString());
      Files.delete(ABSOLUTE);
    }
    return outside;
  }

  @org.junit.jupiter.api.Test
  @Timeout(60)
  void everyShapeIsMadeAsDescribed() throws Exception {
    // The byte-by-byte writer itself makes what Commons Compress makes: the same entries, names and bytes.
    Path good = Shape.GOOD.maker.make(Files.createDirectories(temp.resolve("a")));
    Path rewritten = Shape.GOOD_REWRITTEN_BYTE_BY_BYTE.maker.make(Files.createDirectories(temp.resolve("b")));
    assertEquals(recordOf(good), recordOf(rewritten));
  }
}
