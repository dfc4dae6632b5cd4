package dev.tewheel.elf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.SortedSet;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

/** {@link SortedNames} behaves as a TreeSet of the same names would. */
class SortedNamesTest {
  @Property(tries = 300)
  void behavesLikeATreeSet(@ForAll List<@StringLength(max = 3) String> names, @ForAll @StringLength(max = 3) String a,
      @ForAll @StringLength(max = 3) String b) {
    TreeSet<String> expected = new TreeSet<>(names);
    SortedSet<String> actual = SortedNames.of(names);
    same(expected, actual);
    String low = a.compareTo(b) <= 0 ? a : b;
    String high = a.compareTo(b) <= 0 ? b : a;
    same(expected.headSet(high), actual.headSet(high));
    same(expected.tailSet(low), actual.tailSet(low));
    same(expected.subSet(low, high), actual.subSet(low, high));
    assertEquals(expected.contains(a), actual.contains(a));
    assertEquals(expected, actual);
    assertEquals(actual, expected);
    assertEquals(expected.hashCode(), actual.hashCode());
  }

  @Test
  void emptyHasNoEnds() {
    SortedSet<String> empty = SortedNames.of(List.of());
    assertThrows(NoSuchElementException.class, empty::first);
    assertThrows(NoSuchElementException.class, empty::last);
    assertThrows(NoSuchElementException.class, () -> empty.iterator().next());
    assertThrows(UnsupportedOperationException.class, () -> empty.add("x"));
  }

  private static void same(SortedSet<String> expected, SortedSet<String> actual) {
    assertEquals(new ArrayList<>(expected), new ArrayList<>(actual));
    assertEquals(expected.size(), actual.size());
    if (!expected.isEmpty()) {
      assertEquals(expected.first(), actual.first());
      assertEquals(expected.last(), actual.last());
    }
  }
}
