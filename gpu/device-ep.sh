#!/usr/bin/env bash
# The one command of an expert-parallel run (issue 24) on a GPU host, through the device tool:
# `bash gpu/device-ep.sh` on kind nvidia-h200-x2 (two ranks, one GPU each), carrying
#   gpu/work/jre.tar.xz                 the Java runtime image (gpu/jlink.sh)
#   gpu/work/nccl.tar.xz                NVIDIA/nccl (gpu/pack-sources.sh)
#   gpu/work/nccl-extensions.tar.xz     NVIDIA/nccl-extensions (built only with BUILD_EP=1)
#   gpu/work/wheel_lib                  the wheel_lib gpu/assemble-real.sh laid out from the real NCCL EP BUILDDIR
#   gpu/work/smoke                      gpu-smoke.jar + lib/ (gpu/build-smoke.sh), holding EpLaunch and EpRank
# It
#   1. records the machine: the GPUs, the NVLink topology (nvidia-smi topo -m), nvcc,
#   2. unpacks the JRE and the sources into $WORK (default /tmp/te-gpu) and rebuilds NCCL there with
#      gpu/build-real.sh (SKIP_NCCL_EP=1: NCCL EP comes built, inside the wheel_lib, as for gpu/device-smoke.sh).
#      With BUILD_EP=1 and no wheel_lib carried it builds NCCL EP too and lays out a manifest-less wheel_lib (TE's
#      default layout) from its BUILDDIR and gpu/work/te-standin/libtransformer_engine.so (te-wheel's stand-in TE:
#      nothing here loads TE, but a wheel_lib has one); that is one device call instead of two,
#   3. runs EpLaunch --ranks $RANKS (default: as many as nvidia-smi lists GPUs) twice on one per-user JIT cache:
#        cold  an empty NCCL_EP_JIT_CACHE_DIR: every kernel variant is compiled on its first call, on each rank
#        warm  the same cache, plus NCCL's own ncclAlltoAll on the large case's bytes (--all-to-all)
#      every case of EpCase.ALL, every element checked on every rank; NCCL_NVLS_ENABLE=0 in every rank.
# Everything goes to $OUT/log; the last line is EP-RUN PASS or EP-RUN FAIL, also the exit status.
# The runs end by $END_BY_S (default 570) seconds, inside the tool's 10 minutes.
# A dry run without a GPU: JAVA=<a JDK 22+ java> (no JRE unpacked), NCCL_PREBUILT=<an NCCL prefix>, RANKS=2,
# EP_ARGS=--stand-ins, WHEEL_LIB=<a stand-in wheel_lib>, LD_LIBRARY_PATH=<the stand-in libcuda.so.1's folder>.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
: "${OUT:?OUT must name the folder that comes back}"
WORK="${WORK:-/tmp/te-gpu}"
end_by="${END_BY_S:-570}"
# NVLink multicast stays off on these shared hosts (see the device notes); EpLaunch sets it in every rank too.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1

section() { printf '\n===== %s (t=%ds)\n' "$*" "$SECONDS"; }
verdicts=()

# launch LABEL -- ARGS...: one EpLaunch of $RANKS ranks
launch() {
  local label="$1"; shift 2
  local limit=$(( end_by - SECONDS - 5 ))
  if (( limit < 30 )); then
    section "$label: skipped, ${SECONDS}s used"
    verdicts+=("FAIL $label (no time left)")
    return
  fi
  section "$label (limit ${limit}s)"
  echo "+ java -cp gpu-smoke.jar dev.tewheel.gpu.EpLaunch --ranks $RANKS $* ${EP_ARGS:-}"
  local t0=$SECONDS rc
  env NCCL_EP_JIT_CACHE_DIR="$WORK/jit-ep" NCCL_HOME="$N" NCCL_DEBUG=WARN \
    timeout -k 10 "$limit" "$java" -cp "$jar" dev.tewheel.gpu.EpLaunch --ranks "$RANKS" \
    --timeout-s $(( limit - 10 )) "$@" ${EP_ARGS:-}
  rc=$?
  echo "exit $rc after $((SECONDS - t0)) s"
  verdicts+=("$([[ $rc == 0 ]] && echo PASS || echo FAIL) $label (exit $rc)")
}

cache_listing() {
  echo "--- $1: $(find "$1" -name kernel.cubin 2>/dev/null | wc -l) kernel(s), $(find "$1" -type f 2>/dev/null | wc -l)"\
    "file(s), $(du -sk "$1" 2>/dev/null | cut -f1) KiB"
  find "$1" -name metadata.json -exec grep -ho '"\(variant\|nvcc_process_sec\)": "\?[^",]*' {} + 2>/dev/null \
    | paste -d' ' - - | head -n 40
}

