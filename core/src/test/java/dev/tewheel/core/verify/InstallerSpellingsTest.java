package dev.tewheel.core.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.bundle.io.Sha256;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.GateReport;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.wheel.DebianPython;
import dev.tewheel.core.wheel.RawZip;
import dev.tewheel.core.wheel.RecordFile;
import dev.tewheel.standins.StandIns;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generator of issue 31: every entry of a good wheel, spelled in every way an installer may normalise or map
 * (a '.' or empty segment, a leading {@code ./}, a trailing {@code /.} or '/', {@code ..}, the data folder's
 * schemes, case, Unicode normal forms, backslashes, a NUL), added as a second entry with other bytes and used as
 * the entry's only spelling. Each wheel is verified, and each that verify passes is installed by Debian's pip
 * ({@code install --target}) and unpacked by {@code wheel unpack}: both must succeed and install exactly the files
 * RECORD lists, each once (no entry's bytes lost under another's), and pip's wheel_lib must hold exactly the files
 * the good wheel's wheel_lib holds, byte for byte. A wheel verify fails must fail with an error of a named check.
 * So whenever verify passes, both installers install exactly the checked bytes; where an installer installs
 * something else, verify has failed.
 *
 * <p>The installers run in one interpreter each ({@code installers/each-wheel.py}: pip's own command-line entry
 * point per wheel, and the function {@code wheel unpack} calls), side by side: one interpreter start per wheel costs
 * more than the install.
 */
class InstallerSpellingsTest {
  private static final String DIST = "transformer_engine_cu12-2.9.0";
  private static final String FILE_NAME = DIST + "-py3-none-manylinux_2_34_x86_64.whl";
  private static final String DIST_INFO = DIST + ".dist-info";
  private static final String RECORD = DIST_INFO + "/RECORD";
  private static final String DATA = DIST + ".data";
  private static final String WHEEL_LIB = "transformer_engine/wheel_lib";
  private static final List<String> SCHEMES = List.of("purelib", "platlib", "scripts", "headers", "data");
  /** What pip writes into the dist-info folder itself (RECORD rewritten). */
  private static final Set<String> PIP_WRITES = Set.of(RECORD, DIST_INFO + "/INSTALLER", DIST_INFO + "/REQUESTED",
      DIST_INFO + "/direct_url.json");

  @TempDir Path temp;

  /** One file of a good wheel. */
  private record Entry(String name, byte[] bytes, int mode) {}

  /** A good wheel: its entries (RECORD is written last, listing them). */
  private record GoodWheel(String label, List<Entry> entries) {
    /** The good wheel_lib, path under it to RECORD hash. */
    Map<String, String> wheelLib() {
      Map<String, String> files = new TreeMap<>();
      for (Entry entry : entries) {
        if (entry.name().startsWith(WHEEL_LIB + "/")) {
          files.put(entry.name().substring(WHEEL_LIB.length() + 1), RecordFile.hash(Sha256.of(entry.bytes())));
        }
      }
      return files;
    }
  }

  /**
   * One way to spell an entry's name; {@code spell} answers null where it does not apply.
   *
   * @param normalising whether both installers put the respelled entry exactly where the name itself goes
   */
  private record Spelling(String label, UnaryOperator<String> spell, boolean normalising) {}

  /** One generated wheel: entry {@code entry} of {@code wheel} spelled {@code spelled}, added or renamed. */
  private record Case(int number, GoodWheel wheel, String entry, Spelling spelling, String spelled, boolean second) {
    @Override
    public String toString() {
      return "#" + number + " " + wheel.label() + ": " + (second ? "a second entry " : "the only entry ")
          + printable(spelled) + " (" + spelling.label() + " of " + entry + ")";
    }
  }

  @BeforeAll
  static void installersArePresent() throws Exception {
    DebianPython.requireInstallers();
  }

