#!/usr/bin/env bash
# te-wheel doctor on a GPU machine's real Python environment (PyTorch, pip's NVIDIA CUDA 13 wheels), beside the real
# ctypes loads of TE's import (core/src/test/resources/dev/tewheel/core/doctor/te_import_oracle.py) with real glibc.
# A stand-in TE core library is built there by gcc with TE's link flag (-z now) against the environment's real
# cuBLAS, cudart and cuDNN, packed as transformer_engine_cu13 and installed by pip: once healthy, once calling a
# cuBLASLt function (under cuBLASLt's own version node) that the installed cuBLASLt lacks, as TE#2504 reports.
#
#   gpu/doctor/real-environment.sh PYTHON TE_WHEEL_WHL OUT_FOLDER
#   TE_CORE=<libtransformer_engine.so>: TE's real core library, built on that machine, in place of the healthy stand-in
# Uses: gcc, PYTHON's pip. Changes PYTHON's environment (installs two small wheels): run it on a throwaway machine.
set -uo pipefail
PY=$1; TW_WHL=$2; OUT=$3
HERE=$(cd "$(dirname "$0")/../.." && pwd)
ORACLE=$HERE/core/src/test/resources/dev/tewheel/core/doctor/te_import_oracle.py
W=$(mktemp -d)
SP=$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
CU=$SP/nvidia/cu13/lib
DNN=$SP/nvidia/cudnn/lib
log() { echo "== $*"; }

log "te-wheel from its pip wheel"
"$PY" -m pip install -q --no-index --target "$W/tw" "$TW_WHL" || exit 2
# The judged runs start the bundled java as the console script would (te_wheel.__main__.command), without the
# PYTHONPATH that a --target install needs, which doctor would count as part of the environment; the timed runs
# start the console script itself, Python included.
mapfile -t TWJ < <(PYTHONPATH="$W/tw" "$PY" -c 'import te_wheel.__main__ as m; print("\n".join(m.command([])))')
TW() { "${TWJ[@]}" "$@"; }
TWS() { PYTHONPATH="$W/tw" "$W/tw/bin/te-wheel" "$@"; }
env -i PATH="$W/tw/bin:/usr/bin:/bin" PYTHONPATH="$W/tw" "$PY" "$W/tw/bin/te-wheel" --version

log "the environment"
"$PY" -m pip list 2>/dev/null | grep -iE '^(nvidia|torch|transformer)' 
env | grep -E '^(LD_LIBRARY_PATH|CUDA_HOME|CUDA_PATH|PATH)=' ; ls -d /usr/local/cuda*/ 2>/dev/null
find "$SP" -name '*.so*' -type f | wc -l; du -sh "$SP" | cut -f1
log "what the installed cuBLASLt defines"
"$PY" -m pip show nvidia-cublas | grep -E '^(Name|Version)'
nm -D --defined-only --with-symbol-versions "$CU/libcublasLt.so.13" | grep -c cublasLt
nm -D --defined-only --with-symbol-versions "$CU/libcublasLt.so.13" | grep -E ' cublasLtCreate@|GroupedMatrixLayoutInit' | head

log "stand-in TE cores, -z now, against the real libraries"
cat > "$W/core.c" <<'C'
#include <stddef.h>
int cudaGetDeviceCount(int *);
int cublasLtCreate(void **);
size_t cudnnGetVersion(void);
#ifdef NEWER
int cublasLtFutureGroupedLayoutInit_internal(void *);
#endif
int nvte_stand_in(void) {
  int n = 0; void *h = 0;
  cudaGetDeviceCount(&n);
#ifdef NEWER
  cublasLtFutureGroupedLayoutInit_internal(h);
#endif
  return cublasLtCreate(&h) + (int) cudnnGetVersion() + n;
}
C
# The newer build links against a cuBLASLt that defines one more function under the node libcublasLt.so.13.
cat > "$W/lt.c" <<'C'
int cublasLtCreate(void **h) { return 0; }
int cublasLtFutureGroupedLayoutInit_internal(void *p) { return 0; }
C
printf 'libcublasLt.so.13 { global: cublasLtCreate; cublasLtFutureGroupedLayoutInit_internal; local: *; };\n' \
  > "$W/lt.map"
mkdir -p "$W/newer-lt" "$W/healthy" "$W/newer"
gcc -shared -fPIC -o "$W/newer-lt/libcublasLt.so.13" -Wl,-soname,libcublasLt.so.13 -Wl,--version-script="$W/lt.map" \
  "$W/lt.c"
LINK=(-shared -fPIC -O1 -Wl,-z,now -Wl,-soname,libtransformer_engine.so -Wl,--no-as-needed)
gcc "${LINK[@]}" -o "$W/healthy/libtransformer_engine.so" "$W/core.c" -L"$CU" -L"$DNN" -l:libcudart.so.13 \
  -l:libcublasLt.so.13 -l:libcublas.so.13 -l:libcudnn.so.9
