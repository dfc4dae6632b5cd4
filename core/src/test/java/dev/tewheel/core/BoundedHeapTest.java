package dev.tewheel.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.core.gate.Gate;
import dev.tewheel.core.wheel.TestWheel;
import dev.tewheel.standins.StandIns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31's resource-exhaustion inputs, each made here in seconds and given to a goal's core entry point in a fresh
 * JVM with a 256 MiB heap ({@link GoalInChildJvm}): each ends within its time with a named finding or error, never
 * with an exhausted heap, and prints a console and writes reports of bounded size. Before, each ran out of memory at
 * this heap (the RECORD of 700,000 rows also took 45 s, printed 242 MB and wrote 1.6 GB of reports).
 */
class BoundedHeapTest {
  private static final int HEAP_MIB = 256;
  /** What a goal may print or write for a hostile input: a few hundred rows of findings, not millions. */
  private static final int MAX_CONSOLE_CHARS = 400_000;
  private static final long MAX_REPORT_BYTES = 2_000_000;

  /** Inputs two goals share: made once, as each takes a while to make. */
  @TempDir static Path shared;
  private static Path libraryFolder;
  private static Path libraryWheel;
  private static Path wheelLib;
  private static Path staging;

  @TempDir Path temp;

  @BeforeAll
  static void makeSharedInputs() throws Exception {
    // 150,000 broken libraries: as a floor (SYMBOL-FLOOR once gave 150,001 findings) and as a diff baseline.
    libraryFolder = OversizedInputs.folderOfTruncatedLibraries(shared.resolve("libraries"), 150_000);
    libraryWheel = OversizedInputs.wheelOfTruncatedLibraries(shared.resolve("library-wheel"), TestWheel.PREFIX,
        150_000);
    wheelLib = OversizedInputs.assembledWheelLib(shared.resolve("good/wheel_lib"));
    // 100,000 headers in NCCL EP's include tree, which is also the wheel_lib of a tree staged for pack.
    staging = shared.resolve("staging");
    OversizedInputs.ncclEpHomeWithHeaders(staging.resolve("transformer_engine/wheel_lib/nccl_ep"), 100_000, 12);
    Files.writeString(staging.resolve("transformer_engine/__init__.py"), "# stand-in\n");
  }

  private GoalInChildJvm.Result run(long timeoutSeconds, String goal, String... args) throws Exception {
    GoalInChildJvm.Result result = GoalInChildJvm.run(temp, HEAP_MIB, timeoutSeconds, goal, args);
    assertTrue(result.exit() != GoalInChildJvm.OUT_OF_MEMORY, "out of memory at " + HEAP_MIB + " MiB: "
        + result.describe());
    assertTrue(result.console().length() < MAX_CONSOLE_CHARS, result.describe());
    assertTrue(result.reportBytes() < MAX_REPORT_BYTES, result.reportBytes() + " bytes of reports");
    return result;
  }

  private static void assertContains(String text, GoalInChildJvm.Result result) {
    assertTrue(result.console().contains(text), "no '" + text + "' in " + result.describe());
  }

  @Test
  void aRecordOfSevenHundredThousandGhostRowsIsOneWheelRecordFinding() throws Exception {
    Path whl = OversizedInputs.wheelWithGhostRows(temp.resolve("ghosts"), 700_000);
    assertTrue(Files.size(whl) < 4_000_000, Files.size(whl) + " bytes: a small wheel");
    GoalInChildJvm.Result result = run(120, "verify", whl.toString());
    assertEquals(GoalInChildJvm.FAILED, result.exit(), result.describe());
    assertContains("WHEEL-RECORD", result);
    assertContains("a RECORD that cannot be read", result);
    assertContains("more than the 16777216 read of a text entry", result);
  }

  @Test
  void forty_thousandGhostRowsAreAHundredFindingsThenOneThatCountsTheRest() throws Exception {
    Path whl = OversizedInputs.wheelWithGhostRows(temp.resolve("ghosts"), 40_000);
    GoalInChildJvm.Result result = run(120, "verify", whl.toString());
    assertEquals(GoalInChildJvm.FAILED, result.exit(), result.describe());
    assertEquals(Gate.MAX_LISTED_PER_RULE + 1, count("] WHEEL-RECORD ", result.console()), result.describe());
    assertContains("39,900 more WHEEL-RECORD findings, not listed", result);
    assertContains("!transformer_engine/ghost found", result);
    assertContains("FAILED: 40000 errors", result);
  }