  private static List<Spelling> spellings() {
    List<Spelling> all = new ArrayList<>(List.of(
        new Spelling("a leading ./", n -> "./" + n, true),
        new Spelling("a '.' segment after the first folder", n -> insertAt(n, n.indexOf('/'), "/."), true),
        new Spelling("an empty segment before the file name", n -> insertAt(n, n.lastIndexOf('/'), "/"), true),
        new Spelling("a trailing '/.'", n -> n + "/.", true),
        new Spelling("a trailing '/'", n -> n + "/", false),
        new Spelling("a '..' segment folded back", n -> "x/../" + n, false),
        new Spelling("the file name's first letter in the other case", InstallerSpellingsTest::otherCaseFileName,
            false),
        new Spelling("upper case", n -> n.toUpperCase(Locale.ROOT), false),
        new Spelling("Unicode NFD", n -> Normalizer.normalize(n, Normalizer.Form.NFD), false),
        new Spelling("Unicode NFC", n -> Normalizer.normalize(n, Normalizer.Form.NFC), false),
        new Spelling("backslashes for slashes", n -> n.indexOf('/') < 0 ? null : n.replace('/', '\\'), false),
        new Spelling("a backslash before the file name", n -> n.lastIndexOf('/') < 0 ? null
            : n.substring(0, n.lastIndexOf('/')) + "\\" + n.substring(n.lastIndexOf('/') + 1), false),
        new Spelling("a NUL and a suffix", n -> n + "\0.txt", false),
        new Spelling("another .data folder's platlib", n -> "other.data/platlib/" + n, false),
        new Spelling("the scheme key in upper case", n -> DATA + "/PLATLIB/" + n, false),
        new Spelling("an empty segment before the scheme key", n -> DATA + "//platlib/" + n, false),
        new Spelling("a '.' segment after the scheme key", n -> DATA + "/platlib/./" + n, false),
        new Spelling("a leading ./ before the data folder", n -> "./" + DATA + "/platlib/" + n, false)));
    for (String scheme : SCHEMES) {
      all.add(new Spelling("the data folder's " + scheme, n -> DATA + "/" + scheme + "/" + n, false));
    }
    // An entry of the data folder, moved out of it or into another scheme.
    all.add(new Spelling("out of the data folder", n -> inData(n) ? n.split("/", 3)[2] : null, false));
    for (String scheme : SCHEMES) {
      all.add(new Spelling("moved to the scheme " + scheme, n -> inData(n) && !n.split("/", 3)[1].equals(scheme)
          ? DATA + "/" + scheme + "/" + n.split("/", 3)[2] : null, false));
    }
    return all;
  }

  private static boolean inData(String name) {
    return name.startsWith(DATA + "/") && name.split("/", 3).length == 3;
  }

  private static String insertAt(String name, int at, String text) {
    return at < 0 ? null : name.substring(0, at) + text + name.substring(at);
  }

  private static String otherCaseFileName(String name) {
    int start = name.lastIndexOf('/') + 1;
    char c = name.charAt(start);
    char other = Character.isUpperCase(c) ? Character.toLowerCase(c) : Character.toUpperCase(c);
    return other == c ? null : name.substring(0, start) + other + name.substring(start + 1);
  }

  private static List<GoodWheel> goodWheels() throws IOException {
    byte[] te = Files.readAllBytes(StandIns.transformerEngine());
    byte[] ep = Files.readAllBytes(StandIns.ncclEpLibrary());
    Path include = StandIns.ncclEpHome().resolve("include");
    List<Entry> plain = new ArrayList<>(List.of(
        text("transformer_engine/__init__.py", "# stand-in\n"),
        new Entry(WHEEL_LIB + "/libtransformer_engine.so", te, 0100755),
        new Entry(WHEEL_LIB + "/libnccl_ep.so", ep, 0100755),
        new Entry(WHEEL_LIB + "/nccl_ep/include/nccl_ep.h", Files.readAllBytes(include.resolve("nccl_ep.h")), 0100644),
        new Entry(WHEEL_LIB + "/nccl_ep/include/nccl_ep/ep_enums.h",
            Files.readAllBytes(include.resolve("nccl_ep/ep_enums.h")), 0100644)));
    plain.addAll(distInfo());
    List<Entry> withData = new ArrayList<>(List.of(
        text("transformer_engine/__init__.py", "# stand-in\n"),
        new Entry(WHEEL_LIB + "/libtransformer_engine.so", te, 0100755),
        text("transformer_engine/caf\u00e9.py", "# a name with a composed character\n"),
        text(DATA + "/platlib/transformer_engine/extra.py", "# installed beside __init__.py\n"),
        new Entry(DATA + "/scripts/te-tool", "#!/bin/sh\necho te\n".getBytes(StandardCharsets.US_ASCII), 0100755),
        text(DATA + "/headers/te.h", "/* a header */\n"),
        text(DATA + "/data/share/te/README", "data\n")));
    withData.addAll(distInfo());
    return List.of(new GoodWheel("TE libraries and headers", plain), new GoodWheel("TE with data folders",
        withData));
  }

