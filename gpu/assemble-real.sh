#!/usr/bin/env bash
# Lays out a wheel_lib from the real NCCL EP BUILDDIR with te:assemble-wheel-lib, then checks it with
# te:verify-wheel-lib, for the GPU smoke run (gpu/device-smoke.sh carries it).
#
# Usage: gpu/assemble-real.sh [NCCL_EP_BUILDDIR] [OUT]
#   NCCL_EP_BUILDDIR  NCCL EP's BUILDDIR (lib/libnccl_ep.so* with its symlinks, include/), as gpu/device-build.sh
#                     returns it (default gpu/work/nccl_ep-builddir; unpack nccl_ep-builddir.tar.xz there first)
#   OUT               the wheel_lib to write (default gpu/work/wheel_lib)
# Environment:
#   TE_LIBRARY   the libtransformer_engine.so to ship beside NCCL EP (default: te-wheel's stand-in
#                src/native/target/stand-ins/te/libtransformer_engine.so). A stand-in, because the smoke exercises
#                NCCL EP through te-runtime directly and never loads TE; the assemble and verify checks still need one.
#   INSTALL=1    first run `./mvnw -B -q install -DskipTests -Dinvoker.skip`, which puts te-maven-plugin (and the
#                stand-ins) where Maven finds them; needed once per change of the plugin
#   LAYOUT       default (the default) or ep-home
# The plugin runs as dev.tewheel:te-maven-plugin:<version>, on the root POM with -N, so no project of its own is
# needed; its incremental state goes beside OUT (OUT.assemble-state.json) and verify's reports to gpu/work/te-verify/.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
die() { echo "assemble-real: error: $*" >&2; exit 1; }
# Runs one goal; on success prints the goal's own lines, on failure all of Maven's output (a filter would hide the
# error) and stops naming the goal and exit status.
maven() {
  local log rc
  log="$(mktemp)"
  if ./mvnw -B -N "$@" >"$log" 2>&1; then
    sed -n '/--- te:/,/Total time/p' "$log"
    rm -f "$log"
  else
    rc=$?
    cat "$log" >&2
    rm -f "$log"
    die "./mvnw $1 failed (exit $rc); Maven's whole output is above"
  fi
}

builddir="$(realpath -m "${1:-$here/work/nccl_ep-builddir}")"
out="$(realpath -m "${2:-$here/work/wheel_lib}")"
te="$(realpath -m "${TE_LIBRARY:-$root/src/native/target/stand-ins/te/libtransformer_engine.so}")"
layout="${LAYOUT:-default}"
version="$(sed -n '0,/<version>/s/.*<version>\(.*\)<\/version>.*/\1/p' "$root/pom.xml")"
plugin="dev.tewheel:te-maven-plugin:$version"

[[ -d "$builddir/lib" && -d "$builddir/include" ]] \
  || die "no NCCL EP BUILDDIR at $builddir (lib/ and include/); unpack gpu/work/device-run-N/nccl_ep-builddir.tar.xz there"
compgen -G "$builddir/lib/libnccl_ep.so*" >/dev/null || die "no lib/libnccl_ep.so* in $builddir"

cd "$root"
if [[ "${INSTALL:-0}" == 1 ]]; then
  echo "assemble-real: ./mvnw -B -q install -DskipTests -Dinvoker.skip"
  ./mvnw -B -q install -DskipTests -Dinvoker.skip
fi
[[ -f "$te" ]] || die "no TE library at $te (build the stand-ins: ./mvnw -B -pl src/native generate-resources, or set TE_LIBRARY)"

echo "assemble-real: $plugin:assemble-wheel-lib"
echo "  NCCL EP BUILDDIR $builddir"
echo "  TE library       $te (a stand-in unless TE_LIBRARY names a real one)"
echo "  wheel_lib        $out (layout $layout)"
maven "$plugin:assemble-wheel-lib" \
  -Dte.transformerEngineLibrary="$te" -Dte.ncclEpHome="$builddir" -Dte.outputDirectory="$out" \
  -Dte.layout="$layout" -Dte.stateFile="$(dirname "$out")/$(basename "$out").assemble-state.json"

echo "assemble-real: $plugin:verify-wheel-lib"
maven "$plugin:verify-wheel-lib" -Dte.wheelLib="$out" -Dte.reportDirectory="$here/work/te-verify"

echo "assemble-real: $(find "$out" -type f | wc -l) files, $(du -sh "$out" | cut -f1) in $out"