  @Test
  void wheelsOfNinetyNineAndTwoHundredThousandEntriesAreWheelBombFindingsBeforeAnyEntryIsRead() throws Exception {
    for (int extra : new int[] {99_000, 200_000}) {
      Path whl = OversizedInputs.wheelWithEntries(temp.resolve("entries-" + extra), extra);
      GoalInChildJvm.Result result = run(120, "verify", whl.toString());
      assertEquals(GoalInChildJvm.FAILED, result.exit(), result.describe());
      assertContains("WHEEL-BOMB", result);
      assertContains(String.format("found %,d entries; expected at most 50,000 entries", extra + 19), result);
      assertTrue(result.seconds() < 60, result.describe());
    }
  }

  /** The bound itself fits: a wheel just under it, every entry a header of wheel_lib (the costliest kind). */
  @Test
  void aWheelJustUnderTheEntryBoundIsVerifiedWithinTheHeap() throws Exception {
    Path whl = OversizedInputs.wheelWithHeaders(temp.resolve("headers"), 49_900);
    GoalInChildJvm.Result result = run(280, "verify", whl.toString());
    // Every header has the same bytes: DUPLICATE-CONTENT's 49,899 findings, listed as 100 and one more.
    assertEquals(GoalInChildJvm.FAILED, result.exit(), result.describe());
    assertContains("49,799 more DUPLICATE-CONTENT findings, not listed", result);
    assertTrue(!result.console().contains("WHEEL-BOMB"), result.describe());
  }

  @Test
  void anIncludeChainTenThousandHeadersDeepIsNamedByItsEnds() throws Exception {
    Path home = OversizedInputs.ncclEpHomeWithIncludeChain(temp.resolve("nccl_ep"), 10_000);
    Path out = temp.resolve("assembled/wheel_lib");
    GoalInChildJvm.Result assemble = run(240, "assemble", StandIns.transformerEngine().toString(), home.toString(),
        out.toString());
    assertEquals(GoalInChildJvm.ERROR, assemble.exit(), assemble.describe());
    assertContains("10000 check(s) failed; nothing was written", assemble);
    assertContains("HEADERS-SELF-CONTAINED", assemble);
    // Listed in name order (c0, c1, c10, c100, c1000, …): c1086.h is 1,087 headers deep.
    assertContains("reached through nccl_ep/chain/c0.h -> nccl_ep/chain/c1.h -> nccl_ep/chain/c2.h -> … (1,080 more)"
        + " … -> nccl_ep/chain/c1083.h -> nccl_ep/chain/c1084.h -> nccl_ep/chain/c1085.h -> nccl_ep/chain/c1086.h)",
        assemble);
    assertContains("9,900 more HEADERS-SELF-CONTAINED findings, not listed", assemble);
    assertFalse(Files.exists(out));

    // The same tree shipped in a wheel_lib folder, verified.
    Path folder = temp.resolve("folder/wheel_lib");
    copyTree(wheelLib, folder);
    copyTree(home.resolve("include/nccl_ep/chain"), folder.resolve("nccl_ep/include/nccl_ep/chain"));
    Files.delete(folder.resolve(Layout.MANIFEST));
    GoalInChildJvm.Result verify = run(240, "verify", folder.toString());
    assertEquals(GoalInChildJvm.FAILED, verify.exit(), verify.describe());
    assertContains("… (1,080 more) …", verify);
    assertContains("9,900 more HEADERS-SELF-CONTAINED findings, not listed", verify);
  }

  @Test
  void floorsOfAHundredFiftyThousandEntriesAreRefusedBeforeAnyIsRead() throws Exception {
    GoalInChildJvm.Result folder = run(120, "verify", wheelLib.toString(), libraryFolder.toString());
    assertEquals(GoalInChildJvm.FAILED, folder.exit(), folder.describe());
    assertContains("SYMBOL-FLOOR", folder);
    assertContains(libraryFolder.toString(), folder);
    assertEquals(1, count("found a folder of more than 50,000 entries; nothing in it was read", folder.console()),
        folder.describe());

    GoalInChildJvm.Result wheel = run(120, "verify", wheelLib.toString(), libraryWheel.toString());
    assertEquals(GoalInChildJvm.FAILED, wheel.exit(), wheel.describe());
    assertContains(libraryWheel.toString(), wheel);
    assertEquals(1, count("found a wheel of 150,003 entries; nothing in it was read", wheel.console()),
        wheel.describe());
  }

