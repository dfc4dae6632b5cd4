#!/usr/bin/env bash
# Makes a small Java runtime image for the GPU host (which has no JDK) with jlink.
#
# Usage: gpu/jlink.sh [OUT_DIR]        default OUT_DIR: gpu/work/jre
# Environment:
#   JDK_HOME   the JDK whose jlink to use (default: the highest JDK >= 22 under /usr/lib/jvm with a
#              bin/jlink). Its jmods/ is used when present; a JDK 24+ without jmods/ (Temurin 25 ships
#              none) links from its own run-time image (JEP 493).
#   MODULES    modules to link (default: java.base, where te-runtime's FFM API lives, and java.logging, which JNA
#              needs for the cold-start comparison, bench/runtime/cold-start.sh --main)
#   CDS=0      leave out the default CDS archive (kept by default: a JDK has one, and cold starts are measured
#              with this image)
#   PACK=0     skip writing OUT_DIR.tar.xz (the image as one file, for carrying to a device run)
# The image is replaced whole: it is linked beside OUT_DIR and renamed into place.
set -euo pipefail

die() { echo "jlink: error: $*" >&2; exit 1; }
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${1:-$here/work/jre}"
modules="${MODULES:-java.base,java.logging}"

# feature version of a JDK folder, from its release file (JAVA_VERSION="25.0.1" -> 25; "1.8.0" -> 8)
feature_of() {
  local v
  v="$(sed -n 's/^JAVA_VERSION="\(.*\)"/\1/p' "$1/release" 2>/dev/null || true)"
  [[ -n "$v" ]] || { echo 0; return; }
  v="${v#1.}"
  echo "${v%%[.+-]*}"
}

if [[ -z "${JDK_HOME:-}" ]]; then
  best=""; best_v=0
  for d in /usr/lib/jvm/*/; do
    d="${d%/}"
    [[ -L "$d" ]] && continue                      # skip aliases; the real folder is listed too
    [[ -x "$d/bin/jlink" ]] || continue
    v="$(feature_of "$d")"
    if (( v >= 22 && v > best_v )); then best="$d"; best_v="$v"; fi
  done
  [[ -n "$best" ]] || die "no JDK >= 22 with bin/jlink under /usr/lib/jvm (set JDK_HOME)"
  JDK_HOME="$best"
fi
[[ -x "$JDK_HOME/bin/jlink" ]] || die "JDK_HOME=$JDK_HOME has no bin/jlink"
v="$(feature_of "$JDK_HOME")"
(( v >= 22 )) || die "JDK_HOME=$JDK_HOME is Java $v; the FFM API needs 22 or newer"

# JDK 21+ spells compression zip-0..zip-9; older ones took 0..2.
compress="--compress=zip-9"
(( v >= 21 )) || compress="--compress=2"
modpath=()
if [[ -f "$JDK_HOME/jmods/java.base.jmod" ]]; then
  modpath=(--module-path "$JDK_HOME/jmods")
elif (( v < 24 )); then
  die "JDK_HOME=$JDK_HOME (Java $v) has no jmods/; only JDK 24+ can link from its run-time image"
fi

mkdir -p "$(dirname "$out")"
tmp="$out.tmp.$$"
rm -rf "$tmp"
echo "jlink: JDK $v at $JDK_HOME; modules $modules -> $out"
t0=$SECONDS
cds=(--generate-cds-archive)
[[ "${CDS:-1}" == 0 ]] && cds=()
"$JDK_HOME/bin/jlink" ${modpath[@]+"${modpath[@]}"} --add-modules "$modules" ${cds[@]+"${cds[@]}"} \
  --strip-debug --no-man-pages --no-header-files "$compress" --output "$tmp"
"$tmp/bin/java" -version 2>&1 | sed 's/^/jlink:   /'
rm -rf "$out"
mv "$tmp" "$out"
echo "jlink: image $(( $(du -sb "$out" | cut -f1) / 1024 )) KiB ($(du -sk "$out" | cut -f1) KiB on disk); modules: $("$out/bin/java" --list-modules | paste -sd' '); $((SECONDS - t0)) s"
if [[ "${PACK:-1}" != 0 ]]; then
  tar -C "$(dirname "$out")" -cf - "$(basename "$out")" | xz -T0 -6 >"$out.tar.xz.tmp"
  mv -f "$out.tar.xz.tmp" "$out.tar.xz"
  echo "jlink: $out.tar.xz $(( $(stat -c %s "$out.tar.xz") / 1024 )) KiB"
fi
