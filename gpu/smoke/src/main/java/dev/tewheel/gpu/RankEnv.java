package dev.tewheel.gpu;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Which rank this process is, from the environment a launcher gives it: Open MPI's {@code OMPI_COMM_WORLD_RANK},
 * {@code OMPI_COMM_WORLD_SIZE}, {@code OMPI_COMM_WORLD_LOCAL_RANK} (mpirun), else torchrun's {@code RANK},
 * {@code WORLD_SIZE}, {@code LOCAL_RANK} (which {@link EpLaunch} sets too). The NCCL unique id travels through the
 * file {@code TE_EP_ID_FILE} names (rank 0 writes it owner-only, the others read it: {@link UniqueIdFile}); one rank
 * alone needs none.
 */
record RankEnv(int rank, int worldSize, int localRank, String source, Optional<Path> idFile) {
  static final String ID_FILE = "TE_EP_ID_FILE";

  static RankEnv from(Map<String, String> env) {
    String source;
    String rank;
    String size;
    String local;
    if (present(env, "OMPI_COMM_WORLD_RANK")) {
      source = "OMPI_COMM_WORLD_*";
      rank = "OMPI_COMM_WORLD_RANK";
      size = "OMPI_COMM_WORLD_SIZE";
      local = "OMPI_COMM_WORLD_LOCAL_RANK";
    } else if (present(env, "RANK")) {
      source = "RANK/WORLD_SIZE/LOCAL_RANK";
      rank = "RANK";
      size = "WORLD_SIZE";
      local = "LOCAL_RANK";
    } else {
      throw new IllegalArgumentException("no rank in the environment: set RANK, WORLD_SIZE and LOCAL_RANK (torchrun's"
          + " names), run under mpirun (OMPI_COMM_WORLD_RANK, _SIZE, _LOCAL_RANK), or start the ranks with EpLaunch");
    }
    int r = number(env, rank, 0);
    int n = number(env, size, 1);
    int l = present(env, local) ? number(env, local, 0) : r;
    if (r >= n) {
      throw new IllegalArgumentException(rank + "=" + r + " is not below " + size + "=" + n);
    }
    Optional<Path> idFile = Optional.ofNullable(env.get(ID_FILE)).filter(s -> !s.isBlank()).map(Path::of);
    if (n > 1 && idFile.isEmpty()) {
      throw new IllegalArgumentException(size + "=" + n + " but " + ID_FILE + " is not set: name a file on this host"
          + " (in a folder only you can write, e.g. $XDG_RUNTIME_DIR/te-ep.id) through which rank 0 hands the NCCL"
          + " unique id to the others");
    }
    return new RankEnv(r, n, l, source, idFile);
  }

  private static boolean present(Map<String, String> env, String name) {
    String v = env.get(name);
    return v != null && !v.isBlank();
  }

  private static int number(Map<String, String> env, String name, int minimum) {
    String v = env.get(name);
    if (v == null || v.isBlank()) {
      throw new IllegalArgumentException(name + " is not set");
    }
    try {
      int n = Integer.parseInt(v.strip());
      if (n < minimum) {
        throw new IllegalArgumentException(name + "=" + v + " is below " + minimum);
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + "=" + v + " is not a number");
    }
  }
}