main() {
  section "machine"
  date -u +%FT%TZ
  uname -r; nproc; free -g | sed -n 2p
  nvidia-smi --query-gpu=index,name,driver_version,memory.total,compute_cap,pci.bus_id --format=csv,noheader 2>&1
  echo "--- nvidia-smi topo -m"; nvidia-smi topo -m 2>&1
  echo "--- nvidia-smi nvlink --status"; nvidia-smi nvlink --status 2>&1 | head -n 40
  /usr/local/cuda/bin/nvcc --version 2>&1 | tail -n 2
  RANKS="${RANKS:-$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')}"
  (( RANKS >= 1 )) || { echo "no GPU listed by nvidia-smi and RANKS not set"; return 1; }
  echo "ranks: $RANKS"

  section "carried inputs"
  local f
  for f in nccl.tar.xz nccl-extensions.tar.xz smoke/gpu-smoke.jar; do
    [[ -e "$here/work/$f" ]] || { echo "missing gpu/work/$f (carry it)"; return 1; }
  done
  [[ -n "${JAVA:-}" || -e "$here/work/jre.tar.xz" ]] || { echo "missing gpu/work/jre.tar.xz (carry it)"; return 1; }
  du -sh "$here"/work/* 2>/dev/null

  section "unpack"
  rm -rf "$WORK"; mkdir -p "$WORK/src"
  if [[ -n "${JAVA:-}" ]]; then
    java="$JAVA"
  else
    xz -dc "$here/work/jre.tar.xz" | tar -C "$WORK" -x || return 1
    java="$WORK/jre/bin/java"
  fi
  for f in nccl.tar.xz nccl-extensions.tar.xz; do xz -dc "$here/work/$f" | tar -C "$WORK/src" -x || return 1; done
  cat "$WORK"/src/*/.source-commit 2>/dev/null
  jar="$here/work/smoke/gpu-smoke.jar"
  "$java" -version 2>&1

  local src_wl="${WHEEL_LIB:-$here/work/wheel_lib}"
  section "build NCCL$([[ ${BUILD_EP:-0} == 1 && ! -d $src_wl ]] && echo ' and NCCL EP')"
  if [[ -n "${NCCL_PREBUILT:-}" ]]; then
    N="$NCCL_PREBUILT"; echo "NCCL_PREBUILT=$N: not building NCCL"
  elif [[ "${BUILD_EP:-0}" == 1 && ! -d "$src_wl" ]]; then
    "$here/build-real.sh" "$WORK/src/nccl" "$WORK/src/nccl-extensions" "$WORK/out" || { echo "BUILD FAILED"; return 1; }
    N="$WORK/out/nccl"
  else
    SKIP_NCCL_EP=1 "$here/build-real.sh" "$WORK/src/nccl" "$WORK/src/nccl-extensions" "$WORK/out" \
      || { echo "NCCL BUILD FAILED"; return 1; }
    N="$WORK/out/nccl"
  fi
  ls -la "$N/lib"

  section "wheel_lib"
  WL="$WORK/wheel_lib"
  if [[ -d "$src_wl" ]]; then
    cp -a "$src_wl" "$WL"
    rm -rf "$WORK/out/nccl_ep" # NCCL EP's build path from config.h: any header the JIT finds is the wheel's
  elif [[ "${BUILD_EP:-0}" == 1 ]]; then
    mkdir -p "$WL/nccl_ep"
    cp -L "$WORK/out/nccl_ep/lib/libnccl_ep.so" "$WL/libnccl_ep.so" || return 1
    cp -a "$WORK/out/nccl_ep/include" "$WL/nccl_ep/include" || return 1
    cp "$here/work/te-standin/libtransformer_engine.so" "$WL/" || { echo "carry gpu/work/te-standin"; return 1; }
    rm -rf "$WORK/out/nccl_ep"
  else
    echo "no wheel_lib at $src_wl (carry gpu/work/wheel_lib, or set BUILD_EP=1)"; return 1
  fi
  (cd "$WL" && find . \( -type f -o -type l \) -printf '%10s %p\n' | sort -k2 | head -n 30)

  local nccl="$N/lib/libnccl.so.2"
  launch "cold: $RANKS rank(s), every case, empty JIT cache" -- --wheel-lib "$WL" --nccl-library "$nccl"
  cache_listing "$WORK/jit-ep"
  launch "warm: $RANKS rank(s), every case, the same cache, and ncclAlltoAll" -- \
    --wheel-lib "$WL" --nccl-library "$nccl" --all-to-all
  cache_listing "$WORK/jit-ep"

  section "verdicts"
  local v failed=0
  for v in "${verdicts[@]}"; do
    echo "$v"
    [[ $v == FAIL* ]] && failed=1
  done
  return $failed
}

mkdir -p "$OUT"
main 2>&1 | tee "$OUT/log"
status=${PIPESTATUS[0]}
if [[ $status == 0 ]]; then echo "EP-RUN PASS" | tee -a "$OUT/log"; else echo "EP-RUN FAIL" | tee -a "$OUT/log"; fi
exit "$status"
