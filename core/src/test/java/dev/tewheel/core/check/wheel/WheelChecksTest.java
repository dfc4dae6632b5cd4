package dev.tewheel.core.check.wheel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.core.check.Check;
import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Judged;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.verify.FolderSubject;
import dev.tewheel.core.verify.WheelSubject;
import dev.tewheel.core.wheel.RawZip;
import dev.tewheel.core.wheel.RecordFile;
import dev.tewheel.core.wheel.TestWheel;
import dev.tewheel.core.zip.WheelArchive;
import dev.tewheel.core.zip.ZipBombBounds;
import dev.tewheel.core.wheel.ZipBytes;
import dev.tewheel.standins.StandIns;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/** The wheel-level checks on real wheels: a good one passes, each hostile one is rejected by its ID. */
public class WheelChecksTest {
  private static final String EP = TestWheel.PREFIX + "/libnccl_ep.so";
  private static final byte[] EVIL = "\177ELF evil".getBytes(StandardCharsets.US_ASCII);

  private static final String DIST_INFO = "transformer_engine_cu12-2.9.0.dist-info";

  @TempDir Path temp;

  /** A hostile wheel: how to build it, what to do to the written file, the check that must reject it. */
  private record Case(String name, Builder build, PostWrite post, String id, String fileSuffix, String found) {}

  private interface Builder {
    void apply(TestWheel wheel) throws IOException;
  }

  private interface PostWrite {
    void apply(Path whl) throws IOException;
  }

  static List<Finding> run(Path whl) throws IOException {
    try (WheelSubject wheel = WheelSubject.open(whl, TestWheel.PREFIX, Layout.DEFAULT, CheckSettings.defaults())) {
      return Judged.findings(wheel.subject(), Map.of());
    }
  }

  private static List<Finding> wheelFindings(List<Finding> findings) {
    return findings.stream().filter(f -> f.checkId().startsWith("WHEEL-")).toList();
  }

  @Test
  void aGoodWheelPassesEveryWheelCheck() throws Exception {
    Path whl = TestWheel.standIns().write(temp);
    List<Finding> findings = run(whl);
    assertEquals(List.of(), wheelFindings(findings));
    assertEquals(List.of(), findings.stream().filter(f -> f.severity() == Severity.ERROR).toList());
  }

  @Test
  void theWheelChecksHaveNothingToSayOfAFolder() throws Exception {
    Subject folder = FolderSubject.read(StandIns.ncclEpHome(), Layout.EP_HOME, CheckSettings.defaults());
    for (Check check : List.of(new WheelRecordCheck(), new WheelPathsCheck(), new WheelTagsCheck(),
        new WheelBombCheck())) {
      assertEquals(List.of(), check.run(folder), check.id());
    }
  }

