#!/usr/bin/env bash
# Builds the real NCCL and the real NCCL EP from source folders, the way TE's CI does, into neutral
# prefixes under OUT:
#   OUT/nccl      NCCL's own BUILDDIR (`make src.build`): include/ (nccl.h, nccl_device/), lib/ (libnccl.so.2...)
#   OUT/nccl_ep   NCCL EP's own BUILDDIR (`make -C nccl_ep lib`): lib/libnccl_ep.so.M.m.p with its two
#                 symlinks and libnccl_ep.a, include/nccl_ep.h, include/nccl_ep/{config.h,common.hpp,
#                 ep_enums.h,device/*.cuh}; obj/ holds the object files
#
# Usage: gpu/build-real.sh NCCL_SRC NCCL_EXT_SRC OUT
#   NCCL_SRC      a folder of NVIDIA/nccl (2.30.x; needs >= 2.30.4 for NCCL EP)
#   NCCL_EXT_SRC  a folder of NVIDIA/nccl-extensions (NCCL EP is its nccl_ep/)
#   OUT           where the two BUILDDIRs go (made if missing; an existing build is updated by make)
# Environment:
#   CUDA_HOME     the CUDA toolkit (default: /usr/local/cuda, else derived from `nvcc` on PATH)
#   GPU_ARCH      compute capability to build for, "90" or "9.0" (default: the first GPU's, read with
#                 nvidia-smi --query-gpu=compute_cap; 90 when there is none)
#   NVCC_GENCODE  full nvcc -gencode flags; overrides GPU_ARCH for both builds
#   JOBS          make's parallelism (default: nproc)
#   SKIP_NCCL=1   build only NCCL EP, against an OUT/nccl built earlier
#   SKIP_NCCL_EP=1  build only NCCL (the smoke run: its NCCL EP comes built, inside the carried wheel_lib); then
#                 NCCL_EXT_SRC is only checked, and OUT/nccl_ep is neither made nor touched
set -euo pipefail

die() { echo "build-real: error: $*" >&2; exit 1; }
log() { echo "build-real: $*"; }

