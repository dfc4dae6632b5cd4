package dev.tewheel.standins;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The oracle of {@link FloorSpace}: a C program, compiled at test time, that asks glibc's dlopen about each case. */
final class FloorProbe {
  private FloorProbe() {}

  static List<String> run(Path probe, Path list) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(probe.toString()).redirectInput(list.toFile())
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(5, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new AssertionError("floor-probe did not finish within 5 minutes");
    }
    if (process.exitValue() != 0) {
      throw new AssertionError("floor-probe exited " + process.exitValue() + ":\n" + out);
    }
    return out.lines().toList();
  }

  /**
   * The oracle. Input: one line {@code floor TAB fallback TAB referencing} per case, the cases of one floor and
   * fallback together. For each such group a child process dlopen()s the floor and the fallback (RTLD_NOW |
   * RTLD_LOCAL; every referencing library's DT_NEEDED then binds to them by SONAME), then each referencing library
   * of the group with RTLD_NOW, and says what glibc did; each referencing library has its own SONAME and is opened
   * RTLD_LOCAL, so one that stays mapped changes no other's lookup. A case that ends the process (an assertion of
   * ld.so, a resolver called at address 0) is answered with how it ended and what it printed, and a new child
   * goes on with the next case. Output: {@code glibc VERSION}, then one line per case in input order.
   */
  static final String SOURCE = """
      #define _GNU_SOURCE
      #include <dlfcn.h>
      #include <gnu/libc-version.h>
      #include <stdio.h>
      #include <stdlib.h>
      #include <string.h>
      #include <sys/wait.h>
      #include <unistd.h>

      static char **floors, **fallbacks, **refs, **answers;

      /* The child: answers cases from..to-1 on fd 1 as "R <i> <answer>", one write each. */
      static void child(int from, int to) {
        if (!dlopen(floors[from], RTLD_NOW | RTLD_LOCAL) || !dlopen(fallbacks[from], RTLD_NOW | RTLD_LOCAL)) {
          dprintf(1, "R %d floor %s\\n", from, dlerror());
          return;
        }
        for (int i = from; i < to; i++) {
          void *lib = dlopen(refs[i], RTLD_NOW | RTLD_LOCAL);
          if (!lib) {
            dprintf(1, "R %d fail %s\\n", i, dlerror());
            continue;
          }
          void **word = dlsym(lib, "ref_word");
          Dl_info info;
          if (!word) {
            dprintf(1, "R %d floor no ref_word in %s\\n", i, refs[i]);
          } else if (*word == NULL) {
            dprintf(1, "R %d ok 0\\n", i);
          } else if (dladdr(*word, &info) && info.dli_fname) {
            dprintf(1, "R %d ok %s\\n", i, info.dli_fname);
          } else {
            dprintf(1, "R %d ok abs:%lx\\n", i, (unsigned long) *word);
          }
        }
      }

      /* Runs a child on from..to-1; returns the first case it did not answer (to when all were). */
      static int run(int from, int to, char *stray, size_t stray_size, int *status) {
        int fds[2];
        if (pipe(fds) != 0) {
          exit(3);
        }
        fflush(stdout);
        pid_t pid = fork();
        if (pid < 0) {
          exit(4);
        }
        if (pid == 0) {
          close(fds[0]);
          dup2(fds[1], 1);
          dup2(fds[1], 2);
          child(from, to);
          _exit(0);
        }
        close(fds[1]);
        size_t size = 1 << 16, n = 0;
        char *out = malloc(size);
        ssize_t got;
        while ((got = read(fds[0], out + n, size - n - 1)) > 0) {
          n += (size_t) got;
          if (size - n < 4096) {
            out = realloc(out, size *= 2);
          }
        }
        close(fds[0]);
        out[n] = 0;
        waitpid(pid, status, 0);
        int next = from;
        stray[0] = 0;
        for (char *line = strtok(out, "\\n"); line; line = strtok(NULL, "\\n")) {
          int i, used;
          if (sscanf(line, "R %d %n", &i, &used) == 1 && i >= from && i < to) {
            answers[i] = strdup(line + used);
            next = i + 1;
          } else if (strlen(stray) + strlen(line) + 2 < stray_size) {
            strcat(stray, stray[0] ? " " : "");
            strcat(stray, line);
          }
        }
        free(out);
        return next;
      }

      int main(void) {
        size_t cap = 1024, count = 0;
        floors = malloc(cap * sizeof *floors);
        fallbacks = malloc(cap * sizeof *fallbacks);
        refs = malloc(cap * sizeof *refs);
        static char line[3 * 4096 + 8];
        while (fgets(line, sizeof line, stdin)) {
          line[strcspn(line, "\\n")] = 0;
          char *floor = strtok(line, "\\t"), *fallback = strtok(NULL, "\\t"), *ref = strtok(NULL, "\\t");
          if (!floor || !fallback || !ref) {
            return 2;
          }
          if (count == cap) {
            cap *= 2;
            floors = realloc(floors, cap * sizeof *floors);
            fallbacks = realloc(fallbacks, cap * sizeof *fallbacks);
            refs = realloc(refs, cap * sizeof *refs);
          }
          floors[count] = strdup(floor);
          fallbacks[count] = strdup(fallback);
          refs[count] = strdup(ref);
          count++;
        }
        answers = calloc(count, sizeof *answers);
        static char stray[4096], ended[4096 + 64];
        for (int from = 0; from < (int) count;) {
          int to = from;
          while (to < (int) count && !strcmp(floors[to], floors[from]) && !strcmp(fallbacks[to], fallbacks[from])) {
            to++;
          }
          while (from < to) {
            int status;
            int next = run(from, to, stray, sizeof stray, &status);
            if (next < to) {
              if (WIFSIGNALED(status)) {
                snprintf(ended, sizeof ended, "signal %d %s", WTERMSIG(status), stray);
              } else {
                snprintf(ended, sizeof ended, "exit %d %s", WEXITSTATUS(status), stray);
              }
              answers[next] = strdup(ended);
              next++;
            }
            from = next;
          }
        }
        printf("glibc %s\\n", gnu_get_libc_version());
        for (size_t i = 0; i < count; i++) {
          printf("%s\\n", answers[i]);
        }
        return 0;
      }
      """;
}
