/* dlopen-now <library>: glibc's dlopen(RTLD_NOW | RTLD_LOCAL) of one library, the loader as oracle for StandInsTest.
 * Prints "loaded" and exits 0, or prints dlerror() to stderr and exits 1. */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: dlopen-now <library>\n");
    return 2;
  }
  if (dlopen(argv[1], RTLD_NOW | RTLD_LOCAL) == NULL) {
    fprintf(stderr, "%s\n", dlerror());
    return 1;
  }
  printf("loaded\n");
  return 0;
}
