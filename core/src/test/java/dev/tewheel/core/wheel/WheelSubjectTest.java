package dev.tewheel.core.wheel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.bundle.io.Sha256;
import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.core.assemble.AssembleRequest;
import dev.tewheel.core.assemble.Assembler;
import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.check.catalogue.CheckCatalogue;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Judged;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.verify.WheelSubject;
import dev.tewheel.core.zip.InflatingEntrySource;
import dev.tewheel.core.zip.WheelArchive;
import dev.tewheel.elf.ByteSource;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.standins.StandIns;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WheelSubjectTest {
  @TempDir Path temp;

  private static WheelSubject open(Path whl) throws IOException {
    return WheelSubject.open(whl, TestWheel.PREFIX, Layout.DEFAULT, CheckSettings.defaults());
  }

  @Test
  void theWheelLibEntriesAreTheSubjectsFilesWithTheElfFactsOfTheFiles() throws Exception {
    Path whl = TestWheel.standIns().write(temp);
    try (WheelSubject wheel = open(whl)) {
      Subject subject = wheel.subject();
      assertEquals("wheel_lib " + TestWheel.FILE_NAME + "!" + TestWheel.PREFIX, subject.description());
      assertEquals(Layout.DEFAULT, subject.layout());
      assertTrue(subject.manifest().isEmpty());
      assertTrue(subject.wheel().isPresent());
      assertEquals(TestWheel.FILE_NAME, wheel.archive().fileName());
      assertEquals(whl.toString(), wheel.archive().path());
      TreeSet<String> paths = subject.files().stream().map(SubjectFile::path)
          .collect(Collectors.toCollection(TreeSet::new));
      assertTrue(paths.contains("libtransformer_engine.so"), paths.toString());
      assertTrue(paths.contains("libnccl_ep.so"), paths.toString());
      assertTrue(paths.contains("nccl_ep/include/nccl_ep.h"), paths.toString());
      assertTrue(paths.contains("nccl_ep/include/nccl_ep/device/ll_ep.cuh"), paths.toString());
      assertFalse(paths.stream().anyMatch(p -> p.contains("dist-info") || p.contains("__init__")), paths.toString());

      SubjectFile te = subject.transformerEngineLibrary().orElseThrow();
      assertEquals(whl + "!" + TestWheel.PREFIX + "/libtransformer_engine.so", te.origin());
      assertEquals("libtransformer_engine.so", te.originName());
      assertEquals(Files.size(StandIns.transformerEngine()), te.size());
      assertEquals(OptionalInt.of(0755), te.mode());
      assertEquals(SubjectFile.EntryType.FILE, te.type());
      assertEquals(OptionalInt.of(0644), subject.ncclEpHeader().orElseThrow().mode());
      assertEquals(ElfFacts.of(ElfFile.read(StandIns.transformerEngine())), ElfFacts.of(subject.elf(te)));
      SubjectFile ep = subject.ncclEpLibrary().orElseThrow();
      assertEquals(ElfFacts.of(ElfFile.read(StandIns.ncclEpLibrary())), ElfFacts.of(subject.elf(ep)));
      assertEquals(Files.readString(StandIns.ncclEpHome().resolve("include/nccl_ep.h")),
          subject.text(subject.ncclEpHeader().orElseThrow()));
      try (InputStream in = ep.stream()) {
        assertEquals(TestWheel.recordDigest(StandIns.ncclEpLibrary()), TestWheel.recordDigest(in));
      }
      assertEquals(TestWheel.recordDigest(StandIns.ncclEpLibrary()),
          recordDigest(wheel.archive(), TestWheel.PREFIX + "/libnccl_ep.so"));
      assertEquals(0, subject.requiredNcclEpMajor().getAsInt());
    }
  }

  @Test
  @org.junit.jupiter.api.Timeout(value = 10, unit = java.util.concurrent.TimeUnit.MINUTES) // nvcc fixture
  void aLibraryIsInflatedOnceForItsDigestAndEveryElfAndFatBinaryRead() throws Exception {
    // A TE-shaped nvcc-built library (sm_80, sm_90, sm_120), grown by 8 MiB of incompressible data in a section of
    // its own so that its section header table sits at the end, as in a real TE library.
    Path payload = temp.resolve("payload.bin");
    byte[] random = new byte[8 << 20];
    new java.util.Random(25).nextBytes(random);
    Files.write(payload, random);
    Path te = temp.resolve("libtransformer_engine.so");
    Process objcopy = new ProcessBuilder("objcopy", "--add-section", ".te_payload=" + payload,
        dev.tewheel.gatefixtures.GateFixtures.release(1).toString(), te.toString()).inheritIO().start();
    assertEquals(0, objcopy.waitFor(), "objcopy (binutils) must be installed");
    ElfFile direct = ElfFile.read(te);
    long shoff;
    try (ByteSource file = ByteSource.open(te)) {
      shoff = file.read(40, 8).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong(0); // e_shoff
    }
    assertTrue(shoff > random.length && shoff > Files.size(te) - 64 * 1024, "section headers at the end: " + shoff);
    Path whl = new TestWheel()
        .add(TestWheel.PREFIX + "/libtransformer_engine.so", te)
        .add(TestWheel.PREFIX + "/libnccl_ep.so", StandIns.ncclEpLibrary())
        .addTree(TestWheel.PREFIX + "/nccl_ep/include", StandIns.ncclEpHome().resolve("include"))
        .write(temp);
    try (WheelSubject wheel = open(whl)) {
      Subject subject = wheel.subject();
      List<Finding> findings = Judged.findings(subject, Map.of());
      assertTrue(findings.stream().noneMatch(f -> f.checkId().equals("WHEEL-RECORD")), findings.toString());
      for (SubjectFile library : subject.libraries()) {
        subject.gpuCode(library);
        subject.gnuProperties(library);
      }
      SubjectFile lib = subject.transformerEngineLibrary().orElseThrow();
      assertEquals(ElfFacts.of(direct), ElfFacts.of(subject.elf(lib)));
      try (ByteSource file = ByteSource.open(te)) {
        assertEquals(dev.tewheel.elf.CudaFatBinary.read(file, direct), subject.gpuCode(lib));
      }
      assertEquals(3, subject.gpuCode(lib).sass().size(), subject.gpuCode(lib).toString());
      for (SubjectFile f : subject.files()) {
        String name = TestWheel.PREFIX + "/" + f.path();
        assertEquals(f.size(), wheel.archive().bytesInflated(name), name + " is inflated exactly once");
      }
    }
  }

  @Test
  void storedEntriesAreReadInPlaceAndCompressedOnesInChunks() throws Exception {
    Path whl = new TestWheel()
        .addStored(TestWheel.PREFIX + "/libtransformer_engine.so", StandIns.transformerEngine())
        .add(TestWheel.PREFIX + "/libnccl_ep.so", StandIns.ncclEpLibrary())
        .write(temp);
    try (WheelSubject wheel = open(whl)) {
      SubjectFile te = wheel.subject().transformerEngineLibrary().orElseThrow();
      try (ByteSource source = te.open()) {
        assertFalse(source instanceof InflatingEntrySource, "a stored entry is read in place, by position");
        assertEquals(ElfFacts.of(ElfFile.read(StandIns.transformerEngine())), ElfFacts.of(ElfFile.read(source)));
        assertEquals(te.origin(), source.name());
      }
      SubjectFile ep = wheel.subject().ncclEpLibrary().orElseThrow();
      try (ByteSource source = ep.open()) {
        assertInstanceOf(InflatingEntrySource.class, source);
        assertEquals(ElfFacts.of(ElfFile.read(StandIns.ncclEpLibrary())), ElfFacts.of(ElfFile.read(source)));
      }
    }
  }

  @Test
  void aFileThatIsNotAZipIsRefusedByName() throws Exception {
    Path notZip = Files.writeString(temp.resolve("fake-1.0-py3-none-any.whl"), "#!/bin/sh\necho not a wheel\n");
    IOException e = assertThrows(IOException.class, () -> open(notZip));
    assertTrue(e.getMessage().contains(notZip.toString()) && e.getMessage().contains("not a readable zip archive"),
        e.getMessage());
    Path empty = Files.createFile(temp.resolve("empty-1.0-py3-none-any.whl"));
    e = assertThrows(IOException.class, () -> open(empty));
    assertTrue(e.getMessage().startsWith("wheel " + empty + " is not a readable zip archive"), e.getMessage());
    Path missing = temp.resolve("missing-1.0-py3-none-any.whl");
    e = assertThrows(IOException.class, () -> open(missing));
    assertTrue(e.getMessage().contains(missing + " does not exist"), e.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> WheelSubject.open(notZip, "transformer_engine/wheel_lib/", Layout.DEFAULT, CheckSettings.defaults()));
  }

  @Test
  void anEntryThatInflatesPastItsDeclaredSizeIsCutOff() throws Exception {
    String name = TestWheel.PREFIX + "/libnccl_ep.so";
    Path whl = TestWheel.standIns().write(temp);
    ZipBytes.declareSize(whl, name, 1000);
    try (WheelSubject wheel = open(whl)) {
      SubjectFile ep = wheel.subject().ncclEpLibrary().orElseThrow();
      assertEquals(1000, ep.size());
      IOException e = assertThrows(IOException.class, () -> {
        try (InputStream in = ep.stream()) {
          in.readAllBytes();
        }
      });
      assertTrue(e.getMessage().contains("inflates past the 1000 bytes its zip entry declares"), e.getMessage());
      assertTrue(e.getMessage().startsWith(whl + "!" + name), e.getMessage());
      assertThrows(IOException.class, () -> recordDigest(wheel.archive(), name));
      List<Finding> findings = Judged.findings(wheel.subject(), Map.of());
      assertTrue(findings.stream().anyMatch(f -> f.checkId().equals("WHEEL-RECORD")
          && f.file().equals(whl + "!" + name) && f.found().equals("1000 bytes")), findings.toString());
    }
  }

  @Test
  void anEntryThatEndsShortOfItsDeclaredSizeFails() throws Exception {
    String name = "transformer_engine/__init__.py";
    Path whl = new TestWheel().add(name, "x = 1\n".getBytes(StandardCharsets.UTF_8)).write(temp);
    ZipBytes.declareSize(whl, name, 100);
    try (WheelArchive archive = WheelArchive.open(whl)) {
      IOException e = assertThrows(IOException.class, () -> recordDigest(archive, name));
      assertTrue(e.getMessage().contains("ends after 6 of the 100 bytes"), e.getMessage());
    }
  }

  @Test
  void entriesOverTheBombBoundsAreNeverInflated() throws Exception {
    String name = TestWheel.PREFIX + "/libnccl_ep.so";
    Path whl = TestWheel.standIns().write(temp);
    ZipBytes.declareSize(whl, name, 0xF000_0000L);
    try (WheelSubject wheel = open(whl)) {
      SubjectFile ep = wheel.subject().ncclEpLibrary().orElseThrow();
      IOException e = assertThrows(IOException.class, ep::stream);
      assertTrue(e.getMessage().contains("not inflated") && e.getMessage().contains("WHEEL-BOMB"), e.getMessage());
      assertThrows(IOException.class, ep::open);
      // The other entries stay readable: the archive as a whole is within 64 GiB.
      assertEquals(ElfFacts.of(ElfFile.read(StandIns.transformerEngine())),
          ElfFacts.of(wheel.subject().elf(wheel.subject().transformerEngineLibrary().orElseThrow())));
    }
  }

  @Test
  void ofDuplicateEntriesUnderWheelLibTheOnePipWritesLastIsJudged() throws Exception {
    Path whl = new TestWheel()
        .add(TestWheel.PREFIX + "/notes.txt", "first".getBytes(StandardCharsets.UTF_8))
        .add(TestWheel.PREFIX + "/notes.txt", "second".getBytes(StandardCharsets.UTF_8))
        .write(temp);
    try (WheelSubject wheel = open(whl)) {
      assertEquals(List.of("notes.txt"), wheel.subject().files().stream().map(SubjectFile::path).toList());
      // Python's zipfile, so pip, reads a name's last entry; WHEEL-PATHS fails the wheel for the pair.
      SubjectFile notes = wheel.subject().file("notes.txt").orElseThrow();
      assertEquals("second", wheel.subject().text(notes));
      assertEquals(Sha256.hex(Sha256.of("second".getBytes(StandardCharsets.UTF_8))), notes.sha256());
    }
  }

  @Test
  void symlinkAndSpecialEntriesHaveTheirTypes() throws Exception {
    Path whl = new TestWheel()
        .addSymlink(TestWheel.PREFIX + "/libnccl_ep.so.0", "libnccl_ep.so")
        .add(TestWheel.PREFIX + "/fifo", new byte[0], ZipArchiveEntry.DEFLATED, 0010644)
        .add(TestWheel.PREFIX + "/dos.txt", new byte[1], ZipArchiveEntry.DEFLATED, -1)
        .write(temp);
    try (WheelSubject wheel = open(whl)) {
      Subject subject = wheel.subject();
      assertEquals(SubjectFile.EntryType.SYMLINK, subject.file("libnccl_ep.so.0").orElseThrow().type());
      assertEquals(SubjectFile.EntryType.OTHER, subject.file("fifo").orElseThrow().type());
      assertEquals(SubjectFile.EntryType.FILE, subject.file("dos.txt").orElseThrow().type());
      assertEquals(OptionalInt.empty(), subject.file("dos.txt").orElseThrow().mode());
      List<String> types = Judged.findings(subject, Map.of()).stream()
          .filter(f -> f.checkId().equals("LAYOUT-FILE-TYPES")).map(Finding::found).toList();
      assertEquals(List.of("a special file (device, pipe or socket)", "a symbolic link"), types);
    }
  }

  @Test
  void aWheelCarryingAnAssembledManifestPassesUntilAHeaderIsTampered() throws Exception {
    Path wheelLib = temp.resolve("staging/wheel_lib");
    new Assembler(line -> { }).assemble(AssembleRequest.of(StandIns.transformerEngine(), StandIns.ncclEpHome(),
        wheelLib).withTimestamp(FileTime.from(Instant.parse("2026-01-01T00:00:00Z"))));
    String header = TestWheel.PREFIX + "/nccl_ep/include/nccl_ep.h";
    Path out = Files.createDirectories(temp.resolve("out"));
    Path whl = new TestWheel().addTree(TestWheel.PREFIX, wheelLib).store(header).write(out);

    try (WheelSubject wheel = WheelSubject.open(whl, TestWheel.PREFIX, Layout.EP_HOME, CheckSettings.defaults())) {
      Subject subject = wheel.subject();
      assertTrue(subject.manifest().isPresent());
      assertEquals(Layout.DEFAULT, subject.layout(), "the manifest's layout, not the fallback");
      List<Finding> findings = Judged.findings(subject, Map.of());
      assertEquals(List.of(), errors(findings));
    }

    ZipBytes.flipStoredByte(whl, header, 0);
    try (WheelSubject wheel = open(whl)) {
      List<Finding> errors = errors(Judged.findings(wheel.subject(), Map.of()));
      // The flipped byte also breaks the entry's CRC-32, which pip checks.
      assertEquals(List.of("MANIFEST-DIGESTS", "WHEEL-RECORD", "WHEEL-ZIP"),
          errors.stream().map(Finding::checkId).toList(), errors.toString());
      for (Finding f : errors) {
        assertEquals(whl + "!" + header, f.file());
      }
      assertTrue(errors.get(0).found().startsWith("sha256 "), errors.get(0).found());
      assertTrue(errors.get(1).found().startsWith("sha256="), errors.get(1).found());
      assertTrue(errors.get(2).found().startsWith("data whose CRC-32 is "), errors.get(2).found());
    }
  }

  @Test
  void aManifestThatDoesNotParseLeavesTheFallbackLayout() throws Exception {
    Path whl = new TestWheel()
        .add(TestWheel.PREFIX + "/" + Layout.MANIFEST,
            "{\"schema\": \"something-else\"}".getBytes(StandardCharsets.UTF_8))
        .write(temp);
    try (WheelSubject wheel = WheelSubject.open(whl, TestWheel.PREFIX, Layout.EP_HOME, CheckSettings.defaults())) {
      assertTrue(wheel.subject().manifest().isEmpty());
      assertEquals(Layout.EP_HOME, wheel.subject().layout());
      assertTrue(Judged.findings(wheel.subject(), Map.of()).stream()
          .anyMatch(f -> f.checkId().equals("MANIFEST-DIGESTS")));
    }
  }

  private static List<Finding> errors(List<Finding> findings) {
    List<Finding> errors = new ArrayList<>();
    for (Finding f : findings) {
      if (f.severity() == Severity.ERROR) {
        errors.add(f);
      }
    }
    return errors;
  }

  /** RECORD's hash of an entry, without its "sha256=". */
  private static String recordDigest(WheelArchive archive, String name) throws IOException {
    return RecordFile.hash(archive.sha256(name)).substring("sha256=".length());
  }
}