  private static List<Entry> distInfo() {
    return List.of(text(DIST_INFO + "/METADATA", "Metadata-Version: 2.1\nName: transformer_engine_cu12\nVersion:"
        + " 2.9.0\n"), text(DIST_INFO + "/WHEEL", "Wheel-Version: 1.0\nGenerator: te-wheel-test\nRoot-Is-Purelib:"
        + " false\nTag: py3-none-manylinux_2_34_x86_64\n"));
  }

  private static Entry text(String name, String text) {
    return new Entry(name, text.getBytes(StandardCharsets.UTF_8), 0100644);
  }

  /** Other bytes of the same kind: appended to, so a library stays a valid library and no two files are alike. */
  private static byte[] other(byte[] bytes) {
    byte[] suffix = "\n# other bytes\n".getBytes(StandardCharsets.US_ASCII);
    byte[] other = java.util.Arrays.copyOf(bytes, bytes.length + suffix.length);
    System.arraycopy(suffix, 0, other, bytes.length, suffix.length);
    return other;
  }

  /** A case's wheel, and how many files of each RECORD digest it lists. */
  private record Written(Path whl, Map<String, Integer> listed) {}

  /** Writes a case's wheel, STORED, with RECORD last listing every other entry by the name it is stored under. */
  private static Written write(Case c, Path folder) throws IOException {
    List<Entry> entries = new ArrayList<>();
    String recordName = RECORD;
    for (Entry entry : c.wheel().entries()) {
      boolean respelled = entry.name().equals(c.entry());
      entries.add(respelled && !c.second() ? new Entry(c.spelled(), entry.bytes(), entry.mode()) : entry);
      if (respelled && c.second()) {
        entries.add(new Entry(c.spelled(), other(entry.bytes()), entry.mode()));
      }
    }
    if (c.entry().equals(RECORD)) {
      if (c.second()) {
        entries.add(new Entry(c.spelled(), other("RECORD".getBytes(StandardCharsets.US_ASCII)), 0100644));
      } else {
        recordName = c.spelled();
      }
    }
    StringBuilder record = new StringBuilder();
    Map<String, Integer> listed = new TreeMap<>();
    for (Entry entry : entries) {
      String hash = RecordFile.hash(Sha256.of(entry.bytes()));
      record.append(csv(entry.name())).append(',').append(hash).append(',').append(entry.bytes().length)
          .append('\n');
      listed.merge(hash, 1, Integer::sum);
    }
    record.append(csv(recordName)).append(",,\n");
    RawZip zip = new RawZip();
    for (Entry entry : entries) {
      RawZip.Entry raw = RawZip.stored(entry.name(), entry.bytes());
      raw.unixMode = entry.mode();
      zip.entries.add(raw);
    }
    zip.entries.add(RawZip.stored(recordName, record.toString().getBytes(StandardCharsets.UTF_8)));
    return new Written(zip.write(Files.createDirectories(folder).resolve(FILE_NAME)), listed);
  }

  /** A RECORD field as Python's csv module writes it. */
  private static String csv(String field) {
    return field.contains(",") || field.contains("\"") || field.contains("\n") || field.contains("\r")
        ? "\"" + field.replace("\"", "\"\"") + "\"" : field;
  }

  private static List<Case> cases() throws IOException {
    List<Case> cases = new ArrayList<>();
    List<Spelling> spellings = spellings();
    for (GoodWheel wheel : goodWheels()) {
      List<String> names = new ArrayList<>(wheel.entries().stream().map(Entry::name).toList());
      names.add(RECORD);
      for (String name : names) {
        for (Spelling spelling : spellings) {
          String spelled = spelling.spell().apply(name);
          if (spelled == null || spelled.equals(name)) {
            continue;
          }
          cases.add(new Case(cases.size(), wheel, name, spelling, spelled, true));
          cases.add(new Case(cases.size(), wheel, name, spelling, spelled, false));
        }
      }
    }
    return cases;
  }

