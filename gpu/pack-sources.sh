#!/usr/bin/env bash
# Packs the NCCL and nccl-extensions sources into gpu/work/*.tar.xz so that a
# device run can carry them (carry: ["gpu/work/nccl.tar.xz", "gpu/work/nccl-extensions.tar.xz"]).
#
# Usage: gpu/pack-sources.sh [NCCL_SRC] [NCCL_EXT_SRC]
#   NCCL_SRC      a git repository of NVIDIA/nccl (bare mirror or work tree) or a plain folder;
#                 default $NCCL_REPO, else /work/.mirror/NVIDIA+nccl/repo
#   NCCL_EXT_SRC  the same for NVIDIA/nccl-extensions;
#                 default $NCCL_EXT_REPO, else /work/.mirror/NVIDIA+nccl-extensions/repo
# Environment: NCCL_REF, NCCL_EXT_REF   the commit or branch to archive from a git repository
#                                        (default HEAD); OUT_DIR (default gpu/work).
# A git repository is archived with `git archive` at the ref; a plain folder is tarred as it is
# (minus .git and build/). Each tarball holds one top folder (nccl/, nccl-extensions/) with a file
# .source-commit naming where it came from, which gpu/build-real.sh passes to NCCL's version string.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out_dir="${OUT_DIR:-$here/work}"
nccl_src="${1:-${NCCL_REPO:-/work/.mirror/NVIDIA+nccl/repo}}"
ext_src="${2:-${NCCL_EXT_REPO:-/work/.mirror/NVIDIA+nccl-extensions/repo}}"

die() { echo "pack-sources: $*" >&2; exit 1; }
command -v xz >/dev/null || die "xz not found"
command -v tar >/dev/null || die "tar not found"
mkdir -p "$out_dir"

# pack SRC NAME REF
pack() {
  local src="$1" name="$2" ref="$3"
  [[ -d "$src" ]] || die "$name: source folder not found: $src"
  local stage tarfile out desc
  stage="$(mktemp -d)"
  tarfile="$stage/$name.tar"
  out="$out_dir/$name.tar.xz"
  if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
    local commit
    commit="$(git -C "$src" rev-parse --verify "$ref^{commit}")" || die "$name: no commit $ref in $src"
    git -C "$src" archive --format=tar --prefix="$name/" "$commit" >"$tarfile"
    desc="$commit $(git -C "$src" describe --tags --match "v[0-9]*" --always "$commit" 2>/dev/null || echo "$commit") from $src ($ref)"
  else
    [[ -n "$(ls -A "$src")" ]] || die "$name: $src is empty"
    tar -C "$(dirname "$src")" --exclude=.git --exclude="./build" \
        --transform="s,^$(basename "$src"),$name," -cf "$tarfile" "$(basename "$src")"
    desc="unknown plain folder $src"
  fi
  mkdir -p "$stage/$name"
  printf '%s\n' "$desc" >"$stage/$name/.source-commit"
  tar -C "$stage" -rf "$tarfile" "$name/.source-commit"
  xz -T0 -6 -c "$tarfile" >"$out.tmp"
  mv -f "$out.tmp" "$out"
  rm -rf "$stage"
  printf '%-28s %8d KiB  %s\n' "$(basename "$out")" "$(( $(stat -c %s "$out") / 1024 ))" "$desc"
}

pack "$nccl_src" nccl "${NCCL_REF:-HEAD}"
pack "$ext_src" nccl-extensions "${NCCL_EXT_REF:-HEAD}"
