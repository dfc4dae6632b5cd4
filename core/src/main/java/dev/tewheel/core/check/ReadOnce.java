package dev.tewheel.core.check;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a subject reads of each of its files (its ELF view, digest, device code, property note), read once per file:
 * the value, or the IOException reading it gave, which every later call throws again.
 *
 * @param <T> what is read
 */
final class ReadOnce<T> {
  interface Reader<T> {
    T read(SubjectFile file) throws IOException;
  }

  private record Outcome<T>(T value, IOException failure) {}

  private final Map<String, Outcome<T>> outcomes = new ConcurrentHashMap<>();
  private final Reader<T> reader;

  ReadOnce(Reader<T> reader) {
    this.reader = reader;
  }

  T get(SubjectFile file) throws IOException {
    Outcome<T> outcome = outcomes.computeIfAbsent(file.path(), path -> {
      try {
        return new Outcome<>(reader.read(file), null);
      } catch (IOException e) {
        return new Outcome<>(null, e);
      }
    });
    if (outcome.failure() != null) {
      throw outcome.failure();
    }
    return outcome.value();
  }
}
