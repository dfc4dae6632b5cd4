#!/bin/sh
# Writes the list of functions libnccl.so.2 exports at one tag of NVIDIA/nccl, in this folder's list format.
#
#   derive.sh <NVIDIA/nccl git dir> <tag> > <release>.list      e.g. derive.sh ~/nccl v2.28.9-1 > 2.28.9.list
#
# NCCL compiles with -fvisibility=hidden and marks each exported function with its NCCL_API(ret, name, args)
# macro in the .cc sources (its version script, where one exists, only narrows to nccl*/pnccl*), so the names
# given to NCCL_API are the exported functions. The pnccl* profiling aliases NCCL_API also makes are left out.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 <nccl git dir> <tag>" >&2; exit 2; }
git_dir=$1
tag=$2
echo "# Functions libnccl.so.2 exports at NVIDIA/nccl tag $tag: the names given to NCCL_API( in src/**/*.cc."
echo "# Regenerate: src/native/nccl-exports/derive.sh <nccl git dir> $tag"
git -C "$git_dir" grep -h -A1 'NCCL_API(' "$tag" -- 'src/*.cc' | tr '\n' ' ' \
    | grep -oE 'NCCL_API\([^,]+, *[A-Za-z_][A-Za-z_0-9]*' | sed -E 's/.*, *//' | LC_ALL=C sort -u
