#!/usr/bin/env bash
# The one command of a smoke run on a GPU host (through the device tool: `bash gpu/device-smoke.sh`), carrying
#   gpu/work/jre.tar.xz                 the Java runtime image (gpu/jlink.sh)
#   gpu/work/nccl.tar.xz                NVIDIA/nccl (gpu/pack-sources.sh)
#   gpu/work/nccl-extensions.tar.xz     NVIDIA/nccl-extensions (only checked: NCCL EP comes built, in the wheel_lib)
#   gpu/work/wheel_lib                  the wheel_lib gpu/assemble-real.sh laid out from the real NCCL EP BUILDDIR
#   gpu/work/smoke                      the smoke program (gpu/build-smoke.sh)
# It
#   1. unpacks the JRE and the sources into $WORK (default /tmp/te-gpu),
#   2. rebuilds NCCL with gpu/build-real.sh (SKIP_NCCL_EP=1) into $WORK/out/nccl: the NCCL the wheel_lib's NCCL EP was
#      built against (same source, same prefix, so the path baked into its config.h holds NCCL's headers again),
#      while $WORK/out/nccl_ep, NCCL EP's own build path from config.h, is made sure NOT to exist: any header the JIT
#      finds, it finds in the wheel_lib,
#   3. runs GpuSmoke (gpu/smoke) on the wheel_lib, each run in its own JVM:
#        A  run, LL/EXPERT_MAJOR, empty JIT cache      steps 1-3, and 4: kernels left in the cache, built from the wheel
#        B  run, LL, the same cache (warm)              step 4: no compile; the timings against A's
#        C  refused: nccl_ep/include removed, manifest kept    te-runtime says no before anything runs
#        D  no-headers: nccl_ep/include and the manifest removed, empty cache    the JIT fails, the call reports it
#        E  old-nccl: pip's NCCL (2.28.9) given          step 5
#        (A, B, G run with NCCL_EP_HOME unset by the caller: loadNcclEp() points the JIT at the wheel's headers)
#        G  (if time is left) run, HT/FLAT, empty cache, then warm
# Everything goes to $OUT/log; the verdict (A-E must pass) is the last line and the exit status.
# Every smoke run ends by $END_BY_S (default 570) seconds, so the command ends inside the tool's 10 minutes.
# For a dry run of this script without a GPU: NCCL_PREBUILT=<an NCCL prefix> skips the build, SMOKE_ARGS=--stand-ins
# is added to every GpuSmoke command line (with LD_LIBRARY_PATH holding the stand-in libcuda.so.1), WHEEL_LIB and
# PIP_NCCL name another wheel_lib and another old NCCL.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
: "${OUT:?OUT must name the folder that comes back}"
WORK="${WORK:-/tmp/te-gpu}"
end_by="${END_BY_S:-570}"
# NVLink multicast stays off on these shared hosts (see the device notes).
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1

section() { printf '\n===== %s (t=%ds)\n' "$*" "$SECONDS"; }
verdicts=()

