/* glibc itself, as the oracle of te-runtime's "is it loaded?" and of the loader model's "would dlopen wait?"
 * (runtime's NoLoadDifferentialTest).
 *
 *   noload_probe [LOAD...] -- [ASK...]
 *
 * dlopen(LOAD, RTLD_NOW | RTLD_LOCAL) for each LOAD, in order ("load <LOAD> ok" or "load <LOAD> fail <dlerror>");
 * then, for each ASK, two questions, each in a child process of its own, all at once, stopped after two seconds:
 *   "noload <ASK> <real path>" | "noload <ASK> -" | "noload <ASK> waits": dlopen(ASK, RTLD_LAZY | RTLD_NOLOAD);
 *   "open <ASK> ok <real path>" | "open <ASK> fail" | "open <ASK> waits": dlopen(ASK, RTLD_NOW).
 * A child still in dlopen after two seconds waits at a FIFO (or a terminal): nothing will ever write to it. A
 * dlopen that ends takes milliseconds. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void print_mapped(void *handle) {
  struct link_map *map = NULL;
  char real[PATH_MAX];
  if (dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0) {
    printf("dlinfo-failed\n");
    return;
  }
  printf("%s\n", realpath(map->l_name, real) != NULL ? real : map->l_name);
}

/* One question, asked in a child of its own: the line it writes to its pipe. */
struct question {
  const char *verb;
  const char *name;
  int flags;
  pid_t child;
  int pipe;
};

static void start(struct question *q) {
  int fds[2];
  if (pipe(fds) != 0) {
    perror("pipe");
    exit(2);
  }
  q->child = fork();
  if (q->child == 0) {
    close(fds[0]);
    dup2(fds[1], STDOUT_FILENO);
    alarm(2);
    void *handle = dlopen(q->name, q->flags);
    if (handle == NULL) {
      printf("%s %s %s\n", q->verb, q->name, (q->flags & RTLD_NOLOAD) ? "-" : "fail");
    } else {
      printf("%s %s %s", q->verb, q->name, (q->flags & RTLD_NOLOAD) ? "" : "ok ");
      print_mapped(handle);
    }
    fflush(stdout);
    _exit(0);
  }
  close(fds[1]);
  q->pipe = fds[0];
}

/* Its answer, or "<verb> <name> waits" when the child was still in dlopen after two seconds. */
static void finish(struct question *q) {
  int status = 0;
  waitpid(q->child, &status, 0);
  char line[PATH_MAX + 256];
  ssize_t length = read(q->pipe, line, sizeof line - 1);
  close(q->pipe);
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
    printf("%s %s waits\n", q->verb, q->name);
  } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || length <= 0) {
    printf("%s %s crashed\n", q->verb, q->name);
  } else {
    line[length] = 0;
    fputs(line, stdout);
  }
}

int main(int argc, char **argv) {
  int i = 1;
  for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
    void *handle = dlopen(argv[i], RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
      printf("load %s fail %s\n", argv[i], dlerror());
    } else {
      printf("load %s ok\n", argv[i]);
    }
  }
  fflush(stdout);
  int asked = argc - i - 1;
  struct question *questions = calloc(2 * (asked > 0 ? asked : 1), sizeof *questions);
  for (int k = 0; k < asked; k++) {
    questions[2 * k] = (struct question){"noload", argv[i + 1 + k], RTLD_LAZY | RTLD_NOLOAD, 0, -1};
    questions[2 * k + 1] = (struct question){"open", argv[i + 1 + k], RTLD_NOW, 0, -1};
  }
  /* All at once, so that a case costs two seconds at most however many questions wait. */
  for (int k = 0; k < 2 * asked; k++) {
    start(&questions[k]);
  }
  for (int k = 0; k < 2 * asked; k++) {
    finish(&questions[k]);
  }
  return 0;
}
