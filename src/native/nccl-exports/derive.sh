#!/bin/sh
# Writes the list of functions libnccl.so.2 exports at one tag of NVIDIA/nccl, in this folder's list format.
#
#   derive.sh <NVIDIA/nccl git dir> <tag> > <release>.list      e.g. derive.sh ~/nccl v2.28.9-1 > 2.28.9.list
#
# NCCL compiles with -fvisibility=hidden, so what it exports is what its sources mark default-visible (its version
# script, where one exists, only narrows to nccl*/pnccl*): each function given to its NCCL_API(ret, name, args)
# macro in the .cc sources, and the few extern "C" functions marked visibility("default") (or, from 2.30,
# NCCL_PARAM_COMPILER_EXPORT_SYMBOL) directly, such as ncclResetDebugInitInternal. Left out: the pnccl* profiling
# aliases, C++ (mangled) functions and data objects.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 <nccl git dir> <tag>" >&2; exit 2; }
git_dir=$1
tag=$2
echo "# Functions libnccl.so.2 exports at NVIDIA/nccl tag $tag: the names given to NCCL_API( in src/**/*.cc and the"
echo "# extern \"C\" functions its sources mark default-visible. Regenerate: src/native/nccl-exports/derive.sh <nccl git dir> $tag"
{
  git -C "$git_dir" grep -h -A1 'NCCL_API(' "$tag" -- 'src/*.cc' | tr '\n' ' ' \
      | grep -oE 'NCCL_API\([^,]+, *[A-Za-z_][A-Za-z_0-9]*' | sed -E 's/.*, *//'
  # Each marker with the lines around it; a block holding a macro definition or an alias (pnccl*) is skipped.
  git -C "$git_dir" grep -h -B2 -A4 -E 'visibility *\( *"default" *\)|NCCL_PARAM_COMPILER_EXPORT_SYMBOL' "$tag" -- \
      'src/*.cc' 'src/*.h' \
      | awk 'BEGIN { RS = "\n--\n" } !/#define|##|alias/ && /extern "C"/ {
          if (match($0, /nccl[A-Za-z_0-9]*[ \t]*\(/)) print substr($0, RSTART, RLENGTH) }' | sed -E 's/[ \t]*\($//'
} | grep -vx 'func' | LC_ALL=C sort -u
