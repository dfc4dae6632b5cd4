/* dlopen-now [--lazy] <library>: glibc's dlopen(RTLD_NOW | RTLD_LOCAL) of one library (RTLD_LAZY with --lazy, as TE
 * opens NCCL EP), the loader as oracle. Prints "loaded" and exits 0, or prints dlerror() to stderr and exits 1. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  int lazy = argc == 3 && strcmp(argv[1], "--lazy") == 0;
  if (argc != 2 && !lazy) {
    fprintf(stderr, "usage: dlopen-now [--lazy] <library>\n");
    return 2;
  }
  if (dlopen(argv[argc - 1], (lazy ? RTLD_LAZY : RTLD_NOW) | RTLD_LOCAL) == NULL) {
    fprintf(stderr, "%s\n", dlerror());
    return 1;
  }
  printf("loaded\n");
  return 0;
}
