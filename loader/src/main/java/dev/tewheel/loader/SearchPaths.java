package dev.tewheel.loader;

import dev.tewheel.elf.ElfFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The search-path lists glibc reads, as folders: an object's DT_RPATH and DT_RUNPATH, {@code LD_LIBRARY_PATH}, with
 * their dynamic string tokens ({@code $ORIGIN}, {@code $PLATFORM}, {@code $LIB}) expanded for a {@link Host}.
 */
public final class SearchPaths {
  /** The variable glibc reads the user's search path from. */
  private static final String LD_LIBRARY_PATH = "LD_LIBRARY_PATH";

  private SearchPaths() {}

  /** The environment variables the search reads, so a live host can be asked for exactly these. */
  /**
   * {@code $LIB} as glibc's build sets it from its library folder, the folder {@code libc} (the running libc.so.6) was
   * mapped from: upstream takes its last part ({@code lib64} on Fedora), Debian and Ubuntu the whole folder below the
   * root ({@code lib/x86_64-linux-gnu}). So: that folder without its leading {@code /} and {@code usr/}; empty when
   * {@code libc} is.
   */
  public static Optional<String> libToken(Optional<Path> libc) {
    String folder = libc.isEmpty() || libc.get().getParent() == null ? "" : libc.get().getParent().toString();
    folder = folder.startsWith("/usr/") ? folder.substring(5) : folder.startsWith("/") ? folder.substring(1) : folder;
    return folder.isEmpty() ? Optional.empty() : Optional.of(folder);
  }

  public static List<String> environmentNames() {
    return List.of(LD_LIBRARY_PATH);
  }

  /**
   * The DT_RPATH entries glibc uses for {@code elf}: none when it also has a DT_RUNPATH (the loader then ignores its
   * DT_RPATH entirely, also when it is the loader of another object), else its DT_RPATH. Entries as {@link
   * ElfFile#rpath()} gives them: split on ':', empty ones kept (each is the current working directory).
   */
  public static List<String> rpathInEffect(ElfFile elf) {
    return elf.runpath().isEmpty() ? elf.rpath() : List.of();
  }

  /**
   * The search-path entries of {@code elf} itself that glibc searches for its own DT_NEEDED names: its DT_RUNPATH
   * when it has one, else its DT_RPATH ({@link #rpathInEffect}). Its own folder is not among them unless an entry
   * names {@code $ORIGIN}; an empty entry is the current working directory.
   */
  public static List<String> ownSearchPath(ElfFile elf) {
    return elf.runpath().isEmpty() ? elf.rpath() : elf.runpath();
  }

  /**
   * LD_LIBRARY_PATH's entries as glibc's _dl_init_paths splits them, before any token is expanded: unset or empty is
   * no entry at all; otherwise ':' and ';' separate and every entry counts (an empty one, also leading or trailing,
   * is the current directory).
   */
  public static List<String> ldLibraryPathEntries(Host host) {
    Optional<String> value = host.getenv(LD_LIBRARY_PATH);
    if (value.isEmpty() || value.get().isEmpty()) {
      return List.of();
    }
    List<String> entries = new ArrayList<>();
    int start = 0;
    String text = value.get();
    for (int i = 0; i <= text.length(); i++) {
      if (i == text.length() || text.charAt(i) == ':' || text.charAt(i) == ';') {
        entries.add(text.substring(start, i));
        start = i + 1;
      }
    }
    return entries;
  }

  /** LD_LIBRARY_PATH's folders ({@link #ldLibraryPathEntries}), {@code $ORIGIN} the executable's folder. */
  public static List<String> ldLibraryPath(Host host) {
    return folders(ldLibraryPathEntries(host), host.executableFolder(), host);
  }

  /**
   * DT_RPATH/DT_RUNPATH entries (already split on ':') as fillin_rpath takes them: an empty entry is the current
   * directory; an entry whose dynamic string token has no value is dropped.
   */
  public static List<String> folders(List<String> entries, Path origin, Host host) {
    List<String> folders = new ArrayList<>();
    for (String entry : entries) {
      if (entry.isEmpty()) {
        folders.add("");
      } else {
        Optional<String> folder = expand(entry, origin, host);
        if (folder.isPresent() && !folder.get().isEmpty()) {
          folders.add(folder.get());
        }
      }
    }
    return folders;
  }

  /**
   * {@code $ORIGIN}, {@code $PLATFORM}, {@code $LIB} (or in braces) replaced as _dl_dst_substitute does; a name
   * followed by an identifier character is no token and stays. Empty when a token has no known value.
   *
   * @param origin the folder of the object the entry is of; null when unknown
   */
  public static Optional<String> expand(String entry, Path origin, Host host) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < entry.length()) {
      char c = entry.charAt(i);
      if (c != '$') {
        out.append(c);
        i++;
        continue;
      }
      int length = 0;
      Optional<String> value = Optional.empty();
      for (String token : List.of("ORIGIN", "PLATFORM", "LIB")) {
        length = tokenLength(entry, i + 1, token);
        if (length > 0) {
          value = switch (token) {
            case "ORIGIN" -> origin == null ? Optional.empty() : Optional.of(origin.toString());
            case "PLATFORM" -> host.platform();
            default -> host.lib();
          };
          break;
        }
      }
      if (length == 0) {
        out.append('$');
        i++;
      } else if (value.isEmpty()) {
        return Optional.empty();
      } else {
        out.append(value.get());
        i += 1 + length;
      }
    }
    return Optional.of(out.toString());
  }

  /** dl-load.c's is_dst: the length of {@code token} or {@code {token}} at {@code at}, else 0. */
  private static int tokenLength(String text, int at, String token) {
    boolean curly = at < text.length() && text.charAt(at) == '{';
    int start = curly ? at + 1 : at;
    if (!text.startsWith(token, start)) {
      return 0;
    }
    int after = start + token.length();
    if (curly) {
      return after < text.length() && text.charAt(after) == '}' ? token.length() + 2 : 0;
    }
    if (after < text.length()) {
      char next = text.charAt(after);
      if (Character.isLetterOrDigit(next) && next < 128 || next == '_') {
        return 0;
      }
    }
    return token.length();
  }
}
