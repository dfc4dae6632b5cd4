#!/usr/bin/env bash
# The one command of a build run on a GPU host (through the device tool: `bash gpu/device-build.sh`,
# carrying gpu/work/nccl.tar.xz and gpu/work/nccl-extensions.tar.xz). It
#   1. unpacks the two source tarballs made by gpu/pack-sources.sh into $WORK/src,
#   2. runs gpu/build-real.sh into $WORK/out (OUT/nccl, OUT/nccl_ep),
#   3. records the machine facts and what was built: nvidia-smi, compute capability, nvcc, pip's NCCL
#      (path and version, read from the library), readelf -d and exported symbols of libnccl.so and
#      libnccl_ep.so, the BUILDDIR tree, sizes,
#   4. packs NCCL EP's BUILDDIR (lib/ + include/) and NCCL's lib/libnccl.so* + include/ into $OUT
#      (one over 16 MiB in 15 MiB parts), so that they come back and later runs need not rebuild,
#   5. builds gpu/probe/ep_probe.cu against them and runs it: the ABI table, then a one-rank
#      Low-Latency and High-Throughput dispatch+combine, each twice (empty JIT cache, then warm),
#      then Low-Latency once more with NCCL_EP_JIT_SOURCE_DIR naming an empty folder,
#   6. tries pip's NCCL in front: does libnccl_ep.so load against it (RTLD_LAZY and RTLD_NOW)?
# Everything goes to $OUT/log. Steps 5 and 6 are skipped when the run has used more than
# $PROBE_DEADLINE_S seconds (default 470), and every probe run ends by $END_BY_S (default 570), so
# that the command ends inside the device tool's 10-minute limit.
# REUSE_BUILD=1 keeps an existing $WORK/out (a rerun on a machine that is still warm).
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
: "${OUT:?OUT must name the folder that comes back}"
WORK="${WORK:-/tmp/te-gpu}"
deadline="${PROBE_DEADLINE_S:-470}"   # start no probe after this many seconds
end_by="${END_BY_S:-570}"               # and end every probe run by then
# NVLink multicast stays off on these shared hosts (see the device notes).
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1

section() { printf '\n===== %s (t=%ds)\n' "$*" "$SECONDS"; }