[[ $# -eq 3 ]] || { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
nccl_src="$1"; ext_src="$2"; out="$3"

[[ -d "$nccl_src" ]] || die "NCCL_SRC is not a folder: $nccl_src"
[[ -f "$nccl_src/src/nccl.h.in" && -f "$nccl_src/makefiles/version.mk" ]] \
  || die "NCCL_SRC does not look like NVIDIA/nccl (no src/nccl.h.in or makefiles/version.mk): $nccl_src"
[[ -d "$ext_src" ]] || die "NCCL_EXT_SRC is not a folder: $ext_src"
[[ -f "$ext_src/nccl_ep/Makefile" && -f "$ext_src/nccl_ep/include/nccl_ep.h" ]] \
  || die "NCCL_EXT_SRC does not look like NVIDIA/nccl-extensions (no nccl_ep/Makefile or nccl_ep/include/nccl_ep.h): $ext_src"
nccl_src="$(cd "$nccl_src" && pwd)"
ext_src="$(cd "$ext_src" && pwd)"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

# --- CUDA toolkit ---------------------------------------------------------------------------------
if [[ -z "${CUDA_HOME:-}" ]]; then
  if [[ -x /usr/local/cuda/bin/nvcc ]]; then
    CUDA_HOME=/usr/local/cuda
  elif command -v nvcc >/dev/null; then
    # nvcc may be a wrapper script: ask it where its toolkit lives.
    CUDA_HOME="$(dirname "$(dirname "$(readlink -f "$(command -v nvcc)")")")"
    [[ -f "$CUDA_HOME/include/cuda.h" ]] || die "nvcc found at $(command -v nvcc) but no include/cuda.h under $CUDA_HOME: set CUDA_HOME"
  else
    die "no CUDA toolkit: nvcc is not on PATH and /usr/local/cuda/bin/nvcc does not exist (set CUDA_HOME)"
  fi
fi
nvcc="$CUDA_HOME/bin/nvcc"
[[ -x "$nvcc" ]] || die "CUDA_HOME=$CUDA_HOME has no bin/nvcc"
[[ -f "$CUDA_HOME/include/cuda.h" ]] || die "CUDA_HOME=$CUDA_HOME has no include/cuda.h"
export CUDA_HOME
cuda_version="$("$nvcc" --version | sed -n 's/.*release \([0-9.]*\),.*/\1/p')"

# --- target architecture --------------------------------------------------------------------------
if [[ -z "${NVCC_GENCODE:-}" ]]; then
  arch="${GPU_ARCH:-}"
  arch_from="GPU_ARCH"
  if [[ -z "$arch" ]]; then
    arch="$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n1 | tr -d ' .' || true)"
    arch_from="nvidia-smi"
  fi
  if [[ -z "$arch" ]]; then
    arch=90; arch_from="fallback (no GPU seen)"
  fi
  arch="${arch//./}"
  [[ "$arch" =~ ^[0-9]+[af]?$ ]] || die "bad GPU_ARCH/compute capability: $arch"
  (( ${arch%[af]} >= 90 )) || log "warning: sm_$arch is below sm_90; NCCL EP needs sm_90 or newer"
  NVCC_GENCODE="-gencode=arch=compute_$arch,code=sm_$arch"
else
  arch_from="NVCC_GENCODE"
fi
export NVCC_GENCODE
jobs="${JOBS:-$(nproc)}"

# NCCL's version string takes the git commit; a tarball from gpu/pack-sources.sh has no .git but a
# .source-commit file (a git work tree's own HEAD is used as NCCL's Makefile would).
git_vars=()
if [[ -f "$nccl_src/.source-commit" ]] && ! git -C "$nccl_src" rev-parse --show-toplevel 2>/dev/null | grep -qx "$nccl_src"; then
  read -r commit describe _ <"$nccl_src/.source-commit"
  git_vars=("NCCL_GIT_COMMIT_HASH=${describe:-$commit}" "NCCL_GIT_BRANCH=source-tarball")
fi

nccl_version="$(sed -n 's/^NCCL_\(MAJOR\|MINOR\|PATCH\) *:= *\([0-9]*\).*/\2/p' "$nccl_src/makefiles/version.mk" | paste -sd.)"
ep_version="$(awk '/^#define NCCL_EP_(MAJOR|MINOR|PATCH) / {print $3}' "$ext_src/nccl_ep/include/nccl_ep.h" | paste -sd.)"
log "NCCL $nccl_version from $nccl_src"
log "NCCL EP $ep_version from $ext_src/nccl_ep"
log "CUDA $cuda_version at $CUDA_HOME; NVCC_GENCODE='$NVCC_GENCODE' (from $arch_from); make -j$jobs"
log "OUT=$out"

t_all=$SECONDS

# --- NCCL -----------------------------------------------------------------------------------------
if [[ "${SKIP_NCCL:-0}" != 1 ]]; then
  t0=$SECONDS
  log "building NCCL into $out/nccl"
  make -C "$nccl_src" -j"$jobs" src.build BUILDDIR="$out/nccl" CUDA_HOME="$CUDA_HOME" \
       NVCC_GENCODE="$NVCC_GENCODE" ${git_vars[@]+"${git_vars[@]}"}
  nccl_s=$((SECONDS - t0))
  log "NCCL build: ${nccl_s} s"
else
  nccl_s=0
  log "SKIP_NCCL=1: using the NCCL already in $out/nccl"
fi
[[ -f "$out/nccl/include/nccl.h" && -e "$out/nccl/lib/libnccl.so" ]] \
  || die "no NCCL build in $out/nccl (include/nccl.h, lib/libnccl.so)"

if [[ "${SKIP_NCCL_EP:-0}" == 1 ]]; then
  log "SKIP_NCCL_EP=1: NCCL EP not built"
  log "built: $(ls "$out"/nccl/lib/libnccl.so.*.*.* | head -n1)"
  log "timings: NCCL ${nccl_s} s, total $((SECONDS - t_all)) s"
  exit 0
fi

# --- NCCL EP (as TE's setup.py does: NVCC_GENCODE and NCCL_HOME in the environment, make lib) ------
# libnccl_ep.so links -lcuda. nvcc searches $CUDA_HOME/.../lib/stubs itself, but a trimmed toolkit
# may have no stubs: then point the linker at a libcuda.so (the stub's or the driver's, whose SONAME
# is libcuda.so.1 either way, so the built library is the same).
cuda_link_dir=""
for d in "$CUDA_HOME/lib64/stubs" "$CUDA_HOME/targets/$(uname -m)-linux/lib/stubs" "$CUDA_HOME/lib64"; do
  [[ -e "$d/libcuda.so" ]] && { cuda_link_dir="stubs-found"; break; }
done
if [[ -z "$cuda_link_dir" ]]; then
  driver="$(ldconfig -p 2>/dev/null | awk '/libcuda\.so(\.1)? .*x86-64|libcuda\.so(\.1)? \(libc6,x86-64\)/ {print $NF; exit}')"
  [[ -z "$driver" ]] && for d in ${CUDA_DRIVER_LIB_DIR:-} /usr/local/nvidia/lib64 /usr/lib/x86_64-linux-gnu /usr/lib64; do
    [[ -e "$d/libcuda.so.1" ]] && { driver="$d/libcuda.so.1"; break; }
  done
  if [[ -n "$driver" ]]; then
    mkdir -p "$out/.libcuda-link"
    ln -sfn "$driver" "$out/.libcuda-link/libcuda.so"
    export LDFLAGS="${LDFLAGS:-} -L$out/.libcuda-link"
    log "no libcuda.so stub in $CUDA_HOME; linking -lcuda against $driver"
  else
    log "warning: no libcuda.so stub in $CUDA_HOME and no driver libcuda.so.1 found; -lcuda may fail"
  fi
fi
t0=$SECONDS
log "building NCCL EP into $out/nccl_ep"
NCCL_HOME="$out/nccl" make -C "$ext_src/nccl_ep" -j"$jobs" lib \
     BUILDDIR="$out/nccl_ep" NCCL_HOME="$out/nccl" CUDA_HOME="$CUDA_HOME"
ep_s=$((SECONDS - t0))
log "NCCL EP build: ${ep_s} s"

so="$(ls "$out"/nccl_ep/lib/libnccl_ep.so.*.*.* 2>/dev/null | head -n1 || true)"
[[ -n "$so" ]] || die "NCCL EP build left no lib/libnccl_ep.so.M.m.p in $out/nccl_ep"
[[ -f "$out/nccl_ep/include/nccl_ep/config.h" ]] || die "NCCL EP build left no include/nccl_ep/config.h"
log "built: $(ls "$out"/nccl/lib/libnccl.so.*.*.* | head -n1) and $so"
log "timings: NCCL ${nccl_s} s, NCCL EP ${ep_s} s, total $((SECONDS - t_all)) s"