  @TestFactory
  Stream<DynamicTest> eachHostileWheelIsRejectedByItsCheckAndNothingIsWritten() {
    String zeros64 = "A".repeat(43);
    List<Case> cases = List.of(
        new Case("zip-slip", w -> w.add("../../evil.so", EVIL), null,
            "WHEEL-PATHS", "!../../evil.so", "a '..' segment in the entry name"),
        new Case("zip-slip inside wheel_lib", w -> w.add(TestWheel.PREFIX + "/../../../evil.so", EVIL), null,
            "WHEEL-PATHS", "!" + TestWheel.PREFIX + "/../../../evil.so", "a '..' segment in the entry name"),
        new Case("absolute path", w -> w.add("/tmp/evil.so", EVIL), null,
            "WHEEL-PATHS", "!/tmp/evil.so", "an absolute entry name"),
        new Case("backslash", w -> w.add("transformer_engine|..|evil.so", EVIL, ZipArchiveEntry.DEFLATED, -1)
            .recordField("transformer_engine|..|evil.so", 0, "transformer_engine\\..\\evil.so"),
            whl -> ZipBytes.rename(whl, "transformer_engine|..|evil.so", "transformer_engine\\..\\evil.so"),
            "WHEEL-PATHS", "!transformer_engine\\..\\evil.so", "a backslash in the entry name"),
        new Case("drive letter", w -> w.add("C:/Windows/evil.so", EVIL), null,
            "WHEEL-PATHS", "!C:/Windows/evil.so", "an entry name with the drive letter C:"),
        new Case("symlink entry", w -> w.addSymlink(TestWheel.PREFIX + "/libnccl_ep.so.0", "/etc/passwd"), null,
            "WHEEL-PATHS", "!" + TestWheel.PREFIX + "/libnccl_ep.so.0", "a symbolic link entry (unix mode 0120000)"),
        new Case("duplicate entry names", w -> w.add("transformer_engine/__init__.py", EVIL), null,
            "WHEEL-PATHS", "!transformer_engine/__init__.py", "a second entry with the same name"),
        new Case("case collision", w -> w.add("transformer_engine/A.txt", EVIL).add("transformer_engine/a.txt", EVIL),
            null, "WHEEL-PATHS", "!transformer_engine/a.txt",
            "a name that differs from the entry transformer_engine/A.txt only in case"),
        new Case("RECORD hash mismatch", w -> w.recordField(EP, 1, "sha256=" + zeros64), null,
            "WHEEL-RECORD", "!" + EP, "sha256="),
        new Case("RECORD size mismatch", w -> w.recordField(EP, 2, "1234"), null,
            "WHEEL-RECORD", "!" + EP, " bytes"),
        new Case("missing RECORD row", w -> w.addUnlisted("transformer_engine/extra.py", EVIL), null,
            "WHEEL-RECORD", "!transformer_engine/extra.py", "an entry that RECORD does not list"),
        new Case("RECORD row for a missing file", w -> w.editRecord(rows -> {
          List<List<String>> edited = new ArrayList<>(rows);
          edited.add(0, List.of("transformer_engine/ghost.py", "sha256=" + zeros64, "5"));
          return edited;
        }), null, "WHEEL-RECORD", "!transformer_engine/ghost.py",
            "a RECORD row (line 1) for an entry the wheel does not have"),
        new Case("missing RECORD", TestWheel::withoutRecord, null,
            "WHEEL-RECORD", "!transformer_engine_cu12-2.9.0.dist-info/RECORD", "no RECORD"),
        new Case("dist-info name mismatch", w -> w.distInfo("transformer_engine-2.9.0.dist-info"), null,
            "WHEEL-TAGS", "!transformer_engine-2.9.0.dist-info/",
            "dist-info folder transformer_engine-2.9.0.dist-info"),
        new Case("METADATA missing", w -> w.recordField(DIST_INFO + "/METADATA", 0, DIST_INFO + "/mETADATA"),
            whl -> ZipBytes.rename(whl, DIST_INFO + "/METADATA", DIST_INFO + "/mETADATA"),
            "WHEEL-TAGS", "!" + DIST_INFO + "/METADATA", "no METADATA file"),
        new Case("METADATA names another distribution", w -> w.distInfo("transformer_engine-2.9.0.dist-info"), null,
            "WHEEL-TAGS", "!transformer_engine-2.9.0.dist-info/METADATA", "Name: transformer_engine"),
        new Case("WHEEL Tag mismatch", w -> w.wheelText(
            "Wheel-Version: 1.0\nGenerator: bdist_wheel\nRoot-Is-Purelib: false\nTag: py3-none-linux_x86_64\n"), null,
            "WHEEL-TAGS", "!transformer_engine_cu12-2.9.0.dist-info/WHEEL",
            "Tag: py3-none-linux_x86_64 (missing py3-none-manylinux_2_28_x86_64)"),
        new Case("zip bomb: an entry declaring 3.75 GiB", w -> { }, whl -> ZipBytes.declareSize(whl, EP, 0xF000_0000L),
            "WHEEL-BOMB", "!" + EP, "4026531840 bytes (3.8 GiB) declared from "),
        new Case("NUL in a name", w -> w.add(EP + "\0txt", EVIL), null, "WHEEL-PATHS", "!" + EP + "\0txt",
            "a NUL byte in the entry name: Python's zipfile, so pip, cuts the name there and installs this entry as '"
                + EP + "'"),
        new Case("newline in a name", w -> w.add("transformer_engine/x\n[INFO] BUILD SUCCESS", EVIL), null,
            "WHEEL-PATHS", "!transformer_engine/x\n[INFO] BUILD SUCCESS",
            "a control character (U+000A) in the entry name"),
        new Case("local header names another file", w -> { }, rewrite(z -> z.entry(EP).localName =
            "transformer_engine/wheel_lib/evil.so".getBytes(StandardCharsets.UTF_8)), "WHEEL-ZIP", "!" + EP,
            "a local header naming 'transformer_engine/wheel_lib/evil.so'"),
        new Case("local header declares other sizes", w -> { }, rewrite(z -> z.entry(EP).localCrc = 7),
            "WHEEL-ZIP", "!" + EP, "CRC-32 00000007 in the local header"),
        new Case("data descriptor disagrees", w -> { }, rewrite(z -> {
          z.entry(EP).descriptor = true;
          z.entry(EP).descriptorCompressedSize = 3;
        }), "WHEEL-ZIP", "!" + EP, "3 compressed bytes in the data descriptor"),
        new Case("CRC-32 of the data", w -> { }, rewrite(z -> z.entry(EP).centralCrc = 0), "WHEEL-ZIP", "!" + EP,
            "data whose CRC-32 is "),
        new Case("trailing bytes", w -> { }, rewrite(z -> z.trailer = new byte[] {1, 2, 3}), "WHEEL-ZIP", "",
            "3 bytes after the end of central directory record"),
        new Case("bytes before the first entry", w -> { }, rewrite(z -> z.prefix = new byte[64]), "WHEEL-ZIP",
            "!transformer_engine/__init__.py", "64 bytes (0 to 64) before the first entry"),
        new Case("a local entry the central directory does not list", w -> { }, rewrite(z -> {
          RawZip.Entry hidden = RawZip.stored(EP, EVIL);
          hidden.central = false;
          z.entries.add(1, hidden);
        }), "WHEEL-ZIP", "!" + TestWheel.PREFIX + "/libtransformer_engine.so",
            "between it and transformer_engine/__init__.py that no entry of the central directory holds"),
        new Case("two central records of one local entry", w -> { }, rewrite(z -> {
          RawZip.Entry twin = RawZip.stored("transformer_engine/twin.py", new byte[0]);
          twin.written = false;
          twin.centralOffset = 0;
          z.entries.add(twin);
        }), "WHEEL-ZIP", "!transformer_engine/__init__.py", "shared with transformer_engine/twin.py"),
        new Case("non-ASCII name without the UTF-8 flag", w -> w.add("transformer_engine/caf\u00e9.py", EVIL),
            rewrite(z -> z.entry("transformer_engine/caf\u00e9.py").flags = 0), "WHEEL-ZIP",
            "!transformer_engine/caf\u00e9.py", "a non-ASCII name without the UTF-8 flag (general purpose bit 11),"
                + " which Python's zipfile, so pip, reads as cp437: 'transformer_engine/caf\u251c\u2310.py'"),
        new Case("ZIP64 end record declaring another entry count", TestWheel::zip64,
            whl -> ZipBytes.bumpZip64EntryCount(whl, 1), "WHEEL-ZIP", "", "ZIP64 end record"),
        new Case("zip bomb: many high-ratio entries", w -> {
          for (int i = 0; i < 80; i++) {
            w.add("transformer_engine/data/z" + i + ".bin", new byte[1 << 20]);
          }
        }, null, "WHEEL-BOMB", "", " over all entries"));
    return cases.stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> {
      Path folder = Files.createDirectories(temp.resolve(c.name().replaceAll("[^A-Za-z0-9]+", "-")));
      TestWheel wheel = TestWheel.standIns();
      c.build().apply(wheel);
      Path whl = wheel.write(folder);
      if (c.post() != null) {
        c.post().apply(whl);
      }
      List<Finding> findings = run(whl);
      List<Finding> matching = findings.stream().filter(f -> f.checkId().equals(c.id())
          && f.file().equals(whl + c.fileSuffix()) && f.found().contains(c.found())).toList();
      assertFalse(matching.isEmpty(), c.name() + ": no " + c.id() + " finding on " + whl + c.fileSuffix()
          + " containing '" + c.found() + "' in " + findings);
      assertEquals(Severity.ERROR, matching.get(0).severity());
      try (Stream<Path> left = Files.list(folder)) {
        assertEquals(List.of(whl), left.toList(), "nothing extracted beside the wheel");
      }
      for (Path evil : List.of(folder.resolve("../../evil.so").normalize(), folder.resolve("../evil.so").normalize(),
          temp.resolve("evil.so"), Path.of("evil.so").toAbsolutePath(), Path.of("/tmp/evil.so"))) {
        assertFalse(Files.exists(evil), evil + " was written");
      }
    }));
  }

  /** Rewrites the written wheel byte by byte after {@code edit}. */
  private static PostWrite rewrite(java.util.function.Consumer<RawZip> edit) {
    return whl -> {
      RawZip zip = RawZip.copyOf(whl);
      edit.accept(zip);
      zip.write(whl);
    };
  }

  @Test
  void wheelsWithZip64RecordsOrDataDescriptorsReadOneWay() throws Exception {
    for (TestWheel wheel : List.of(TestWheel.standIns().zip64(), TestWheel.standIns().streamed())) {
      Path folder = Files.createTempDirectory(temp, "w");
      Path whl = wheel.write(folder);
      try (WheelArchive archive = WheelArchive.open(whl)) {
        assertEquals(List.of(), archive.zipProblems(), whl.toString());
      }
      assertEquals(List.of(), wheelFindings(run(whl)));
    }
  }

  @Test
  void everyRecordProblemIsReportedNotJustTheFirst() throws Exception {
    Path whl = TestWheel.standIns()
        .recordField(EP, 1, "sha256=" + "B".repeat(43))
        .recordField(TestWheel.PREFIX + "/libtransformer_engine.so", 2, "7")
        .recordField("transformer_engine/__init__.py", 1, "md5=1B2M2Y8AsgTpgAmY7PhCfg")
        .recordField("transformer_engine_cu12-2.9.0.dist-info/RECORD", 1, "sha256=" + "C".repeat(43))
        .addUnlisted("transformer_engine/stray.py", EVIL)
        .write(temp);
    List<Finding> record = run(whl).stream().filter(f -> f.checkId().equals("WHEEL-RECORD")).toList();
    assertEquals(List.of(
        whl + "!transformer_engine/__init__.py: hash 'md5=1B2M2Y8AsgTpgAmY7PhCfg' in RECORD (line 1)",
        whl + "!" + TestWheel.PREFIX + "/libtransformer_engine.so: " + Files.size(StandIns.transformerEngine())
            + " bytes",
        whl + "!" + EP + ": sha256=" + TestWheel.recordDigest(StandIns.ncclEpLibrary()),
        whl + "!transformer_engine/stray.py: an entry that RECORD does not list",
        whl + "!transformer_engine_cu12-2.9.0.dist-info/RECORD: its own RECORD row with hash 'sha256=" + "C".repeat(43)
            + "' and size ''"),
        record.stream().map(f -> f.file() + ": " + f.found()).toList());
  }

  @Test
  void recordFieldsMayBeQuoted() throws Exception {
    Path whl = TestWheel.standIns()
        .add("transformer_engine/data/a,b \"c\".txt", "quoted".getBytes(StandardCharsets.UTF_8))
        .write(temp);
    try (WheelSubject wheel = WheelSubject.open(whl, TestWheel.PREFIX, Layout.DEFAULT, CheckSettings.defaults())) {
      assertTrue(wheel.archive().text("transformer_engine_cu12-2.9.0.dist-info/RECORD", 1 << 20).orElseThrow()
          .contains("\"transformer_engine/data/a,b \"\"c\"\".txt\","), "RECORD quotes the name");
    }
    assertEquals(List.of(), wheelFindings(run(whl)));
  }

  @Test
  void aRecordThatIsNotCsvIsOneFinding() throws Exception {
    Path whl = TestWheel.standIns().editRecordText(text -> text.replaceFirst("\n", "\n\"transformer_engine/open,x,1\n"))
        .write(temp);
    List<Finding> record = run(whl).stream().filter(f -> f.checkId().equals("WHEEL-RECORD")).toList();
    assertEquals(1, record.size(), record.toString());
    assertTrue(record.get(0).found().startsWith("a RECORD that is not CSV (the quote opened on line 2 is never closed"),
        record.get(0).found());
  }

  @Test
  void wheelFileProblemsAreEachReported() throws Exception {
    Path whl = TestWheel.standIns()
        .fileName("transformer_engine_cu12-2.9.0-7-py3-none-manylinux_2_28_x86_64.manylinux2014_x86_64.whl")
        .wheelText("Wheel-Version: 2.0\nRoot-Is-Purelib: true\nTag: py3-none-manylinux_2_28_x86_64\n"
            + "Tag: py3-none-any\n")
        .write(temp);
    List<String> tags = run(whl).stream().filter(f -> f.checkId().equals("WHEEL-TAGS")).map(Finding::found).toList();
    assertEquals(List.of("Wheel-Version: 2.0", "Root-Is-Purelib: true",
        "Tag: py3-none-any, py3-none-manylinux_2_28_x86_64 (missing py3-none-manylinux2014_x86_64) (not in the file"
            + " name: py3-none-any)", "no Build line"), tags);
  }

  @Test
  void compressedTagSetsAndBuildTagsPass() throws Exception {
    Path whl = TestWheel.standIns()
        .fileName("transformer_engine_cu12-2.9.0-7-py3-none-manylinux_2_28_x86_64.manylinux2014_x86_64.whl")
        .write(temp);
    assertEquals(List.of(), wheelFindings(run(whl)));
  }

  @Test
  void aBadFileNameAndTwoDistInfoFoldersAreReported() throws Exception {
    Path whl = TestWheel.standIns()
        .fileName("transformer-engine-2.9.0.whl")
        .wheelText("Wheel-Version: 1.0\nRoot-Is-Purelib: false\nTag: py3-none-any\n")
        .add("other-1.0.dist-info/METADATA", EVIL)
        .write(temp);
    List<Finding> tags = run(whl).stream().filter(f -> f.checkId().equals("WHEEL-TAGS")).toList();
    assertEquals(2, tags.size(), tags.toString());
    assertEquals("a file name PEP 427 does not allow: it has 3 '-'-separated parts, not 5 or 6 (a '-' inside the"
        + " distribution or version must be written '_')", tags.get(0).found());
    assertEquals("2 dist-info folders (other-1.0.dist-info, transformer_engine_cu12-2.9.0.dist-info)",
        tags.get(1).found());
  }

  @Test
  void aMissingWheelFileIsReported() throws Exception {
    Path whl = TestWheel.standIns().editRecord(rows -> rows).write(temp);
    // Rebuild without WHEEL: RECORD still lists it, so WHEEL-RECORD reports the row too.
    Path stripped = temp.resolve("stripped");
    Files.createDirectories(stripped);
    Path copy = stripped.resolve(whl.getFileName());
    try (var in = org.apache.commons.compress.archivers.zip.ZipFile.builder().setPath(whl).get();
        var out = new org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream(copy)) {
      in.copyRawEntries(out, e -> !e.getName().endsWith(".dist-info/WHEEL"));
    }
    List<Finding> findings = run(copy);
    assertTrue(findings.stream().anyMatch(f -> f.checkId().equals("WHEEL-TAGS") && f.found().equals("no WHEEL file")),
        findings.toString());
    assertTrue(findings.stream().anyMatch(f -> f.checkId().equals("WHEEL-RECORD")
        && f.file().endsWith(".dist-info/WHEEL") && f.found().contains("does not have")), findings.toString());
  }

  @Test
  void theBombBoundsHoldTheTotalAndTheEntryCount() {
    List<WheelArchive.Entry> entries = List.of(
        new WheelArchive.Entry("a.so", 600L << 20, 200L << 20, false, false, java.util.OptionalInt.empty(), false),
        new WheelArchive.Entry("b.so", 600L << 20, 150L << 20, false, false, java.util.OptionalInt.empty(), false));
    assertEquals(List.of(), ZipBombBounds.DEFAULTS.problems(entries), "real libraries pass");
    List<ZipBombBounds.Problem> problems = new ZipBombBounds(1L << 30, 1, 200, 64L << 20).problems(entries);
    assertEquals(List.of("2 entries", "entries declaring 1258291200 bytes in total (1.2 GiB)"),
        problems.stream().map(ZipBombBounds.Problem::found).toList());
    assertEquals(List.of("at most 1 entries", "at most 1073741824 bytes (1.0 GiB) uncompressed"),
        problems.stream().map(ZipBombBounds.Problem::expected).toList());
    // A small file may compress as well as it likes.
    assertEquals(List.of(), ZipBombBounds.DEFAULTS.problems(List.of(new WheelArchive.Entry("zeros.h", 1L << 20, 1000,
        false, false, java.util.OptionalInt.empty(), false))));
  }

  @Test
  void inAnArchiveOverTheRatioBoundOnlyTheHighRatioEntriesAreRefused() throws Exception {
    TestWheel wheel = TestWheel.standIns();
    for (int i = 0; i < 80; i++) {
      wheel.add("transformer_engine/data/z" + i + ".bin", new byte[1 << 20]);
    }
    List<Finding> findings = run(wheel.write(temp));
    assertEquals(List.of("WHEEL-RECORD", "WHEEL-BOMB"), findings.stream().filter(f -> f.severity() == Severity.ERROR)
        .map(Finding::checkId).toList(), "the libraries and headers compress normally and stay readable: " + findings);
    Finding record = findings.stream().filter(f -> f.checkId().equals("WHEEL-RECORD")).findFirst().orElseThrow();
    assertEquals("the sha256 of 80 entries not verified: they are over the zip-bomb bounds and were not inflated"
        + " (see WHEEL-BOMB)", record.found());
  }

  @Test
  void whatIsNotInflatedFollowsTheBoundThatIsCrossed() {
    java.util.OptionalInt none = java.util.OptionalInt.empty();
    WheelArchive.Entry library = new WheelArchive.Entry("lib.so", 300L << 20, 75L << 20, false, false, none, false);
    WheelArchive.Entry zeros = new WheelArchive.Entry("zeros.bin", 1L << 20, 1 << 10, false, false, none, false);
    WheelArchive.Entry header = new WheelArchive.Entry("a.h", 10_000, 2_000, false, false, none, false);
    ZipBombBounds defaults = ZipBombBounds.DEFAULTS;
    assertEquals("{}", defaults.notToInflate(List.of(library, zeros, header)).toString());
    List<WheelArchive.Entry> many = new ArrayList<>();
    many.add(header);
    for (int i = 0; i < 100; i++) {
      many.add(zeros);
    }
    java.util.BitSet refused = defaults.notToInflate(many);
    assertEquals(100, refused.cardinality());
    assertFalse(refused.get(0), "the header compresses 5:1 and stays readable");
    ZipBombBounds tight = new ZipBombBounds(1L << 30, 100_000, 200, 64L << 20);
    assertEquals("{0, 1, 2}", tight.notToInflate(List.of(library, library, header, library, library)).get(0, 3).toString(), "over the total: nothing is inflated");
  }

  @Test
  void csvParsingFollowsPythonsCsvModule() {
    List<RecordFile.Row> rows = RecordFile.parse(
        "a,sha256=x,1\r\n\"b,c\",\"sha256=\"\"y\"\"\",2\n\n\"multi\nline\",,\nlast,,");
    assertEquals(List.of(List.of("a", "sha256=x", "1"), List.of("b,c", "sha256=\"y\"", "2"),
        List.of("multi\nline", "", ""), List.of("last", "", "")), rows.stream().map(RecordFile.Row::fields).toList());
    assertEquals(List.of(1, 2, 4, 6), rows.stream().map(RecordFile.Row::line).toList());
  }
}