# smoke LABEL REQUIRED(1|0) [VAR=value...] -- ARGS...: one JVM running GpuSmoke
smoke() {
  local label="$1" required="$2"; shift 2
  local envs=()
  while [[ $# -gt 0 && "$1" != -- ]]; do envs+=("$1"); shift; done
  shift
  local limit=$(( end_by - SECONDS - 5 ))
  (( limit > 150 )) && limit=150
  if (( limit < 20 )); then
    section "$label: skipped, ${SECONDS}s used"
    [[ $required == 1 ]] && verdicts+=("FAIL $label (no time left)")
    return
  fi
  section "$label (limit ${limit}s)"
  echo "+ ${envs[*]} java -jar gpu-smoke.jar $*"
  local t0=$SECONDS rc
  env ${envs[@]+"${envs[@]}"} NCCL_HOME="$N" NCCL_EP_JIT_LOG=1 NCCL_DEBUG=WARN \
    timeout -k 5 "$limit" "$java" -jar "$jar" "$@" ${SMOKE_ARGS:-}
  rc=$?
  echo "exit $rc after $((SECONDS - t0)) s"
  if [[ $required == 1 ]]; then
    verdicts+=("$([[ $rc == 0 ]] && echo PASS || echo FAIL) $label (exit $rc)")
  else
    verdicts+=("INFO $label (exit $rc)")
  fi
}

cache_listing() {
  echo "--- $1: $(find "$1" -type f 2>/dev/null | wc -l) file(s), $(du -sk "$1" 2>/dev/null | cut -f1) KiB"
  find "$1" -type f -printf '  %6s %P\n' 2>/dev/null | sort -k2 | head -n 30
}

main() {
  section "machine"
  date -u +%FT%TZ
  uname -r; nproc; free -g | sed -n 2p
  nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv,noheader 2>&1
  /usr/local/cuda/bin/nvcc --version 2>&1 | tail -n 2
  echo "LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-(unset)}"
  ldconfig -p 2>/dev/null | grep -E 'libcuda\.so\.1|libnccl' || echo "no libcuda.so.1 / libnccl in ld.so.cache"

  section "carried inputs"
  local f
  local src_wl="${WHEEL_LIB:-$here/work/wheel_lib}"
  for f in jre.tar.xz nccl.tar.xz nccl-extensions.tar.xz smoke/gpu-smoke.jar; do
    [[ -e "$here/work/$f" ]] || { echo "missing gpu/work/$f (carry it)"; return 1; }
  done
  [[ -f "$src_wl/te-wheel-lib.json" ]] || { echo "no wheel_lib at $src_wl (carry gpu/work/wheel_lib)"; return 1; }
  du -sh "$here"/work/* 2>/dev/null

  section "unpack"
  rm -rf "$WORK"; mkdir -p "$WORK/src"
  xz -dc "$here/work/jre.tar.xz" | tar -C "$WORK" -x || return 1
  for f in nccl.tar.xz nccl-extensions.tar.xz; do xz -dc "$here/work/$f" | tar -C "$WORK/src" -x || return 1; done
  cat "$WORK"/src/*/.source-commit
  java="$WORK/jre/bin/java"; jar="$here/work/smoke/gpu-smoke.jar"
  "$java" -version 2>&1

  section "build NCCL (NCCL EP comes built, in the wheel_lib)"
  if [[ -n "${NCCL_PREBUILT:-}" ]]; then
    N="$NCCL_PREBUILT"; echo "NCCL_PREBUILT=$N: not building NCCL"
  else
    SKIP_NCCL_EP=1 "$here/build-real.sh" "$WORK/src/nccl" "$WORK/src/nccl-extensions" "$WORK/out" \
      || { echo "NCCL BUILD FAILED"; return 1; }
    N="$WORK/out/nccl"
  fi
  local want
  want="$(sed -n 's/^NCCL_\(MAJOR\|MINOR\|PATCH\) *:= *\([0-9]*\).*/\2/p' "$WORK/src/nccl/makefiles/version.mk" | paste -sd.)"
  ls -la "$N/lib"
  rm -rf "$WORK/out/nccl_ep"

  section "wheel_lib"
  WL="$WORK/wheel_lib"
  cp -a "$src_wl" "$WL"
  (cd "$WL" && find . \( -type f -o -type l \) -printf '%10s %p\n' | sort -k2)
  echo "--- config.h (the build machine's paths)"; cat "$WL/nccl_ep/include/nccl_ep/config.h"
  for f in $(sed -n 's/^#define NCCL_EP_JIT_[A-Z_]*_DIR "\(.*\)"/\1/p' "$WL/nccl_ep/include/nccl_ep/config.h"); do
    echo "  $f: $([[ -d $f ]] && echo exists || echo 'does not exist')"
  done
  cp -a "$WL" "$WORK/wheel_lib-noinc"; rm -rf "$WORK/wheel_lib-noinc/nccl_ep/include"
  cp -a "$WL" "$WORK/wheel_lib-bare"; rm -rf "$WORK/wheel_lib-bare/nccl_ep" "$WORK/wheel_lib-bare/te-wheel-lib.json"
  local pip
  pip="${PIP_NCCL:-$(ls /opt/torch/.venv/lib/python3*/site-packages/nvidia/nccl/lib/libnccl.so.2 2>/dev/null | head -n1)}"
  [[ -n "$pip" ]] || pip="$(python3 -c 'import nvidia.nccl, os; print(os.path.join(list(nvidia.nccl.__path__)[0], "lib", "libnccl.so.2"))' 2>/dev/null)"
  echo "pip's NCCL: ${pip:-not found}"

  local nccl="$N/lib/libnccl.so.2"
  # A, B, G: NCCL_EP_HOME is not set by the caller; te-runtime's loadNcclEp() sets it to the wheel's nccl_ep.
  smoke "A: LL, empty JIT cache" 1 NCCL_EP_JIT_CACHE_DIR="$WORK/jit-ll" -- \
    --mode run --wheel-lib "$WL" --nccl-library "$nccl" --expect-nccl "$want" --expect-cache cold
  cache_listing "$WORK/jit-ll"
  smoke "B: LL, warm JIT cache" 1 NCCL_EP_JIT_CACHE_DIR="$WORK/jit-ll" -- \
    --mode run --wheel-lib "$WL" --nccl-library "$nccl" --expect-nccl "$want" --expect-cache warm
  smoke "C: nccl_ep/include removed, manifest kept" 1 NCCL_EP_HOME="$WORK/wheel_lib-noinc/nccl_ep" -- \
    --mode refused --wheel-lib "$WORK/wheel_lib-noinc" --nccl-library "$nccl"
  smoke "D: nccl_ep/include (and the manifest) removed, empty JIT cache" 1 \
    NCCL_EP_HOME="$WORK/wheel_lib-bare/nccl_ep" NCCL_EP_JIT_CACHE_DIR="$WORK/jit-no-headers" -- \
    --mode no-headers --wheel-lib "$WORK/wheel_lib-bare" --nccl-library "$nccl"
  cache_listing "$WORK/jit-no-headers"
  find "$WORK/jit-no-headers" -name compile.log -exec sh -c 'echo "--- $1"; head -c 1500 "$1"; echo' _ {} \;
  if [[ -n "$pip" ]]; then
    smoke "E: pip's NCCL in front" 1 -- --mode old-nccl --wheel-lib "$WL" --nccl-library "$pip"
  else
    verdicts+=("FAIL E: pip's NCCL in front (no pip NCCL found)")
  fi
  smoke "G1 (extra): HT/FLAT, empty JIT cache" 0 NCCL_EP_JIT_CACHE_DIR="$WORK/jit-ht" -- \
    --mode run --algorithm ht --wheel-lib "$WL" --nccl-library "$nccl" --expect-cache cold
  smoke "G2 (extra): HT/FLAT, warm JIT cache" 0 NCCL_EP_JIT_CACHE_DIR="$WORK/jit-ht" -- \
    --mode run --algorithm ht --wheel-lib "$WL" --nccl-library "$nccl" --expect-cache warm
  cache_listing "$WORK/jit-ht"

  section "verdicts"
  printf '%s\n' "${verdicts[@]}"
  local bad=0 v
  for v in "${verdicts[@]}"; do [[ $v == FAIL* ]] && bad=1; done
  if (( bad )); then echo "SMOKE FAIL"; return 1; fi
  echo "SMOKE PASS"
}

mkdir -p "$OUT"
main 2>&1 | tee "$OUT/log"
exit "${PIPESTATUS[0]}"