  @Test
  @Timeout(900)
  void whenVerifyPassesBothInstallersInstallExactlyTheCheckedBytes() throws Exception {
    long start = System.nanoTime();
    List<Case> cases = cases();
    Map<Case, Written> wheels = new LinkedHashMap<>();
    for (Case c : cases) {
      wheels.put(c, write(c, temp.resolve("case-" + c.number())));
    }
    for (GoodWheel good : goodWheels()) { // the good wheels themselves pass, and are held to the installers too
      Case c = new Case(cases.size(), good, "", new Spelling("as built", n -> n, true), "", false);
      cases.add(c);
      wheels.put(c, write(c, temp.resolve("case-" + c.number())));
    }
    long written = System.nanoTime();

    Map<Case, GateReport> reports = verifyAll(wheels);
    long verified = System.nanoTime();
    List<Case> passed = cases.stream().filter(c -> reports.get(c).passed()).toList();
    runInstallers(passed, wheels);
    Map<Case, String> pip = outcomes("pip", passed, wheels);
    Map<Case, String> unpack = outcomes("unpack", passed, wheels);
    long installed = System.nanoTime();

    List<String> wrong = new ArrayList<>();
    Map<String, Integer> failedBy = new TreeMap<>();
    for (Case c : cases) {
      GateReport report = reports.get(c);
      List<Finding> errors = report.findings().stream().filter(f -> f.severity() == Severity.ERROR).toList();
      if (!report.passed()) {
        if (errors.isEmpty()) {
          wrong.add(c + ": verify failed without an error of a named check: " + report.findings());
        }
        errors.stream().map(Finding::checkId).distinct().forEach(id -> failedBy.merge(id, 1, Integer::sum));
        // Mirroring the installers: a unique respelling they both place as the plain name passes. Not so for the
        // dist-info files, which installers read by exact name, nor for a data folder's file behind a leading ./,
        // which pip no longer tells as part of the data folder.
        if (c.spelling().normalising() && !c.second() && !c.entry().startsWith(DIST_INFO + "/")
            && !(c.spelled().startsWith("./") && c.entry().startsWith(DATA + "/"))) {
          wrong.add(c + ": both installers put it where the name itself goes, yet verify failed: " + errors);
        }
        continue;
      }
      if (pip.get(c) != null) {
        wrong.add(c + ": verify passed, but pip " + pip.get(c));
      }
      if (unpack.get(c) != null) {
        wrong.add(c + ": verify passed, but wheel unpack " + unpack.get(c));
      }
    }
    System.out.printf(Locale.ROOT, "%d wheels (%d spellings of %d good wheels' entries, and the good wheels):"
        + " verify passed %d, installed each with pip and wheel unpack; failed %d, by %s. Written in %.1f s,"
        + " verified in %.1f s, installed in %.1f s.%n", cases.size(), cases.size() - goodWheels().size(),
        goodWheels().size(), passed.size(), cases.size() - passed.size(), failedBy, (written - start) / 1e9,
        (verified - written) / 1e9, (installed - verified) / 1e9);
    assertEquals(List.of(), wrong, wrong.size() + " of " + cases.size() + " wheels");
    assertTrue(passed.size() > goodWheels().size(), "some respellings pass: unique names installers agree on");
  }

