/* nccl-ranks N: N processes (this one and N-1 forked after ncclGetUniqueId) form one communicator of the stand-in
 * NCCL and check that its collectives really move data between them; then rank N-1 exits in the middle and the
 * others must see ncclRemoteError naming it, not hang. Prints one PASS/FAIL line per check; exit status 0 when all
 * passed. (te-wheel test program, run by StandInsTest.) */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nccl.h>

static int failures;

static void check(int rank, int ok, const char *what) {
  printf("%s rank %d: %s\n", ok ? "PASS" : "FAIL", rank, what);
  fflush(stdout);
  if (!ok) failures++;
}

static int leftover_segments(void) {
  DIR *dir = opendir("/dev/shm");
  int found = 0;
  char prefix[64];
  snprintf(prefix, sizeof prefix, "te-wheel-nccl-%d-", (int)getpid());
  for (struct dirent *e; dir != NULL && (e = readdir(dir)) != NULL;) found += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
  if (dir != NULL) closedir(dir);
  return found;
}

/* The survivors leave only once all of them have checked the error: one that left earlier would be the first exited
 * rank another survivor finds, and that check would name it instead of rank N-1. Each other survivor writes a byte to
 * `checked` and closes its end; rank 0 reads until it has them all (or EOF: a rank died) and then writes one byte per
 * survivor to `release`, which they wait for (EOF if rank 0 died). Nothing waits forever. */
static int checked[2], release[2];

static int run_rank(int nranks, int rank, ncclUniqueId id) {
  ncclComm_t comm = NULL;
  ncclResult_t r = ncclCommInitRank(&comm, nranks, id, rank);
  check(rank, r == ncclSuccess, "ncclCommInitRank");
  if (r != ncclSuccess) {
    printf("  %s\n", ncclGetLastError(NULL));
    return 1;
  }
  int count = 0, me = -1;
  ncclCommCount(comm, &count);
  ncclCommUserRank(comm, &me);
  check(rank, count == nranks && me == rank, "ncclCommCount and ncclCommUserRank");

  /* larger than one 4 MiB slot, so the chunking is exercised */
  const size_t n = (size_t)3 << 20;
  int32_t *mine = malloc(n * sizeof *mine), *all = malloc(n * (size_t)nranks * sizeof *all);
  for (size_t i = 0; i < n; i++) mine[i] = (int32_t)(rank * 1000003 + (int64_t)i);
  r = ncclAllGather(mine, all, n, ncclInt32, comm, NULL);
  int ok = r == ncclSuccess;
  for (int p = 0; ok && p < nranks; p++) {
    for (size_t i = 0; ok && i < n; i++) ok = all[(size_t)p * n + i] == (int32_t)(p * 1000003 + (int64_t)i);
  }
  check(rank, ok, "ncclAllGather of 12 MiB per rank: every rank's block, every element");

  float *sum = malloc(n * sizeof *sum), *in = malloc(n * sizeof *in);
  for (size_t i = 0; i < n; i++) in[i] = (float)(rank + 1) * (float)(i % 97);
  r = ncclAllReduce(in, sum, n, ncclFloat32, ncclSum, comm, NULL);
  ok = r == ncclSuccess;
  float ranks_sum = (float)(nranks * (nranks + 1) / 2);
  for (size_t i = 0; ok && i < n; i++) ok = sum[i] == ranks_sum * (float)(i % 97);
  check(rank, ok, "ncclAllReduce(sum) of float32: the sum over ranks, every element");
  int32_t top = rank, top_out = -1;
  r = ncclAllReduce(&top, &top_out, 1, ncclInt32, ncclMax, comm, NULL);
  check(rank, r == ncclSuccess && top_out == nranks - 1, "ncclAllReduce(max) of int32");

  int64_t word[4] = {rank, rank, rank, rank};
  if (rank == 1 % nranks) word[0] = word[1] = word[2] = word[3] = 4242;
  r = ncclBroadcast(word, word, 4, ncclInt64, 1 % nranks, comm, NULL);
  check(rank, r == ncclSuccess && word[0] == 4242 && word[3] == 4242, "ncclBroadcast from rank 1");

  int32_t *blocks = malloc((size_t)nranks * 1000 * sizeof *blocks), *got = malloc((size_t)nranks * 1000 * sizeof *got);
  for (int p = 0; p < nranks; p++) {
    for (int i = 0; i < 1000; i++) blocks[p * 1000 + i] = rank * 100000 + p * 1000 + i;
  }
  r = ncclAlltoAll(blocks, got, 1000, ncclInt32, comm, NULL);
  ok = r == ncclSuccess;
  for (int p = 0; ok && p < nranks; p++) {
    for (int i = 0; ok && i < 1000; i++) ok = got[p * 1000 + i] == p * 100000 + rank * 1000 + i;
  }
  check(rank, ok, "ncclAlltoAll: block p holds rank p's block for this rank");
  if (rank == 0) check(rank, leftover_segments() == 0, "no shared-memory segment left in /dev/shm once all joined");

  /* the last rank leaves without taking part: the others must be told, not hang */
  if (rank == nranks - 1) _exit(failures == 0 ? 0 : 1);
  r = ncclAllReduce(&top, &top_out, 1, ncclInt32, ncclSum, comm, NULL);
  char expected[64];
  snprintf(expected, sizeof expected, "rank %d (pid", nranks - 1);
  const char *text = ncclGetLastError(comm);
  check(rank, r == ncclRemoteError && strstr(text, expected) != NULL, "a collective after rank N-1 exited returns "
        "ncclRemoteError naming it");
  printf("  ncclGetLastError: %s\n", text);
  fflush(stdout);
  char byte;
  if (rank == 0) {
    for (int r = 1; r < nranks - 1 && read(checked[0], &byte, 1) == 1; r++) continue;
    for (int r = 1; r < nranks - 1; r++) (void)!write(release[1], "x", 1);
  } else {
    (void)!write(checked[1], "x", 1);
    close(checked[1]);
    (void)!read(release[0], &byte, 1);
  }
  ncclCommDestroy(comm);
  free(mine); free(all); free(sum); free(in); free(blocks); free(got);
  return failures == 0 ? 0 : 1;
}

int main(int argc, char **argv) {
  int nranks = argc > 1 ? atoi(argv[1]) : 2;
  if (nranks < 2) {
    fprintf(stderr, "usage: nccl-ranks N (N >= 2)\n");
    return 2;
  }
  setenv("TE_STANDIN_NCCL_TIMEOUT_S", "60", 0);
  ncclUniqueId id;
  if (ncclGetUniqueId(&id) != ncclSuccess) return 2;
  if (nranks > 64 || pipe(checked) != 0 || pipe(release) != 0) return 2;
  pid_t children[64];
  for (int r = 1; r < nranks; r++) {
    children[r] = fork();
    if (children[r] == 0) {
      close(release[1]);
      _exit(run_rank(nranks, r, id));
    }
  }
  close(checked[1]);
  int status = run_rank(nranks, 0, id);
  for (int r = 1; r < nranks; r++) {
    int s = 0;
    waitpid(children[r], &s, 0);
    if (!WIFEXITED(s) || WEXITSTATUS(s) != 0) status = 1;
  }
  printf("%s\n", status == 0 ? "ALL PASS" : "SOME FAILED");
  return status;
}
