package dev.tewheel.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.core.check.catalogue.CheckCatalogue;
import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.GateReport;
import dev.tewheel.core.verify.FolderSubject;
import dev.tewheel.core.verify.Verifier;
import dev.tewheel.core.verify.VerifyRequest;
import dev.tewheel.core.wheel.TestWheel;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.standins.Gcc;
import dev.tewheel.standins.StandIns;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * PLATFORM holds every tag of a compressed set, and every Tag line of WHEEL, to what pip does with it. The tag
 * space is generated: per architecture each legacy alias, each manylinux_2_X around every library's glibc floor and
 * around pip's oldest, linux_&lt;arch&gt; and an upper-case spelling; sets of one to three of them in each order. The
 * oracle is pip's own packaging (Debian's {@code /usr/bin/python3}, {@code pip._vendor.packaging}), asked which
 * platform tags pip accepts on each architecture with each glibc 2.0 to 2.50. A set must pass exactly when, for
 * each of its tags, every system pip would install the wheel on through that tag has the libraries' architecture
 * and at least the glibc they need; two decisions of te-wheel's own, written down in docs/checks.md, complete the
 * rule: a tag no installer matches is a finding, and a set of linux_&lt;arch&gt; tags alone promises only the
 * architecture (auditwheel's "linux" policy: a local build).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PlatformTagSetTest {
  private static final String PYTHON = "/usr/bin/python3";
  private static final int LOWEST_MINOR = 0;
  private static final int HIGHEST_MINOR = 50;
  private static final List<String> ARCHES = List.of("x86_64", "i686", "aarch64", "ppc64le", "ppc64", "s390x",
      "armv7l", "riscv64", "loongarch64");
  private static final List<String> ALIASES = List.of("manylinux1", "manylinux2010", "manylinux2014");

  @TempDir static Path temp;

  /** A real library: its architecture as pip names it, and the highest GLIBC_ minor it needs (2.minor). */
  private record Library(String name, Path folder, String arch, int glibcMinor) {}

  /** A system pip may run on. */
  private record Host(String arch, int minor) {}

  private static List<Library> libraries;
  /** Per platform tag (lower-case), every system on which pip accepts it. */
  private static Map<String, List<Host>> installs;

  @BeforeAll
  static void buildLibrariesAndAskPip() throws Exception {
    libraries = List.of(
        // memcpy is versioned GLIBC_2.14 on x86_64; nothing else this source calls is newer.
        gccLibrary("libneeds_2_14.so", "#include <string.h>\n"
            + "void copy(char *d, const char *s, unsigned long n) { memcpy(d, s, n); }\n", 14),
        // dlopen moved into libc at 2.34, under GLIBC_2.34.
        gccLibrary("libneeds_2_34.so", "#include <dlfcn.h>\n"
            + "void *open_it(const char *name) { return dlopen(name, RTLD_NOW); }\n", 34),
        aarch64Library());
    installs = pipInstalls();
  }

  private static Library gccLibrary(String name, String source, int expectedMinor) throws Exception {
    Path folder = Files.createDirectories(temp.resolve(name));
    Path c = Files.writeString(temp.resolve(name + ".c"), source);
    Gcc.run("-shared", "-fPIC", "-O0", "-U_FORTIFY_SOURCE", "-fno-stack-protector", "-o",
        folder.resolve(name).toString(), c.toString());
    Library library = new Library(name, folder, "x86_64", glibcMinor(folder.resolve(name)));
    assertEquals(expectedMinor, library.glibcMinor(), name + " was meant to need GLIBC_2." + expectedMinor);
    return library;
  }

  /** The committed aarch64 libnccl.so.2 stand-in: C, GLIBC_2.17 and nothing of the C++ runtime. */
  private static Library aarch64Library() throws Exception {
    Path folder = Files.createDirectories(temp.resolve("aarch64"));
    Files.copy(StandIns.aarch64("libnccl.so.2"), folder.resolve("libnccl.so.2"), StandardCopyOption.REPLACE_EXISTING);
    assertEquals(Set.of("GLIBC"), ToolchainVersion.ceilings(ElfFile.read(folder.resolve("libnccl.so.2"))).keySet(),
        "the oracle speaks of glibc only");
    return new Library("aarch64 libnccl.so.2", folder, "aarch64", glibcMinor(folder.resolve("libnccl.so.2")));
  }

  private static int glibcMinor(Path library) throws IOException {
    String glibc = ToolchainVersion.ceilings(ElfFile.read(library)).get("GLIBC");
    String[] parts = glibc.split("\\.");
    assertEquals("2", parts[0], glibc);
    return Integer.parseInt(parts[1]);
  }

  private static Map<String, List<Host>> pipInstalls() throws Exception {
    String script;
    try (InputStream in = PlatformTagSetTest.class.getResourceAsStream("pip-supported-platforms.py")) {
      script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    List<String> command = new ArrayList<>(List.of(PYTHON, "-c", script, "" + LOWEST_MINOR, "" + HIGHEST_MINOR));
    command.addAll(ARCHES);
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the pip oracle did not finish");
    assertEquals(0, process.exitValue(), "the oracle needs Debian's python3-pip (pip._vendor.packaging):\n" + out);
    Map<String, List<Host>> result = new HashMap<>();
    for (String line : out.strip().split("\n")) {
      String[] words = line.split(" ");
      Host host = new Host(words[0], Integer.parseInt(words[1].substring(2)));
      for (int i = 2; i < words.length; i++) {
        result.computeIfAbsent(words[i], t -> new ArrayList<>()).add(host);
      }
    }
    assertEquals(ARCHES.size() * (HIGHEST_MINOR - LOWEST_MINOR + 1), out.strip().split("\n").length);
    return result;
  }

  /** Every tag of one architecture: the aliases, 2_X around each floor and pip's oldest, linux, one in capitals. */
  private static List<String> tagsOf(String arch) {
    Set<Integer> minors = new TreeSet<>();
    for (int floor : new int[] {4, 5, 16, 17}) {
      minors.add(floor);
    }
    for (Library library : libraries) {
      for (int m = library.glibcMinor() - 2; m <= library.glibcMinor() + 2; m++) {
        minors.add(m);
      }
    }
    List<String> tags = new ArrayList<>();
    ALIASES.forEach(alias -> tags.add(alias + "_" + arch));
    minors.forEach(m -> tags.add("manylinux_2_" + m + "_" + arch));
    tags.add("linux_" + arch);
    tags.add(("manylinux2014_" + arch).toUpperCase(Locale.ROOT));
    return tags;
  }

  /**
   * The sets for one library: every tag alone; ordered pairs from its architecture's tags and two of each other
   * architecture; ordered triples from its architecture's tags near its floor, pip's oldest and linux.
   */
  private static List<List<String>> setsFor(Library library) {
    List<List<String>> sets = new ArrayList<>();
    List<String> own = tagsOf(library.arch());
    List<String> pairPool = new ArrayList<>(own.subList(0, own.size() - 1));
    for (String arch : ARCHES) {
      if (!arch.equals(library.arch())) {
        tagsOf(arch).forEach(tag -> sets.add(List.of(tag)));
        pairPool.add("manylinux2014_" + arch);
        pairPool.add("linux_" + arch);
      }
    }
    own.forEach(tag -> sets.add(List.of(tag)));
    for (String a : pairPool) {
      for (String b : pairPool) {
        if (!a.equals(b)) {
          sets.add(List.of(a, b));
        }
      }
    }
    int floor = library.glibcMinor();
    List<String> triplePool = new ArrayList<>(List.of("manylinux_2_" + (floor - 1) + "_" + library.arch(),
        "manylinux_2_" + floor + "_" + library.arch(), "manylinux_2_" + (floor + 1) + "_" + library.arch(),
        "manylinux2014_" + library.arch(), "manylinux1_" + library.arch(), "linux_" + library.arch(),
        "manylinux_2_" + floor + "_" + (library.arch().equals("aarch64") ? "x86_64" : "aarch64")));
    for (String a : triplePool) {
      for (String b : triplePool) {
        for (String c : triplePool) {
          if (new LinkedHashSet<>(List.of(a, b, c)).size() == 3) {
            sets.add(List.of(a, b, c));
          }
        }
      }
    }
    return sets;
  }

  /**
   * The tags of {@code set} the library breaks by the rule: through each tag, pip installs the wheel on some
   * systems; each must have the library's architecture and glibc (for a set of linux tags only: its architecture).
   */
  private static List<String> broken(Library library, List<String> set) {
    boolean linuxOnly = set.stream().allMatch(t -> t.toLowerCase(Locale.ROOT).startsWith("linux_"));
    List<String> broken = new ArrayList<>();
    for (String tag : set) {
      List<Host> hosts = installs.getOrDefault(tag.toLowerCase(Locale.ROOT), List.of());
      boolean holds = !hosts.isEmpty() && hosts.stream().allMatch(h -> h.arch().equals(library.arch())
          && (linuxOnly || h.minor() >= library.glibcMinor()));
      if (!holds) {
        broken.add(tag);
      }
    }
    return broken;
  }

  @Test
  void everyTagOfAGeneratedSetIsHeldToTheSystemsPipInstallsItOn() throws Exception {
    List<String> disagreements = new ArrayList<>();
    int cases = 0;
    int failing = 0;
    for (Library library : libraries) {
      Collection<SubjectFile> files = FolderSubject.read(library.folder(), Layout.ANY, CheckSettings.defaults())
          .files();
      for (List<String> set : setsFor(library)) {
        cases++;
        Subject subject = new Subject(library.name(), Layout.ANY, files,
            CheckSettings.defaults().withPlatform(PlatformTags.parse(String.join(".", set))));
        List<Finding> findings = CheckCatalogue.check("PLATFORM").run(subject);
        List<String> broken = broken(library, set);
        failing += broken.isEmpty() ? 0 : 1;
        if (broken.isEmpty() != findings.isEmpty()) {
          disagreements.add(library.name() + " " + String.join(".", set) + ": pip breaks " + broken
              + ", PLATFORM found " + findings.stream().map(f -> f.found() + " / " + f.expected()).toList());
          continue;
        }
        for (String tag : broken) {
          if (findings.stream().noneMatch(f -> (f.found() + " " + f.expected()).contains(tag))) {
            disagreements.add(library.name() + " " + String.join(".", set) + ": no finding names " + tag + ": "
                + findings);
          }
        }
      }
    }
    assertEquals(List.of(), disagreements.subList(0, Math.min(10, disagreements.size())),
        disagreements.size() + " of " + cases + " sets disagree with pip");
    assertTrue(cases > 4000 && failing > cases / 4 && failing < cases, cases + " sets, " + failing + " failing");
  }

  /**
   * The same rule on real wheels: the tags of the file name's set and the Tag lines of WHEEL (which pip does not
   * read, but other installers and tools do) are each held; the library needs GLIBC_2.34.
   */
  @Test
  void everyTagOfTheFileNameAndOfWheelIsHeldOnARealWheel() throws Exception {
    Library library = libraries.get(1);
    List<String> pool = List.of("manylinux_2_34_x86_64", "manylinux_2_35_x86_64", "manylinux2014_x86_64",
        "linux_x86_64", "manylinux_2_34_aarch64");
    List<List<String>> names = new ArrayList<>();
    for (String a : pool.subList(0, 4)) {
      names.add(List.of(a));
      for (String b : pool.subList(0, 4)) {
        if (!a.equals(b)) {
          names.add(List.of(a, b));
        }
      }
    }
    List<String> disagreements = new ArrayList<>();
    int n = 0;
    for (List<String> name : names) {
      List<String> extras = new ArrayList<>(pool);
      extras.add(null);
      for (String extra : extras) {
        String fileName = "demo-1.0-py3-none-" + String.join(".", name) + ".whl";
        TestWheel wheel = new TestWheel().fileName(fileName).distInfo("demo-1.0.dist-info")
            .add("demo/" + library.name(), library.folder().resolve(library.name()));
        wheel.wheelText(wheel.defaultWheelText() + (extra == null ? "" : "Tag: py3-none-" + extra + "\n"));
        Path whl = wheel.write(Files.createDirectories(temp.resolve("wheels/" + n++)));
        GateReport report = new Verifier().verify(VerifyRequest.wheel(whl).withLayout(Layout.ANY));
        List<Finding> platform = report.findings().stream().filter(f -> f.checkId().equals("PLATFORM")).toList();
        List<String> held = new ArrayList<>(name);
        if (extra != null && !held.contains(extra)) {
          held.add(extra);
        }
        List<String> broken = broken(library, held);
        if (broken.isEmpty() != platform.isEmpty()) {
          disagreements.add(fileName + " + WHEEL " + extra + ": pip breaks " + broken + ", PLATFORM found "
              + platform);
        }
        assertEquals(String.join(".", name), report.platformTag(), "the report names the file name's whole set");
      }
    }
    assertEquals(List.of(), disagreements);
  }

  /**
   * ppc64 and ppc64le share e_machine 21 and differ in byte order only: a little-endian library under a ppc64 tag
   * is another architecture. The library is the gcc-built one with its e_machine set to PPC64, all else as linked.
   */
  @Test
  void aLibraryOfTheOtherByteOrderDoesNotFitAPpc64Tag() throws Exception {
    Path folder = Files.createDirectories(temp.resolve("ppc64le"));
    Path library = Files.copy(libraries.get(0).folder().resolve(libraries.get(0).name()), folder.resolve("libx.so"));
    TestWheel.patch(library, 18, new byte[] {21, 0});
    Subject subject = FolderSubject.read(folder, Layout.ANY, CheckSettings.defaults());
    assertEquals(List.of(), platform(subject, "manylinux2014_ppc64le"));
    List<Finding> findings = platform(subject, "manylinux2014_ppc64le.manylinux2014_ppc64");
    assertEquals(1, findings.size(), findings.toString());
    assertEquals("ppc64 ELF64 LSB", findings.get(0).found());
    assertEquals("ppc64 ELF64 MSB for platform manylinux2014_ppc64", findings.get(0).expected());
  }

  private static List<Finding> platform(Subject read, String tags) {
    return CheckCatalogue.check("PLATFORM").run(new Subject(read.description(), Layout.ANY, read.files(),
        CheckSettings.defaults().withPlatform(PlatformTags.parse(tags))));
  }

  @Test
  void aCarriedTagThatIsNoGlibcLinuxTagIsAFindingNotACrash() throws Exception {
    Library library = libraries.get(1);
    for (String tag : List.of("any", "win_amd64", "musllinux_1_2_x86_64", "manylinux_2_034_x86_64",
        "manylinux_2_9999999999_x86_64", "manylinux_2_34_sparc")) {
      String fileName = "demo-1.0-py3-none-manylinux_2_34_x86_64." + tag + ".whl";
      Path whl = new TestWheel().fileName(fileName).distInfo("demo-1.0.dist-info")
          .add("demo/" + library.name(), library.folder().resolve(library.name()))
          .write(Files.createDirectories(temp.resolve("carried/" + tag)));
      GateReport report = new Verifier().verify(VerifyRequest.wheel(whl).withLayout(Layout.ANY));
      List<Finding> platform = report.findings().stream().filter(f -> f.checkId().equals("PLATFORM")).toList();
      assertEquals(1, platform.size(), tag + ": " + platform);
      assertEquals(whl.toString(), platform.get(0).file());
      assertTrue(platform.get(0).found().contains("'" + tag + "'"), platform.get(0).found());
    }
  }
}
