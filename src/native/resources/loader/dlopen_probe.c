/* glibc itself, as the oracle of te-runtime's loader model (runtime's LoaderDifferentialTest, core's
 * DependenciesResolveCheckTest).
 *
 *   dlopen_probe NAME [DEP...]
 *
 * dlopen(NAME, RTLD_NOW | RTLD_LOCAL), then prints "ok <real path of the mapped file>" or "fail <dlerror>"; after
 * "ok", one line per DEP: "<DEP> <real path>" of the object loaded under that name (RTLD_NOLOAD), or "<DEP> -". */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>

static void print_real(const char *name) {
  char real[PATH_MAX];
  printf("%s\n", realpath(name, real) != NULL ? real : name);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: dlopen_probe NAME [DEP...]\n");
    return 2;
  }
  void *handle = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) {
    printf("fail %s\n", dlerror());
    return 0;
  }
  struct link_map *map = NULL;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0) {
    printf("fail dlinfo: %s\n", dlerror());
    return 0;
  }
  printf("ok ");
  print_real(map->l_name);
  for (int i = 2; i < argc; i++) {
    void *dep = dlopen(argv[i], RTLD_NOW | RTLD_NOLOAD);
    if (dep == NULL || dlinfo(dep, RTLD_DI_LINKMAP, &map) != 0) {
      printf("%s -\n", argv[i]);
      continue;
    }
    printf("%s ", argv[i]);
    print_real(map->l_name);
  }
  return 0;
}
