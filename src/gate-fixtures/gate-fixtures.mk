# The libraries the release-gate checks (GPU-ARCHS, EXEC-STACK, ISA-LEVEL) and te:diff-wheel are tested on.
# GateFixtures.java runs `make -f gate-fixtures.mk OUT=<folder> <target>` the first time a test asks for one;
# make rebuilds only what changed. Needs gcc and, for cuda/ and release/, nvcc (CUDA 12.9+; compiles without a
# GPU). Every -gencode list here is the expected answer written in the tests.
OUT ?= target/gate-fixtures
NVCC ?= nvcc
CC ?= gcc
HERE := $(dir $(lastword $(MAKEFILE_LIST)))
NVFLAGS := -shared -Xcompiler -fPIC -O2 -Xlinker -z,now
KERNELS := $(HERE)cuda/kernels.cu
RELEASE := $(HERE)cuda/te_release.cu
PLAIN := $(HERE)c/plain.c
CFLAGS := -shared -fPIC -O2

.PHONY: all cuda stack isa release
all: cuda stack isa release
cuda: $(OUT)/cuda/libsass-only.so $(OUT)/cuda/libptx-only.so $(OUT)/cuda/libmixed.so $(OUT)/cuda/liblz.so \
      $(OUT)/cuda/libzstd.so $(OUT)/cuda/librdc.so
stack: $(OUT)/stack/libexecstack.so $(OUT)/stack/libno-gnu-stack.so $(OUT)/stack/libnoexecstack.so
isa: $(OUT)/isa/libx86-64-v3.so $(OUT)/isa/libx86-64-v2.so
release: $(OUT)/release/v1/libtransformer_engine.so $(OUT)/release/v2/libtransformer_engine.so

# SASS only: sm_80 and sm_90 cubins, no PTX.
$(OUT)/cuda/libsass-only.so: $(KERNELS)
	@mkdir -p $(@D)
	$(NVCC) $(NVFLAGS) -o $@ $< -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90

# PTX only: compute_80 and compute_120, no cubin.
$(OUT)/cuda/libptx-only.so: $(KERNELS)
	@mkdir -p $(@D)
	$(NVCC) $(NVFLAGS) -o $@ $< -gencode arch=compute_80,code=compute_80 -gencode arch=compute_120,code=compute_120

# Mixed, with the a and f variants: sm_80, sm_90a, sm_100f cubins and compute_120 PTX (nvcc 13 compresses the PTX
# with zstd by default).
$(OUT)/cuda/libmixed.so: $(KERNELS)
	@mkdir -p $(@D)
	$(NVCC) $(NVFLAGS) -o $@ $< -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90a,code=sm_90a \
	  -gencode arch=compute_100f,code=sm_100f -gencode arch=compute_120,code=compute_120

# LZ-compressed PTX: sm_86 cubin and compute_86 PTX with --compress-mode=speed.
$(OUT)/cuda/liblz.so: $(KERNELS)
	@mkdir -p $(@D)
	$(NVCC) $(NVFLAGS) --compress-mode=speed -o $@ $< -gencode arch=compute_86,code=[sm_86,compute_86]

# Everything zstd-compressed: sm_89 cubin and compute_89 PTX with --compress-mode=size.
$(OUT)/cuda/libzstd.so: $(KERNELS)
	@mkdir -p $(@D)
	$(NVCC) $(NVFLAGS) --compress-mode=size -o $@ $< -gencode arch=compute_89,code=[sm_89,compute_89]

# Relocatable device code: .nv_fatbin holds the linked sm_80 cubin, __nv_relfatbin the relocatable sm_80 cubin and
# the compute_90 PTX.
$(OUT)/cuda/librdc.so: $(KERNELS)
	@mkdir -p $(@D)
	$(NVCC) $(NVFLAGS) -rdc=true -o $@ $< -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=compute_90

# EXEC-STACK: the stack made executable at link time, as an assembler file without .note.GNU-stack would.
$(OUT)/stack/libexecstack.so: $(PLAIN)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Wl,-z,execstack -o $@ $<

# EXEC-STACK: no PT_GNU_STACK at all, from a linker script whose PHDRS command does not list it.
$(OUT)/stack/libno-gnu-stack.so: $(PLAIN) $(HERE)c/no-gnu-stack.ld
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -nostdlib -Wl,-T,$(HERE)c/no-gnu-stack.ld -o $@ $<

# EXEC-STACK's passing case: PT_GNU_STACK RW, as gcc links by default.
$(OUT)/stack/libnoexecstack.so: $(PLAIN)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Wl,-z,noexecstack -o $@ $<

# ISA-LEVEL: GNU_PROPERTY_X86_ISA_1_NEEDED x86-64-v3 (ld -z x86-64-v3, binutils 2.36+).
$(OUT)/isa/libx86-64-v3.so: $(PLAIN)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -march=x86-64-v3 -Wl,-z,x86-64-v3 -o $@ $<

$(OUT)/isa/libx86-64-v2.so: $(PLAIN)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -march=x86-64-v2 -Wl,-z,x86-64-v2 -o $@ $<

# te:diff-wheel: release 1 exports nvte_set_tensor_param and has sm_80, sm_90 and sm_120 cubins; release 2 drops
# nvte_set_tensor_param, adds nvte_set_tensor_param_v2, gains DT_NEEDED libm.so.6 and loses sm_120.
$(OUT)/release/v1/libtransformer_engine.so: $(RELEASE)
	@mkdir -p $(@D)
	$(NVCC) $(NVFLAGS) -Xlinker -soname=libtransformer_engine.so -o $@ $< \
	  -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_120,code=sm_120

$(OUT)/release/v2/libtransformer_engine.so: $(RELEASE)
	@mkdir -p $(@D)
	$(NVCC) $(NVFLAGS) -DGATE_V2 -Xlinker -soname=libtransformer_engine.so \
	  -Xlinker --push-state,--no-as-needed,-lm,--pop-state -o $@ $< \
	  -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90

# The GPU-ARCHS benchmark's library (bench/GpuArchsBenchmark): one object with 20 kernels for sm_80, sm_90,
# sm_100 and sm_120 plus compute_120 PTX (about 4.6 MB of fat binary), linked 60 times (each copy's one global
# symbol renamed with objcopy) into a library of about 280 MB whose .nv_fatbin holds 60 containers.
BIG_COPIES := $(shell seq 1 59)
$(OUT)/bench/big.o: $(HERE)cuda/big_kernels.cu
	@mkdir -p $(@D)
	$(NVCC) -c -Xcompiler -fPIC -O2 -o $@ $< -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 \
	  -gencode arch=compute_100,code=sm_100 -gencode arch=compute_120,code=[sm_120,compute_120]

$(OUT)/bench/libbig.so: $(OUT)/bench/big.o
	for k in $(BIG_COPIES); do objcopy --redefine-sym big_launch=big_launch_$$k $< $(@D)/copy$$k.o || exit 1; done
	$(NVCC) -shared -Xcompiler -fPIC -o $@ $< $(foreach k,$(BIG_COPIES),$(@D)/copy$(k).o)
	rm -f $(@D)/copy*.o
