package dev.tewheel.standins;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Generated floors and the libraries that import from them, each pair held to glibc's own {@code dlopen(RTLD_NOW)}:
 * the space of issue 31 on which SYMBOL-FLOOR and te-runtime's load prediction must answer as glibc does.
 *
 * <p>A floor ({@code libfloor.so}) defines a symbol in every combination of {@link Binding}, {@link Visibility},
 * {@link Section}, {@link Type} and {@link Version} (less {@link #pruned}); a referencing library imports it in each
 * {@link Reference} kind and NEEDS {@code libfloor.so}, then {@code libfallback.so}; each pair is tried once with a
 * fallback that defines every name plainly and once with one that defines none, so that where glibc binds (the
 * floor, the fallback, nowhere) is observed, not only whether it loads.
 *
 * <p>The toolchain writes what its directives can say: gcc assembles each floor from assembler text ({@code .globl},
 * {@code .weak}, {@code .protected}, {@code .type x,%gnu_unique_object}, {@code %gnu_indirect_function},
 * {@code .set x, 0} for SHN_ABS, {@code .comm}, {@code .tls_common}, {@code .symver x, y@V, remove} for hidden
 * versions, a version script for default ones) and links it. What no directive writes into .dynsym is edited into
 * the linked file afterwards ({@link #toolchainCannot}: a LOCAL, HIDDEN or INTERNAL entry, which the linker drops;
 * GNU_UNIQUE other than on a defined object; a weak common symbol; …), so every case's entry is exactly its
 * combination, and the build checks that. Cost: one {@code gcc -c} for all assembler files, and one link per floor
 * (each holds {@value #NAMES} names) and per referencing library ({@value #NAMES} names times four kinds); one probe
 * process forks once per floor and fallback (and once more after a case that ends the process). {@link #shared()}
 * builds it once for the tests of every module.
 */
public final class FloorSpace {
  /** The SONAME of every floor, which every referencing library NEEDS first. */
  public static final String FLOOR = "libfloor.so";
  /** The SONAME of the library every referencing library NEEDS second. */
  public static final String FALLBACK = "libfallback.so";
  /** The first non-base version a floor defines (index 2), which versioned references ask for. */
  public static final String V1 = "V1";
  /** The second one (index 3); the only one of a {@link Version#MISSING_NODE} floor. */
  public static final String V2 = "V2";
  /** The word of every referencing library that holds the import's address after relocation. */
  public static final String WORD = "ref_word";
  static final int NAMES = 24;

  /** st_info's binding. */
  public enum Binding {
    GLOBAL(1), WEAK(2), LOCAL(0), GNU_UNIQUE(10);

    final int value;

    Binding(int value) {
      this.value = value;
    }
  }

  /** st_other's visibility. */
  public enum Visibility {
    DEFAULT(0), PROTECTED(3), HIDDEN(2), INTERNAL(1);

    final int value;

    Visibility(int value) {
      this.value = value;
    }
  }

  /** Where the entry is: a defined symbol, an undefined entry, SHN_ABS value 0, or a common symbol. */
  public enum Section {
    DEFINED, UNDEF, ABS, COMMON
  }

  /** st_info's type. */
  public enum Type {
    FUNC(2), OBJECT(1), TLS(6), IFUNC(10);

    final int value;

    Type(int value) {
      this.value = value;
    }
  }

  /** The entry's DT_VERSYM, and the floor's version definitions it implies. */
  public enum Version {
    /** A floor with no version table at all (neither DT_VERDEF nor DT_VERNEED). */
    NONE(-1),
    /** Index 1 (global) in a floor that defines V1 and V2. */
    BASE(1),
    /** {@code name@@V1}: the default version at index 2. */
    INDEX_2(2),
    /** {@code name@V1}: hidden, at index 2. */
    HIDDEN_2(0x8002),
    /** {@code name@@V2}: the default version at index 3. */
    INDEX_3(3),
    /** {@code name@V2}: hidden, at index 3. */
    HIDDEN_3(0x8003),
    /**
     * Index 1 (global) in a floor whose only version is V2: it lacks the node V1 that versioned references need,
     * while its definition itself names no version.
     */
    MISSING_NODE(1);

    final int versym;

    Version(int versym) {
      this.versym = versym;
    }
  }

  /** How the referencing library imports the name. */
  public enum Reference {
    /** {@code name}, strong: linked against a floor without versions. */
    UNVERSIONED,
    /** {@code name}, weak. */
    WEAK_UNVERSIONED,
    /** {@code name@V1}, strong: linked against a floor defining it in V1. */
    VERSIONED,
    /** {@code name@V1}, weak. */
    WEAK_VERSIONED,
    /** {@code name@V1}, strong, with V1's DT_VERNEED entry marked VER_FLG_WEAK (edited: ld never writes it). */
    WEAK_NEED,
    /**
     * {@code name@V1}, strong, with the index of V1's DT_VERNEED entry marked hidden (edited: no linker writes it):
     * glibc then takes only a definition of exactly V1.
     */
    HIDDEN_NEED;

    public boolean weak() {
      return this == WEAK_UNVERSIONED || this == WEAK_VERSIONED;
    }

    public boolean versioned() {
      return this != UNVERSIONED && this != WEAK_UNVERSIONED;
    }
  }

  /** One combination of the floor's entry. */
  public record Definition(Binding binding, Visibility visibility, Section section, Type type, Version version) {
    /** The definition {@link #toString()} writes, e.g. {@code GLOBAL HIDDEN DEFINED FUNC NONE}. */
    public static Definition parse(String text) {
      String[] w = text.trim().split("\\s+");
      if (w.length != 5) {
        throw new IllegalArgumentException("not BINDING VISIBILITY SECTION TYPE VERSION: " + text);
      }
      return new Definition(Binding.valueOf(w[0]), Visibility.valueOf(w[1]), Section.valueOf(w[2]),
          Type.valueOf(w[3]), Version.valueOf(w[4]));
    }

    @Override
    public String toString() {
      return binding + " " + visibility + " " + section + " " + type + " " + version;
    }
  }

  /**
   * What glibc did.
   *
   * @param kind {@code ok} (loaded), {@code fail} (dlopen returned NULL), {@code exit} (the process ended, as
   *     ld.so's assertions end it), {@code signal} (it was killed)
   * @param detail for {@code ok} where the import's word points: {@code 0}, the file of the object holding the
   *     address ({@code dladdr}), or {@code abs:HEX} outside every object; else dlerror's or the process's words
   */
  public record Outcome(String kind, String detail) {
    @Override
    public String toString() {
      return detail.isEmpty() ? kind : kind + " " + detail;
    }
  }

  /**
   * One generated case and glibc's answer.
   *
   * @param symbol the floor's name for it (each floor holds several)
   * @param floor the floor file, loaded first (its SONAME is {@link #FLOOR})
   * @param fallback the {@link #FALLBACK} loaded second: one defining every name, or one defining none
   * @param withFallback whether {@code fallback} defines the names
   * @param referencing the library dlopen()ed with RTLD_NOW, which NEEDS both
   * @param edited what was edited into the floor's entry after linking, with why the toolchain cannot write it
   */
  public record Case(Definition definition, Reference reference, boolean withFallback, String symbol, Path floor,
      Path fallback, Path referencing, Map<String, String> edited, Outcome glibc) {
    @Override
    public String toString() {
      return definition + " <- " + reference + (withFallback ? " (fallback defines it)" : "") + ": " + symbol + " in "
          + floor.getFileName() + ", " + referencing.getFileName();
    }
  }

  private final List<Case> cases;
  private final Map<Definition, String> pruned;
  private final String glibc;

  private FloorSpace(List<Case> cases, Map<Definition, String> pruned, String glibc) {
    this.cases = List.copyOf(cases);
    this.pruned = Map.copyOf(pruned);
    this.glibc = glibc;
  }

  public List<Case> cases() {
    return cases;
  }

  /** The case of {@code definition} imported as {@code reference}, with or without a defining fallback. */
  public Case find(String definition, Reference reference, boolean withFallback) {
    Definition d = Definition.parse(definition);
    return cases.stream().filter(c -> c.definition().equals(d) && c.reference() == reference
        && c.withFallback() == withFallback).findFirst()
        .orElseThrow(() -> new IllegalArgumentException(d + " was not generated"));
  }

  /** The combinations not generated, with why. */
  public Map<Definition, String> pruned() {
    return pruned;
  }

  /** The glibc that answered, e.g. {@code 2.36} ({@code gnu_get_libc_version}). */
  public String glibc() {
    return glibc;
  }

  /** This machine's glibc, {@code major.minor} ({@code getconf GNU_LIBC_VERSION}), for tests that run its dlopen. */
  public static String hostGlibc() throws IOException, InterruptedException {
    Process process = new ProcessBuilder("getconf", "GNU_LIBC_VERSION").redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0 || !out.startsWith("glibc ")) {
      throw new AssertionError("getconf GNU_LIBC_VERSION said '" + out + "': these tests compare with this machine's"
          + " glibc and need it");
    }
    return out.substring("glibc ".length());
  }

  /** Every combination of the five dimensions, generated or not. */
  public static List<Definition> all() {
    List<Definition> all = new ArrayList<>();
    for (Binding b : Binding.values()) {
      for (Visibility v : Visibility.values()) {
        for (Section s : Section.values()) {
          for (Type t : Type.values()) {
            for (Version version : Version.values()) {
              all.add(new Definition(b, v, s, t, version));
            }
          }
        }
      }
    }
    return all;
  }

  /**
   * Why a combination is not generated: the toolchain cannot express it, and no edit of a linked file would make it
   * a different question for glibc than one that is generated.
   */
  public static Optional<String> pruned(Definition d) {
    if (d.section() == Section.COMMON && (d.type() == Type.FUNC || d.type() == Type.IFUNC)) {
      return Optional.of("a common symbol is uninitialised data the linker allocates in .bss or .tbss: no directive"
          + " gives it a function type");
    }
    if (d.section() == Section.UNDEF && d.version().versym > 1) {
      return Optional.of("an undefined entry's version index names what it needs from another object (DT_VERNEED),"
          + " never one of the floor's own versions; the linker writes index 1 for it");
    }
    return Optional.empty();
  }

  /**
   * What of {@code d} the toolchain cannot write into .dynsym, so the build edits it into the linked floor: field
   * ({@code binding}, {@code visibility}, {@code type}, {@code versym}) and why.
   */
  public static Map<String, String> toolchainCannot(Definition d) {
    Map<String, String> cannot = new LinkedHashMap<>();
    if (d.binding() == Binding.LOCAL) {
      cannot.put("binding", "the linker never exports a LOCAL symbol into .dynsym");
    } else if (d.binding() == Binding.GNU_UNIQUE && !uniqueDirective(d)) {
      cannot.put("binding", "only a defined object takes %gnu_unique_object, and a .symver alias loses it");
    } else if (d.binding() == Binding.WEAK && d.section() == Section.COMMON) {
      cannot.put("binding", "a common symbol cannot be weak (as refuses it)");
    }
    if (d.visibility() == Visibility.HIDDEN || d.visibility() == Visibility.INTERNAL) {
      cannot.put("visibility", "the linker makes a " + d.visibility() + " symbol local and drops it from .dynsym");
    } else if (d.visibility() == Visibility.PROTECTED && d.section() == Section.UNDEF) {
      cannot.put("visibility", "ld refuses an undefined protected symbol");
    }
    if (d.type() == Type.IFUNC && d.section() == Section.UNDEF) {
      cannot.put("type", "ld writes an undefined IFUNC reference as FUNC");
    } else if (d.type() == Type.TLS && d.section() == Section.ABS && hiddenVersion(d.version())) {
      cannot.put("type", "a .symver alias of an absolute TLS symbol comes out as an OBJECT");
    }
    if (d.section() == Section.COMMON && hiddenVersion(d.version())) {
      cannot.put("versym", ".symver cannot version a common symbol, and a version script makes only defaults");
    }
    return cannot;
  }

  static boolean uniqueDirective(Definition d) {
    return d.section() == Section.DEFINED && d.type() == Type.OBJECT && !hiddenVersion(d.version());
  }

  static boolean hiddenVersion(Version v) {
    return v == Version.HIDDEN_2 || v == Version.HIDDEN_3;
  }

  /** The version tables of a floor: every entry of one floor shares them. */
  enum Layout {
    NONE, FULL, MISSING;

    static Layout of(Version v) {
      return v == Version.NONE ? NONE : v == Version.MISSING_NODE ? MISSING : FULL;
    }
  }

  /** One floor file: its names {@code tw_0…} in order, each one definition. */
  record Floor(int number, Layout layout, List<Definition> definitions) {
    String file() {
      return "floor-" + number + ".so";
    }
  }

  /** Builds every floor and referencing library in {@code dir} and asks glibc about each case. */
  public static FloorSpace build(Path dir) throws IOException, InterruptedException {
    return build(dir, d -> true);
  }

  /**
   * The whole space, built once per build of this module and shared by the tests of every module (elf's, core's,
   * te-runtime's) through this module's target folder.
   */
  public static FloorSpace shared() throws IOException, InterruptedException {
    return SharedFloorSpace.get();
  }

  /** A space read back from a saved one. */
  static FloorSpace of(List<Case> cases, Map<Definition, String> pruned, String glibc) {
    return new FloorSpace(cases, pruned, glibc);
  }

  /** {@link #build(Path)} for the definitions {@code wanted} takes only (a test of a few cases). */
  public static FloorSpace build(Path dir, Predicate<Definition> wanted) throws IOException, InterruptedException {
    Files.createDirectories(dir);
    Map<Definition, String> pruned = new LinkedHashMap<>();
    Map<Layout, List<Definition>> byLayout = new EnumMap<>(Layout.class);
    for (Definition d : all()) {
      Optional<String> why = pruned(d);
      if (why.isPresent()) {
        pruned.put(d, why.get());
      } else if (wanted.test(d)) {
        byLayout.computeIfAbsent(Layout.of(d.version()), k -> new ArrayList<>()).add(d);
      }
    }
    List<Floor> floors = new ArrayList<>();
    for (Map.Entry<Layout, List<Definition>> e : byLayout.entrySet()) {
      List<Definition> defs = e.getValue();
      for (int from = 0; from < defs.size(); from += NAMES) {
        floors.add(new Floor(floors.size(), e.getKey(), defs.subList(from, Math.min(defs.size(), from + NAMES))));
      }
    }

    List<String> sources = new ArrayList<>();
    for (Floor floor : floors) {
      write(dir, "floor-" + floor.number() + ".s", FloorAssembly.floor(floor));
      FloorAssembly.script(floor).ifPresent(text -> write(dir, "floor-" + floor.number() + ".map", text));
      sources.add("floor-" + floor.number() + ".s");
    }
    write(dir, "stub.s", FloorAssembly.definitions("tw_", NAMES));
    write(dir, "empty.s", FloorAssembly.definitions("tw_none_", 1));
    write(dir, "v1.map", V1 + " { global: *; };\n");
    sources.addAll(List.of("stub.s", "empty.s"));
    for (int k = 0; k < NAMES; k++) {
      write(dir, "ref-" + k + ".s", FloorAssembly.reference("tw_" + k, false));
      write(dir, "ref-weak-" + k + ".s", FloorAssembly.reference("tw_" + k, true));
      sources.add("ref-" + k + ".s");
      sources.add("ref-weak-" + k + ".s");
    }
    List<String> compile = new ArrayList<>(List.of("-c"));
    compile.addAll(sources);
    Gcc.run(dir, compile);

    link(dir, List.of(
        List.of("-o", "libfloor-plain.so", "stub.o", "-Wl,-soname," + FLOOR),
        List.of("-o", "libfloor-v1.so", "stub.o", "-Wl,-soname," + FLOOR, "-Wl,--version-script=v1.map"),
        List.of("-o", "libfallback.so", "stub.o", "-Wl,-soname," + FALLBACK),
        List.of("-o", "libfallback-empty.so", "empty.o", "-Wl,-soname," + FALLBACK)));
    List<List<String>> links = new ArrayList<>();
    for (Floor floor : floors) {
      List<String> args = new ArrayList<>(List.of("-o", floor.file(), "floor-" + floor.number() + ".o",
          "-Wl,-soname," + FLOOR));
      if (floor.layout() != Layout.NONE) {
        args.add("-Wl,--version-script=floor-" + floor.number() + ".map");
      }
      links.add(args);
    }
    for (int k = 0; k < NAMES; k++) {
      for (Reference kind : List.of(Reference.UNVERSIONED, Reference.WEAK_UNVERSIONED, Reference.VERSIONED,
          Reference.WEAK_VERSIONED)) {
        links.add(List.of("-o", referencing(kind, k), (kind.weak() ? "ref-weak-" : "ref-") + k + ".o", "-L.",
            "-Wl,--no-as-needed", kind.versioned() ? "-l:libfloor-v1.so" : "-l:libfloor-plain.so",
            "-l:libfallback.so", "-Wl,-z,now", "-Wl,-soname,lib" + referencing(kind, k)));
      }
    }
    link(dir, links);
    for (int k = 0; k < NAMES; k++) {
      Path weakNeed = dir.resolve(referencing(Reference.WEAK_NEED, k));
      Files.copy(dir.resolve(referencing(Reference.VERSIONED, k)), weakNeed, StandardCopyOption.REPLACE_EXISTING);
      try (DynamicSymbolEdit edit = DynamicSymbolEdit.open(weakNeed)) {
        edit.setNeedFlags(V1, 2); // VER_FLG_WEAK
      }
      Path hiddenNeed = dir.resolve(referencing(Reference.HIDDEN_NEED, k));
      Files.copy(dir.resolve(referencing(Reference.VERSIONED, k)), hiddenNeed, StandardCopyOption.REPLACE_EXISTING);
      try (DynamicSymbolEdit edit = DynamicSymbolEdit.open(hiddenNeed)) {
        edit.markNeedHidden(V1);
      }
    }

    List<Map<String, Map<String, String>>> edits = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    for (Floor floor : floors) {
      try {
        edits.add(edit(dir.resolve(floor.file()), floor));
      } catch (AssertionError e) {
        failures.add(e.getMessage());
      }
    }
    if (!failures.isEmpty()) {
      throw new AssertionError(String.join("\n", failures));
    }

    Path probe = dir.resolve("floor-probe");
    write(dir, "floor-probe.c", FloorProbe.SOURCE);
    Gcc.run(dir, List.of("-O1", "-o", probe.toString(), "floor-probe.c", "-ldl"));
    List<Case> unanswered = new ArrayList<>();
    StringBuilder input = new StringBuilder();
    for (Floor floor : floors) {
      for (boolean withFallback : List.of(false, true)) {
        for (int k = 0; k < floor.definitions().size(); k++) {
          for (Reference kind : Reference.values()) {
            Path fallback = dir.resolve(withFallback ? "libfallback.so" : "libfallback-empty.so");
            Path referencing = dir.resolve(referencing(kind, k));
            Path file = dir.resolve(floor.file());
            unanswered.add(new Case(floor.definitions().get(k), kind, withFallback, "tw_" + k, file, fallback,
                referencing, edits.get(floor.number()).get("tw_" + k), null));
            input.append(file).append('\t').append(fallback).append('\t').append(referencing).append('\n');
          }
        }
      }
    }
    Path list = write(dir, "cases.txt", input.toString());
    List<String> answers = FloorProbe.run(probe, list);
    if (answers.size() != unanswered.size() + 1 || !answers.get(0).startsWith("glibc ")) {
      throw new AssertionError("floor-probe answered " + answers.size() + " lines for " + unanswered.size()
          + " cases: " + answers.subList(0, Math.min(3, answers.size())));
    }
    List<Case> cases = new ArrayList<>(unanswered.size());
    for (int i = 0; i < unanswered.size(); i++) {
      Case c = unanswered.get(i);
      String answer = answers.get(i + 1);
      int space = answer.indexOf(' ');
      String kind = space < 0 ? answer : answer.substring(0, space);
      String detail = space < 0 ? "" : answer.substring(space + 1);
      if (kind.equals("exit") || kind.equals("signal")) {
        int next = detail.indexOf(' ');
        kind = kind + " " + (next < 0 ? detail : detail.substring(0, next));
        detail = next < 0 ? "" : detail.substring(next + 1);
      }
      if (kind.equals("floor")) {
        throw new AssertionError("a fixture itself did not load (" + detail + "): " + c);
      }
      cases.add(new Case(c.definition(), c.reference(), c.withFallback(), c.symbol(), c.floor(), c.fallback(),
          c.referencing(), c.edited(), new Outcome(kind, detail)));
    }
    return new FloorSpace(cases, pruned, answers.get(0).substring("glibc ".length()));
  }

  private static String referencing(Reference kind, int k) {
    return "ref-" + kind.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-') + "-" + k + ".so";
  }

  /** Links each argument list with {@code gcc -shared -nostdlib}, two at a time (the machines have two cores). */
  private static void link(Path dir, List<List<String>> links) throws IOException, InterruptedException {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (List<String> args : links) {
        List<String> all = new ArrayList<>(List.of("-shared", "-nostdlib"));
        all.addAll(args);
        done.add(pool.submit(() -> {
          Gcc.run(dir, all);
          return null;
        }));
      }
      for (Future<?> f : done) {
        try {
          f.get();
        } catch (java.util.concurrent.ExecutionException e) {
          if (e.getCause() instanceof Error error) {
            throw error;
          }
          throw new IOException(e.getCause());
        }
      }
    } finally {
      pool.shutdownNow();
      pool.awaitTermination(1, TimeUnit.MINUTES);
    }
  }




  /**
   * Edits into the linked floor what the toolchain could not write, after checking that it wrote everything else
   * as asked; returns, per name, the fields edited and why.
   */
  private static Map<String, Map<String, String>> edit(Path file, Floor floor) throws IOException {
    Map<String, Map<String, String>> edited = new LinkedHashMap<>();
    List<String> unexpected = new ArrayList<>();
    try (DynamicSymbolEdit edit = DynamicSymbolEdit.open(file)) {
      Map<String, DynamicSymbolEdit.Entry> entries = edit.entries();
      for (int k = 0; k < floor.definitions().size(); k++) {
        Definition d = floor.definitions().get(k);
        String name = "tw_" + k;
        DynamicSymbolEdit.Entry e = entries.get(name);
        if (e == null) {
          throw new AssertionError(file + ": the linker wrote no .dynsym entry " + name + " for " + d);
        }
        int section = e.sectionIndex();
        boolean sectionOk = switch (d.section()) {
          case DEFINED, COMMON -> section != 0 && section != 0xfff1;
          case UNDEF -> section == 0;
          case ABS -> section == 0xfff1;
        };
        if (!sectionOk) {
          throw new AssertionError(file + ": " + name + " has section index " + section + ", not " + d.section());
        }
        Map<String, String> cannot = toolchainCannot(d);
        Map<String, String> done = new LinkedHashMap<>();
        check(name, d, "binding", e.binding(), d.binding().value, cannot, done, unexpected);
        check(name, d, "visibility", e.visibility(), d.visibility().value, cannot, done, unexpected);
        check(name, d, "type", e.type(), d.type().value, cannot, done, unexpected);
        check(name, d, "versym", e.versym(), d.version().versym, cannot, done, unexpected);
        if (done.containsKey("binding") || done.containsKey("visibility") || done.containsKey("type")) {
          edit.setSymbol(e.index(), d.binding().value, d.type().value, d.visibility().value);
        }
        if (done.containsKey("versym")) {
          edit.setVersym(e.index(), d.version().versym);
        }
        edited.put(name, Map.copyOf(done));
      }
    }
    if (!unexpected.isEmpty()) {
      throw new AssertionError(file + ": the toolchain did not write what it is expected to write:\n  "
          + String.join("\n  ", unexpected));
    }
    return edited;
  }

  private static void check(String name, Definition d, String field, int found, int wanted,
      Map<String, String> cannot, Map<String, String> done, List<String> unexpected) {
    if (found == wanted) {
      return;
    }
    if (!cannot.containsKey(field)) {
      unexpected.add(name + " (" + d + "): " + field + " " + found + ", not " + wanted);
    }
    done.put(field, cannot.getOrDefault(field, "?"));
  }



  static Path write(Path dir, String name, String text) {
    try {
      return Files.writeString(dir.resolve(name), text);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }


}