  /** Verifies every wheel, on as many threads as there are cores. */
  private static Map<Case, GateReport> verifyAll(Map<Case, Written> wheels) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors());
    try {
      Map<Case, Future<GateReport>> futures = new LinkedHashMap<>();
      wheels.forEach((c, written) -> futures.put(c, pool.submit(() -> new Verifier().verify(
          VerifyRequest.wheel(written.whl())))));
      Map<Case, GateReport> reports = new HashMap<>();
      for (Map.Entry<Case, Future<GateReport>> future : futures.entrySet()) {
        try {
          reports.put(future.getKey(), future.getValue().get());
        } catch (java.util.concurrent.ExecutionException e) {
          throw new AssertionError(future.getKey() + ": verify gave no verdict with a check ID but " + e.getCause(),
              e.getCause());
        }
      }
      return reports;
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Installs the cases' wheels with pip (in as many interpreters as there are cores, each taking every n-th wheel)
   * and unpacks them with wheel unpack (one more), all at once.
   */
  private void runInstallers(List<Case> cases, Map<Case, Written> wheels) throws Exception {
    int pipProcesses = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));
    Path script = Path.of(InstallerSpellingsTest.class.getResource("/installers/each-wheel.py").toURI());
    List<java.util.concurrent.Callable<DebianPython.Result>> runs = new ArrayList<>();
    List<String> labels = new ArrayList<>();
    for (int part = 0; part <= pipProcesses; part++) {
      String tool = part < pipProcesses ? "pip" : "unpack";
      StringBuilder listing = new StringBuilder();
      for (int i = part < pipProcesses ? part : 0; i < cases.size(); i += part < pipProcesses ? pipProcesses : 1) {
        Path folder = wheels.get(cases.get(i)).whl().getParent();
        listing.append(wheels.get(cases.get(i)).whl()).append('\t').append(folder.resolve(tool)).append('\t')
            .append(folder.resolve(tool + ".log")).append('\n');
      }
      Path list = Files.writeString(temp.resolve(tool + "-" + part + ".txt"), listing);
      labels.add(tool + " " + list);
      runs.add(() -> DebianPython.run(List.of(DebianPython.PYTHON, script.toString(), tool, list.toString()), temp,
          800));
    }
    ExecutorService pool = Executors.newFixedThreadPool(runs.size());
    try {
      List<Future<DebianPython.Result>> results = pool.invokeAll(runs);
      for (int i = 0; i < results.size(); i++) {
        DebianPython.Result result = results.get(i).get();
        assertEquals(0, result.exit(), labels.get(i) + ": " + result.output());
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * What one installer did with each case's wheel: null when it installed exactly what RECORD lists (and, for pip,
   * exactly the good wheel_lib), else what it did instead.
   */
  private static Map<Case, String> outcomes(String tool, List<Case> cases, Map<Case, Written> wheels)
      throws IOException {
    Map<Case, String> outcomes = new HashMap<>();
    for (Case c : cases) {
      Path folder = wheels.get(c).whl().getParent();
      String status = Files.readString(folder.resolve(tool + ".log.status")).strip();
      if (!status.equals("0")) {
        outcomes.put(c, "refused it: " + DebianPython.lastLine(Files.readString(folder.resolve(tool + ".log"))));
        continue;
      }
      Path root = tool.equals("pip") ? folder.resolve(tool) : folder.resolve(tool).resolve(DIST);
      List<String> differences = differences(wheels.get(c).listed(), root,
          tool.equals("pip") ? PIP_WRITES : Set.of(RECORD));
      if (tool.equals("pip")) {
        Map<String, String> wheelLib = tree(root.resolve(WHEEL_LIB));
        if (!wheelLib.equals(c.wheel().wheelLib())) {
          differences.add("installed wheel_lib " + wheelLib.keySet() + " with other files or bytes than the good"
              + " wheel's " + c.wheel().wheelLib().keySet());
        }
      }
      if (!differences.isEmpty()) {
        outcomes.put(c, "installed other files than RECORD lists: " + differences);
      }
    }
    return outcomes;
  }

  /**
   * How an installed tree differs from the case's RECORD, ignoring where each file went: every listed file's bytes
   * installed once, nothing else ({@code ignored}: what the installer writes itself).
   */
  private static List<String> differences(Map<String, Integer> expected, Path root, Set<String> ignored)
      throws IOException {
    Map<String, Integer> found = new TreeMap<>();
    List<String> differences = new ArrayList<>();
    if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
      return new ArrayList<>(List.of("no folder " + root));
    }
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path file : walk.sorted().toList()) {
        BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class,
            LinkOption.NOFOLLOW_LINKS);
        String path = root.relativize(file).toString();
        if (attributes.isDirectory() || ignored.contains(path)) {
          continue;
        }
        if (!attributes.isRegularFile()) {
          differences.add(path + " is not a regular file");
        } else {
          found.merge(RecordFile.hash(Sha256.of(file)), 1, Integer::sum);
        }
      }
    }
    if (!found.equals(expected)) {
      differences.add(expected.values().stream().mapToInt(Integer::intValue).sum() + " files listed, "
          + found.values().stream().mapToInt(Integer::intValue).sum() + " installed, of which "
          + found.entrySet().stream().filter(e -> !e.getValue().equals(expected.get(e.getKey()))).count()
          + " digests not as listed");
    }
    return differences;
  }

  /** The installed tree under {@code folder}: relative path to RECORD hash; empty when there is no folder. */
  private static Map<String, String> tree(Path folder) throws IOException {
    Map<String, String> files = new TreeMap<>();
    if (!Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
      return files;
    }
    try (Stream<Path> walk = Files.walk(folder)) {
      for (Path file : walk.filter(Files::isRegularFile).toList()) {
        files.put(folder.relativize(file).toString(), RecordFile.hash(Sha256.of(file)));
      }
    }
    return files;
  }

  private static String printable(String name) {
    return name.replace("\0", "\\0").replace("\\", "\\\\");
  }
}