gcc "${LINK[@]}" -DNEWER -o "$W/newer/libtransformer_engine.so" "$W/core.c" -L"$W/newer-lt" -L"$CU" -L"$DNN" \
  -l:libcudart.so.13 -l:libcublasLt.so.13 -l:libcublas.so.13 -l:libcudnn.so.9
if [ -n "${TE_CORE:-}" ]; then
  # TE's real core library, built on this machine by TE's own CMake with -Wl,-z,now, judged in place of the stand-in.
  [ -f "$TE_CORE" ] || { echo "TE_CORE=$TE_CORE: no such file (a libtransformer_engine.so built by TE's CMake)" >&2; exit 2; }
  cp "$TE_CORE" "$W/healthy/libtransformer_engine.so"
  log "the healthy case packs TE's real core: $TE_CORE"
  readelf -dW "$W/healthy/libtransformer_engine.so" | grep -E 'NEEDED|SONAME|FLAGS'
fi
readelf -dW "$W/newer/libtransformer_engine.so" | grep -E 'NEEDED|FLAGS'
readelf -VW "$W/newer/libtransformer_engine.so" | grep -A3 libcublasLt | head -6

wheel() { # name version purelib outfolder [file source]... ; Requires-Dist lines from $REQUIRES
  "$PY" - "$@" <<'P'
import base64, hashlib, os, sys, zipfile
name, version, purelib, out = sys.argv[1:5]
files = dict(zip(sys.argv[5::2], sys.argv[6::2]))
norm = name.replace("-", "_")
info = f"{norm}-{version}.dist-info"
meta = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n" + "".join(
    f"Requires-Dist: {r}\n" for r in os.environ.get("REQUIRES", "").split(";;") if r)
entries = {path: open(src, "rb").read() for path, src in files.items()}
entries[f"{info}/METADATA"] = meta.encode()
entries[f"{info}/WHEEL"] = (f"Wheel-Version: 1.0\nGenerator: te-wheel-gpu\nRoot-Is-Purelib: {purelib}\n"
                            "Tag: py3-none-linux_x86_64\n").encode()
record = "".join(f"{p},sha256={base64.urlsafe_b64encode(hashlib.sha256(b).digest()).rstrip(b'=').decode()},{len(b)}\n"
                 for p, b in entries.items()) + f"{info}/RECORD,,\n"
path = os.path.join(out, f"{norm}-{version}-py3-none-linux_x86_64.whl")
with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
    for p, b in entries.items():
        z.writestr(p, b)
    z.writestr(f"{info}/RECORD", record)
print(path)
P
}
printf 'raise ImportError("stand-in")\n' > "$W/init.py"
mkdir -p "$W/whl-healthy" "$W/whl-newer"
META=$(REQUIRES='transformer_engine_cu13==2.9.0 ; extra == "core_cu13"' wheel transformer_engine 2.9.0 true "$W/whl-healthy" \
  transformer_engine/__init__.py "$W/init.py")
CUBLAS=$("$PY" -m pip show nvidia-cublas | awk '/^Version:/{print $2}')
REQ="nvidia-cublas>=$CUBLAS;;nvidia-cuda-runtime>=13.0;;nvidia-cudnn-cu13>=9.14;;nvidia-cuda-nvrtc>=13.0;;nvidia-curand"
HEALTHY=$(REQUIRES=$REQ wheel transformer_engine_cu13 2.9.0 false "$W/whl-healthy" \
  transformer_engine/wheel_lib/libtransformer_engine.so "$W/healthy/libtransformer_engine.so")
NEWER=$(REQUIRES=$REQ wheel transformer_engine_cu13 2.9.0 false "$W/whl-newer" \
  transformer_engine/wheel_lib/libtransformer_engine.so "$W/newer/libtransformer_engine.so")

judge() { # label
  log "$1: te-wheel doctor --python $PY"
  local start=$(date +%s%N)
  TW doctor --python "$PY"; echo "exit $?"
  echo "wall $(( ($(date +%s%N) - start) / 1000000 )) ms (first run)"
  local i t; for i in 1 2 3 4 5; do
    t=$(date +%s%N); TWS doctor --python "$PY" >/dev/null; echo "wall $(( ($(date +%s%N) - t) / 1000000 )) ms"
  done
  TW doctor --python "$PY" --format json > "$OUT/doctor-$1.json"; echo "json exit $?"
  log "$1: real ctypes loads in TE's order"
  "$PY" -I -S "$ORACLE" "$SP" | tee "$OUT/oracle-$1.json"; echo
}
"$PY" -m pip install -q --no-index --no-deps "$META" "$HEALTHY" && judge healthy
"$PY" -m pip install -q --no-index --no-deps --force-reinstall "$NEWER" && judge newer-cublaslt
