#!/bin/sh
# Rebuilds the committed aarch64 stand-ins in testdata/aarch64/. A fresh machine lacks the cross compiler,
# so these few small files are committed (as Go's debug/elf keeps its testdata) and no test ever skips.
# Needs: apt-get install gcc-aarch64-linux-gnu. Made with aarch64-linux-gnu-gcc (Debian 12.2.0-14) 12.2.0.
set -eu
cd "$(dirname "$0")/.."
CC=aarch64-linux-gnu-gcc
OUT=testdata/aarch64
FLAGS="-O2 -fPIC -fvisibility=hidden -Wall -Wextra -Werror -std=c11 -shared -Wl,--hash-style=gnu -Wl,--build-id=none"
$CC $FLAGS -Wl,-z,now -Wl,-z,relro -Wl,-soname,libnccl.so.2 -o $OUT/libnccl.so.2 c/nccl.c
$CC $FLAGS -Iinclude -Wl,-z,now -Wl,-z,relro -Wl,-soname,libnccl_ep.so.0 -o $OUT/libnccl_ep.so.0.1.0 c/nccl_ep.c \
    -L$OUT -l:libnccl.so.2
$CC $FLAGS -Iinclude -Wl,-z,now -Wl,-z,relro -Wl,-soname,libtransformer_engine.so -o $OUT/libtransformer_engine.so \
    c/transformer_engine.c -ldl -lpthread