main() {
  section "machine"
  date -u +%FT%TZ
  uname -r; nproc; free -g | sed -n 2p
  nvidia-smi
  echo "compute_cap: $(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | paste -sd,)"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  command -v nvcc; nvcc --version | tail -n 2
  ls -d /usr/local/cuda* 2>/dev/null; readlink -f /usr/local/cuda
  gcc --version | head -n1; make --version | head -n1
  python3 -c 'import sys, torch; print("python", sys.version.split()[0], sys.executable); print("torch", torch.__version__, "cuda", torch.version.cuda, "nccl", torch.cuda.nccl.version())' 2>&1
  echo "--- pip's NCCL"
  mkdir -p "$WORK"; rm -f "$WORK/pip-nccl"
  PIP_NCCL_FILE="$WORK/pip-nccl" python3 - <<'EOF' 2>&1
import ctypes, glob, os
try:
    import nvidia.nccl as m
    d = os.path.dirname(m.__file__) if getattr(m, "__file__", None) else list(m.__path__)[0]
except Exception as e:
    print("import nvidia.nccl failed:", e); d = None
print("nvidia.nccl dir:", d)
libs = sorted(glob.glob(os.path.join(d, "lib", "libnccl.so*"))) if d else []
if not libs:
    import site
    for sp in site.getsitepackages():
        libs += sorted(glob.glob(os.path.join(sp, "nvidia", "**", "libnccl.so*"), recursive=True))
for p in libs:
    print("lib:", p, os.path.getsize(p), "bytes")
    if p.endswith("libnccl.so.2"):
        open(os.environ["PIP_NCCL_FILE"], "w").write(p)
    v = ctypes.c_int()
    ctypes.CDLL(p).ncclGetVersion(ctypes.byref(v))
    print("  ncclGetVersion:", v.value)
inc = os.path.join(d, "include") if d else None
print("include:", inc, sorted(os.listdir(inc)) if inc and os.path.isdir(inc) else "none")
EOF
  echo "--- system NCCL"
  ldconfig -p | grep -i nccl || echo "none in ld.so.cache"

  local t0=$SECONDS
  if [[ "${REUSE_BUILD:-0}" == 1 && -d "$WORK/out/nccl_ep/lib" ]]; then
    section "REUSE_BUILD=1: keeping $WORK/out"
  else
    section "unpack sources"
    rm -rf "$WORK/src" "$WORK/out"; mkdir -p "$WORK/src"
    for f in "$here"/work/nccl.tar.xz "$here"/work/nccl-extensions.tar.xz; do
      [[ -f "$f" ]] || { echo "missing $f (carry it)"; return 1; }
      xz -dc "$f" | tar -C "$WORK/src" -x || return 1
    done
    cat "$WORK"/src/*/.source-commit
    echo "unpacked in $((SECONDS - t0)) s"

    section "build"
    t0=$SECONDS
    "$here/build-real.sh" "$WORK/src/nccl" "$WORK/src/nccl-extensions" "$WORK/out" || { echo "BUILD FAILED"; return 1; }
    echo "build-real.sh wall time: $((SECONDS - t0)) s"
  fi

  local N="$WORK/out/nccl" EP="$WORK/out/nccl_ep"
  local nccl_so ep_so
  nccl_so="$(ls "$N"/lib/libnccl.so.*.*.* | head -n1)"
  ep_so="$(ls "$EP"/lib/libnccl_ep.so.*.*.* | head -n1)"

  section "what was built"
  echo "--- NCCL EP BUILDDIR (obj/ left out)"
  (cd "$EP" && ls -laR lib include)
  echo "--- NCCL BUILDDIR lib/ and include/"
  ls -la "$N/lib" "$N/include"
  du -sh "$N" "$N/lib" "$N/include" "$EP" "$EP/lib" "$EP/include" "$EP/obj" 2>/dev/null
  echo "--- config.h"; cat "$EP/include/nccl_ep/config.h"
  for so in "$nccl_so" "$ep_so"; do
    echo "--- readelf -d $(basename "$so")"
    readelf -d "$so" | grep -E 'NEEDED|SONAME|RUNPATH|RPATH|FLAGS' || true
    echo "--- highest symbol versions needed"
    objdump -T "$so" | grep -o 'GLIBC_[0-9.]*\|GLIBCXX_[0-9.]*\|CXXABI_[0-9.]*' | sort -u -V | \
      awk -F_ '{last[$1]=$0} END {for (k in last) print last[k]}'
    echo "--- embedded GPU code"; cuobjdump --list-elf "$so" 2>/dev/null | sed 's/.*\.\(sm_[0-9a-z]*\)\..*/\1/' | sort | uniq -c
  done
  echo "--- nm -D --defined-only libnccl_ep.so | grep ncclEp"
  nm -D --defined-only "$ep_so" | grep ncclEp
  echo "--- nccl symbols libnccl_ep.so needs"
  nm -D --undefined-only "$ep_so" | grep -i ' nccl' | sort
  echo "--- ncclGetVersion of the built NCCL"
  python3 -c "import ctypes; v=ctypes.c_int(); ctypes.CDLL('$nccl_so').ncclGetVersion(ctypes.byref(v)); print(v.value)"

  section "pack for return"
  tar -C "$EP" -cf - lib include | xz -T0 -6 >"$OUT/nccl_ep-builddir.tar.xz"
  tar -C "$N" -cf - include $(cd "$N" && ls lib/libnccl.so*) | xz -T0 -6 >"$OUT/nccl-lib.tar.xz"
  # the device tool returns files of at most 16 MiB: a larger tarball comes back in 15 MiB parts
  # (join them with: cat NAME.tar.xz.part-* > NAME.tar.xz)
  for f in "$OUT"/*.tar.xz; do
    local sz; sz=$(stat -c %s "$f")
    if (( sz > 16 * 1024 * 1024 )); then
      split -b 15M -a 2 "$f" "$f.part-" && rm -f "$f"
      echo "$(basename "$f") $sz bytes, over 16 MiB: split into $(ls "$f".part-* | wc -l) parts"
    else echo "$(basename "$f") $sz bytes"; fi
  done

  if (( SECONDS > deadline )); then section "probe skipped: ${SECONDS}s used, deadline ${deadline}s"; return 0; fi
  section "probe: build"
  export LD_LIBRARY_PATH="$EP/lib:$N/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  t0=$SECONDS
  nvcc -std=c++17 $NVCC_GENCODE_PROBE -I"$EP/include" -I"$N/include" "$here/probe/ep_probe.cu" \
       -L"$EP/lib" -L"$N/lib" -lnccl_ep -lnccl -o "$WORK/ep_probe" || { echo "probe build failed"; return 0; }
  echo "probe built in $((SECONDS - t0)) s"; ldd "$WORK/ep_probe" | grep -E 'nccl|cuda'
  section "probe: abi"
  "$WORK/ep_probe" abi
  local mode pass cache limit
  mkdir -p "$WORK/no-headers"
  for run in ll:cold ll:warm ht:cold ht:warm ll:no-headers; do
    mode="${run%%:*}"; pass="${run#*:}"
    limit=$(( end_by - SECONDS - 5 )); (( limit > ${PROBE_TIMEOUT_S:-100} )) && limit=${PROBE_TIMEOUT_S:-100}
    if (( limit < 15 )); then section "probe $mode $pass skipped: ${SECONDS}s used"; continue; fi
    section "probe: $mode, $pass JIT cache (limit ${limit}s)"
    cache="$WORK/jit-$mode-${pass/warm/cold}"
    [[ $pass != warm ]] && { rm -rf "$cache"; mkdir -p "$cache"; }
    local src_env=()
    # an existing but empty folder: the JIT finds no kernel sources there
    [[ $pass == no-headers ]] && src_env=(NCCL_EP_JIT_SOURCE_DIR="$WORK/no-headers")
    t0=$SECONDS
    env ${src_env[@]+"${src_env[@]}"} NCCL_EP_JIT_CACHE_DIR="$cache" NCCL_EP_JIT_LOG=1 NCCL_DEBUG=WARN \
      timeout -k 5 "$limit" "$WORK/ep_probe" "$mode"
    echo "exit $? after $((SECONDS - t0)) s"
    echo "JIT cache: $(find "$cache" -type f | wc -l) file(s), $(du -sk "$cache" | cut -f1) KiB"
    find "$cache" -type f -printf '  %s %P\n' | head -n 20
  done

  section "pip's NCCL in front of libnccl_ep.so"
  [[ -s "$WORK/pip-nccl" ]] || { echo "no pip NCCL found"; section "done"; return 0; }
  python3 - "$ep_so" "$(cat "$WORK/pip-nccl")" <<'EOF' 2>&1
import os, subprocess, sys
ep, pip = sys.argv[1], sys.argv[2]
for flag in ("RTLD_LAZY", "RTLD_NOW"):
    code = ("import ctypes, os; n = ctypes.CDLL(%r, mode=os.RTLD_GLOBAL | os.%s); v = ctypes.c_int(); "
            "n.ncclGetVersion(ctypes.byref(v)); print('  NCCL mapped first:', v.value); "
            "e = ctypes.CDLL(%r, mode=os.%s); ev = ctypes.c_int(); e.ncclEpGetVersion(ctypes.byref(ev)); "
            "print('  libnccl_ep.so loaded, ncclEpGetVersion', ev.value)") % (pip, flag, ep, flag)
    env = dict(os.environ, LD_LIBRARY_PATH="")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    print(flag + ":", "exit", r.returncode)
    print(r.stdout + r.stderr.strip()[-600:])
EOF
  section "done"
}

NVCC_GENCODE_PROBE="-gencode=arch=compute_$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n1 | tr -d ' .'),code=sm_$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n1 | tr -d ' .')"
[[ "$NVCC_GENCODE_PROBE" == *compute_,* ]] && NVCC_GENCODE_PROBE="-gencode=arch=compute_90,code=sm_90"
mkdir -p "$OUT"
main 2>&1 | tee "$OUT/log"
