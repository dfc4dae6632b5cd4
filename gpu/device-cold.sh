#!/usr/bin/env bash
# One command on a GPU host (through the device tool: `bash gpu/device-cold.sh`), carrying
#   gpu/work/jre.tar.xz                  the Java runtime image (gpu/jlink.sh: java.base, java.logging, CDS archive)
#   gpu/work/nccl.tar.xz                 NVIDIA/nccl (gpu/pack-sources.sh), rebuilt here as device-smoke.sh does
#   gpu/work/nccl-extensions.tar.xz      NVIDIA/nccl-extensions (build-real.sh checks it; NCCL EP comes built)
#   gpu/work/wheel_lib                   the default-layout wheel_lib of the real NCCL EP (gpu/assemble-real.sh)
#   gpu/work/wheel_lib-ep-home           the same NCCL EP in the ep-home layout (LAYOUT=ep-home gpu/assemble-real.sh
#                                        gpu/work/nccl_ep-builddir gpu/work/wheel_lib-ep-home)
#   gpu/work/smoke                       the smoke program (gpu/build-smoke.sh)
#   bench/runtime/target/benchmarks.jar  te-runtime, JNA and FirstCall (./mvnw -B -q -f bench/runtime/pom.xml package)
# It
#   1. unpacks the JRE and the sources into $WORK (default /tmp/te-gpu) and builds NCCL into $WORK/out/nccl,
#   2. times the cold first call on the real NCCL and NCCL EP: bench/runtime/cold-start.sh --main $ROUNDS (default
#      10): te-runtime against JNA, each plain, with an AOT cache and with a CDS archive,
#   3. runs GpuSmoke's LL run (availability, loadNcclEp, dispatch + combine, an empty JIT cache filled from the
#      wheel's headers) on the ep-home wheel_lib.
# Everything goes to $OUT/log; the last line is COLD PASS or COLD FAIL (both steps must pass), also the exit status.
# NCCL_PREBUILT=<an NCCL prefix built from the same source> skips step 1's build (gpu/device-all.sh passes the one
# device-smoke.sh built).
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
: "${OUT:?OUT must name the folder that comes back}"
WORK="${WORK:-/tmp/te-gpu}"
rounds="${ROUNDS:-10}"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1

section() { printf '\n===== %s (t=%ds)\n' "$*" "$SECONDS"; }

main() {
  local f verdict=PASS
  section "machine"
  date -u +%FT%TZ; nproc; nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader 2>&1
  for f in work/jre.tar.xz work/nccl.tar.xz work/nccl-extensions.tar.xz work/wheel_lib/te-wheel-lib.json \
      work/wheel_lib-ep-home/te-wheel-lib.json work/smoke/gpu-smoke.jar; do
    [[ -e "$here/$f" ]] || { echo "missing gpu/$f (carry it)"; return 1; }
  done
  [[ -f "$root/bench/runtime/target/benchmarks.jar" ]] || { echo "missing bench/runtime/target/benchmarks.jar"; return 1; }

  section "unpack and build NCCL"
  rm -rf "$WORK"; mkdir -p "$WORK/src"
  xz -dc "$here/work/jre.tar.xz" | tar -C "$WORK" -x || return 1
  for f in nccl.tar.xz nccl-extensions.tar.xz; do xz -dc "$here/work/$f" | tar -C "$WORK/src" -x || return 1; done
  local java="$WORK/jre/bin/java"
  "$java" -version 2>&1
  local n="$WORK/out/nccl"
  if [[ -n "${NCCL_PREBUILT:-}" ]]; then
    n="$NCCL_PREBUILT"; echo "NCCL_PREBUILT=$n: not building NCCL"
  else
    SKIP_NCCL_EP=1 "$here/build-real.sh" "$WORK/src/nccl" "$WORK/src/nccl-extensions" "$WORK/out" \
      || { echo "NCCL BUILD FAILED"; return 1; }
  fi
  local nccl="$n/lib/libnccl.so.2"
  cp -a "$here/work/wheel_lib" "$WORK/wheel_lib"
  cp -a "$here/work/wheel_lib-ep-home" "$WORK/wheel_lib-ep-home"
  ls -la "$WORK/out/nccl/lib" "$WORK/wheel_lib" "$WORK/wheel_lib-ep-home/nccl_ep/lib"

  section "cold first call on the real libraries ($rounds rounds)"
  if ! JAVA="$java" WHEEL_LIB="$WORK/wheel_lib" NCCL="$nccl" "$root/bench/runtime/cold-start.sh" --main "$rounds"; then
    verdict=FAIL
  fi

  section "ep-home layout: GpuSmoke LL run, empty JIT cache"
  local want
  want="$(sed -n 's/^NCCL_\(MAJOR\|MINOR\|PATCH\) *:= *\([0-9]*\).*/\2/p' "$WORK/src/nccl/makefiles/version.mk" | paste -sd.)"
  if ! NCCL_HOME="$n" NCCL_EP_JIT_CACHE_DIR="$WORK/jit-ep-home" NCCL_EP_JIT_LOG=1 NCCL_DEBUG=WARN \
      timeout -k 5 150 "$java" -jar "$here/work/smoke/gpu-smoke.jar" --mode run --wheel-lib "$WORK/wheel_lib-ep-home" \
      --nccl-library "$nccl" --expect-nccl "$want" --expect-cache cold; then
    verdict=FAIL
  fi
  find "$WORK/jit-ep-home" -type f -printf '  %6s %P\n' 2>/dev/null | sort -k2

  section "verdict"
  echo "COLD $verdict"
  [[ $verdict == PASS ]]
}

mkdir -p "$OUT"
main 2>&1 | tee "$OUT/log"
exit "${PIPESTATUS[0]}"