  @Test
  void diffBaselinesOfAHundredFiftyThousandEntriesAreRefusedBeforeAnyIsRead() throws Exception {
    for (Path baseline : List.of(libraryFolder, libraryWheel)) {
      GoalInChildJvm.Result result = run(120, "diff", baseline.toString(), wheelLib.toString());
      assertEquals(GoalInChildJvm.FAILED, result.exit(), result.describe());
      assertContains("DIFF-INPUT", result);
      assertContains("a baseline over the zip-bomb bounds", result);
      assertContains("nothing was compared", result);
      assertEquals(0, count("] DIFF-FILES ", result.console()), result.describe());
    }
  }

  @Test
  void aHundredThousandHeadersAreRefusedByAssembleAndPackBeforeAnythingIsWritten() throws Exception {
    Path home = staging.resolve("transformer_engine/wheel_lib/nccl_ep");
    Path out = temp.resolve("assembled/wheel_lib");
    GoalInChildJvm.Result assemble = run(120, "assemble", StandIns.transformerEngine().toString(), home.toString(),
        out.toString());
    assertEquals(GoalInChildJvm.ERROR, assemble.exit(), assemble.describe());
    assertContains(" headers from " + home + "), more than the 50,000 entries a wheel may hold", assemble);
    assertContains("would hold 100,0", assemble);
    assertFalse(Files.exists(out));

    Path dist = temp.resolve("dist");
    GoalInChildJvm.Result pack = run(120, "pack", staging.toString(), dist.toString());
    assertEquals(GoalInChildJvm.ERROR, pack.exit(), pack.describe());
    assertContains("holds more than 49,997 files", pack);
    assertContains("nothing was packed", pack);
    assertTrue(!Files.exists(dist) || isEmptyOfWheels(dist), "no wheel is written");
  }

  /** Fewer files than the entry bound, but names so long that their manifest would be over 16 MiB. */
  @Test
  void assembleNeverWritesAManifestItsReadersWouldRefuse() throws Exception {
    Path home = OversizedInputs.ncclEpHomeWithHeaders(temp.resolve("nccl_ep"), 45_000, 240);
    Path out = temp.resolve("assembled/wheel_lib");
    GoalInChildJvm.Result assemble = run(120, "assemble", StandIns.transformerEngine().toString(), home.toString(),
        out.toString());
    assertEquals(GoalInChildJvm.ERROR, assemble.exit(), assemble.describe());
    assertContains("the manifest of wheel_lib " + out + " would be ", assemble);
    assertContains("more than the 16,777,216 bytes every reader accepts", assemble);
    assertFalse(Files.exists(out));
  }

  /** jar-wheel-lib on the wheel_lib an older assemble wrote for 100,000 headers: its 19 MB manifest is refused. */
  @Test
  void jarWheelLibRefusesAManifestOverTheBound() throws Exception {
    Path folder = temp.resolve("big/wheel_lib");
    copyTree(wheelLib, folder);
    String manifest = Files.readString(folder.resolve(Layout.MANIFEST));
    StringBuilder entries = new StringBuilder();
    for (int i = 0; i < 100_000; i++) {
      entries.append("{\"path\": \"nccl_ep/include/nccl_ep/many/h").append(i).append("_").append("x".repeat(80))
          .append(".h\", \"kind\": \"header\","
          + " \"size\": 13, \"sha256\": \"").append("0".repeat(64)).append("\"},\n");
    }
    Files.writeString(folder.resolve(Layout.MANIFEST), manifest.replaceFirst("\"files\": \\[\\s*",
        Matcher.quoteReplacement("\"files\": [" + entries)));
    GoalInChildJvm.Result jar = run(120, "jar", folder.toString(), temp.resolve("natives.jar").toString());
    assertEquals(GoalInChildJvm.ERROR, jar.exit(), jar.describe());
    assertContains("larger than a manifest may be (at most 16777216 bytes", jar);
    assertFalse(Files.exists(temp.resolve("natives.jar")));
  }

  private static boolean isEmptyOfWheels(Path folder) throws Exception {
    try (Stream<Path> files = Files.walk(folder)) {
      return files.noneMatch(f -> f.getFileName().toString().endsWith(".whl"));
    }
  }

  private static int count(String text, String in) {
    Matcher m = Pattern.compile(Pattern.quote(text)).matcher(in);
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }

  private static void copyTree(Path from, Path to) throws Exception {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path source : walk.toList()) {
        Path target = to.resolve(from.relativize(source).toString());
        if (Files.isDirectory(source)) {
          Files.createDirectories(target);
        } else {
          Files.copy(source, target);
        }
      }
    }
  }
}
