#!/bin/sh
# Rebuilds the committed aarch64 stand-ins in testdata/aarch64/. A fresh machine lacks the cross compiler,
# so these few small files are committed (as Go's debug/elf keeps its testdata) and no test ever skips.
# Needs: apt-get install gcc-aarch64-linux-gnu g++-aarch64-linux-gnu. Made with aarch64-linux-gnu-gcc and -g++
# (Debian 12.2.0-14) 12.2.0, through the same Makefile rules as the native builds.
set -eu
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s CC=aarch64-linux-gnu-gcc CXX=aarch64-linux-gnu-g++ AR=aarch64-linux-gnu-ar OUT="$tmp" \
    "$tmp/te/libtransformer_engine.so" "$tmp/nccl_ep/lib/libnccl_ep.so.0.1.0" "$tmp/nccl/lib/libnccl.so.2.30.4"
cp "$tmp/te/libtransformer_engine.so" testdata/aarch64/libtransformer_engine.so
cp "$tmp/nccl_ep/lib/libnccl_ep.so.0.1.0" testdata/aarch64/libnccl_ep.so.0.1.0
# Committed under its SONAME, the name a wheel ships it by.
cp "$tmp/nccl/lib/libnccl.so.2.30.4" testdata/aarch64/libnccl.so.2
