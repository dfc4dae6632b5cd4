package dev.tewheel.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The rules, as functions of what they are applied to, so a test can hold each to a fixture that breaks it. */
final class Rules {
  /** The accessors through which an object's search path is read: only the loader model interprets it. */
  static final Map<String, Set<String>> SEARCH_PATH_READERS = Map.of(
      "dev.tewheel.elf.ElfFile", Set.of("rpath", "runpath"));

  /** The string constants naming the loader's other inputs: the variable it reads, the cache it reads. */
  static final Set<String> LOADER_INPUT_NAMES = Set.of("LD_LIBRARY_PATH", "/etc/ld.so.cache");

  private Rules() {}

  /** Each package of {@code root} is a slice; no two reach each other. */
  static ArchRule noPackageCycles(String root) {
    return slices().matching(root + ".(**)").should().beFreeOfCycles();
  }

  /**
   * The subpackages of {@code root}, named lowest first, each import only the ones before it: no class of one names a
   * class of a later one (or of a package below that).
   */
  static ArchRule layered(String root, List<String> lowestFirst) {
    List<ArchRule> rules = new ArrayList<>();
    for (int i = 0; i < lowestFirst.size() - 1; i++) {
      String[] above = lowestFirst.subList(i + 1, lowestFirst.size()).stream().map(p -> root + "." + p + "..")
          .toArray(String[]::new);
      rules.add(noClasses().that().resideInAPackage(root + "." + lowestFirst.get(i) + "..").should()
          .dependOnClassesThat().resideInAnyPackage(above));
    }
    return CompositeArchRule.of(rules);
  }

  /**
   * A class reads one of the loader's inputs: it calls an accessor of an object's DT_RPATH/DT_RUNPATH (or of the
   * entries glibc uses of them), or its code holds the exact text {@code LD_LIBRARY_PATH} or {@code /etc/ld.so.cache}
   * as a string constant (a getenv argument, a path to open). A sentence that mentions them is no such constant.
   */
  static ArchCondition<JavaClass> readLoaderInputs() {
    return new ArchCondition<>("read the dynamic loader's inputs (DT_RPATH/DT_RUNPATH, LD_LIBRARY_PATH,"
        + " /etc/ld.so.cache), which only dev.tewheel.loader interprets") {
      @Override
      public void check(JavaClass javaClass, ConditionEvents events) {
        for (String reason : loaderInputsRead(javaClass)) {
          events.add(SimpleConditionEvent.satisfied(javaClass, javaClass.getName() + " " + reason));
        }
      }
    };
  }

  /** Why {@code javaClass} reads the loader's inputs, one line per reason; empty when it does not. */
  static List<String> loaderInputsRead(JavaClass javaClass) {
    List<String> reasons = new java.util.ArrayList<>();
    for (JavaMethodCall call : javaClass.getMethodCallsFromSelf()) {
      Set<String> names = SEARCH_PATH_READERS.get(call.getTargetOwner().getName());
      if (names != null && names.contains(call.getName())) {
        reasons.add("calls " + call.getTargetOwner().getSimpleName() + "." + call.getName() + "() in "
            + call.getSourceCodeLocation());
      }
    }
    for (String constant : stringConstants(javaClass)) {
      if (LOADER_INPUT_NAMES.contains(constant)) {
        reasons.add("holds the string constant \"" + constant + "\"");
      }
    }
    return reasons;
  }

  static DescribedPredicate<JavaClass> resideIn(String packageName) {
    return DescribedPredicate.describe("reside in " + packageName, c -> c.getPackageName().equals(packageName));
  }

  /** A class named in {@code names}, or a class nested in one. */
  static DescribedPredicate<JavaClass> namedOrNestedIn(Set<String> names) {
    return DescribedPredicate.describe("one of " + names,
        c -> names.contains(c.getName()) || names.stream().anyMatch(n -> c.getName().startsWith(n + "$")));
  }

  /**
   * The CONSTANT_String entries of a class file's constant pool (JVMS 4.4): every string literal its code loads,
   * also the recipes of string concatenation. ArchUnit models no constants, so the class file is read here.
   */
  static Set<String> stringConstants(JavaClass javaClass) {
    var source = javaClass.getSource().orElseThrow(() -> new IllegalStateException("no class file for " + javaClass));
    try (InputStream raw = source.getUri().toURL().openStream();
        DataInputStream in = new DataInputStream(raw)) {
      if (in.readInt() != 0xCAFEBABE) {
        throw new IllegalStateException("not a class file: " + source.getUri());
      }
      in.readUnsignedShort();
      in.readUnsignedShort();
      int count = in.readUnsignedShort();
      String[] utf8 = new String[count];
      Set<Integer> strings = new HashSet<>();
      for (int i = 1; i < count; i++) {
        int tag = in.readUnsignedByte();
        switch (tag) {
          case 1 -> utf8[i] = in.readUTF();
          case 8 -> strings.add(in.readUnsignedShort());
          case 7, 16, 19, 20 -> in.readUnsignedShort();
          case 15 -> {
            in.readUnsignedByte();
            in.readUnsignedShort();
          }
          case 3, 4, 9, 10, 11, 12, 17, 18 -> in.readInt();
          case 5, 6 -> {
            in.readLong();
            i++; // a long or double takes two entries
          }
          default -> throw new IllegalStateException("constant pool tag " + tag + " unknown in " + source.getUri());
        }
      }
      Set<String> result = new HashSet<>();
      for (int index : strings) {
        result.add(utf8[index]);
      }
      return result;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + source.getUri(), e);
    }
  }
}
