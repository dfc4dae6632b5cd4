"""Makes the environment of te-wheel doctor's cold-start benchmark (docs/performance.md, "te-wheel doctor"):
60 shared libraries in pip's layout, about 3 GB, installed by pip from wheels packed here.

    python3 make_env.py OUT

54 small stand-ins (gcc, -z now where TE's core is) for CUDA 13's libraries, cuDNN's sub-libraries, NCCL, TE's
core and PyTorch extension and torch's libraries; then 6 of them are replaced by hard links to NVIDIA's real
libcublasLt.so.11 (Debian's libcublaslt11, 575 MB), so the environment's libraries hold about 3.4 GB, as a CUDA 13
PyTorch environment does, without writing 3 GB.
"""
import base64, hashlib, os, shutil, subprocess, sys, tempfile, zipfile

OUT = os.path.abspath(sys.argv[1])
SITE = os.path.join(OUT, "site-packages")
# A real NVIDIA library of 575 MB; TE_DOCTOR_BENCH_BIG names another where Debian's is not installed (a GPU machine's
# own libcublasLt.so.13).
REAL = os.environ.get("TE_DOCTOR_BENCH_BIG", "/usr/lib/x86_64-linux-gnu/libcublasLt.so.11")
if not os.path.exists(REAL):
    sys.exit(REAL + " is missing: install Debian's non-free libcublaslt11 (.ci/run does) or set TE_DOCTOR_BENCH_BIG")
BUILD = tempfile.mkdtemp(prefix="doctor-bench-")


def lib(soname, exports, needs=(), now=False, runpath=None):
    src = os.path.join(BUILD, soname + ".c")
    with open(src, "w") as f:
        for i, e in enumerate(exports):
            f.write('__attribute__((visibility("default"))) int %s(void) { return %d; }\n' % (e, i))
    out = os.path.join(BUILD, soname)
    cmd = ["gcc", "-O2", "-fPIC", "-shared", "-Wl,-soname," + soname, "-o", out, src]
    if now:
        cmd += ["-Wl,-z,now"]
    if runpath:
        cmd += ["-Wl,--enable-new-dtags", "-Wl,-rpath," + runpath]
    for n in needs:
        cmd += ["-L" + BUILD, "-l:" + n]
    subprocess.run(cmd, check=True)
    return out


def wheel(name, version, files, purelib=True):
    info = "%s-%s.dist-info" % (name.replace("-", "_"), version)
    entries = dict(files)
    entries[info + "/METADATA"] = ("Metadata-Version: 2.1\nName: %s\nVersion: %s\n" % (name, version)).encode()
    entries[info + "/WHEEL"] = ("Wheel-Version: 1.0\nRoot-Is-Purelib: %s\nTag: py3-none-any\n" % str(purelib).lower()).encode()
    record = ""
    for path, data in entries.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record += "%s,sha256=%s,%d\n" % (path, digest, len(data))
    entries[info + "/RECORD"] = (record + info + "/RECORD,,\n").encode()
    path = os.path.join(BUILD, "%s-%s-py3-none-any.whl" % (name.replace("-", "_"), version))
    with zipfile.ZipFile(path, "w") as z:
        for p, data in entries.items():
            z.writestr(p, data)
    return path


def read(p):
    with open(p, "rb") as f:
        return f.read()


cu13 = {}
for soname, exports in [("libcudart.so.13", ["cudaMalloc"]), ("libcublasLt.so.13", ["cublasLtMatmul"]),
                        ("libnvrtc.so.13", ["nvrtcVersion"]), ("libnvrtc-builtins.so.13.0", ["nvrtcB"]),
                        ("libcurand.so.10", ["curandCreateGenerator"]), ("libcufft.so.12", ["cufftPlan1d"]),
                        ("libcusparse.so.12", ["cusparseCreate"]), ("libcusolver.so.12", ["cusolverDnCreate"]),
                        ("libnvJitLink.so.13", ["nvJitLinkCreate"]), ("libcupti.so.13", ["cuptiGetVersion"]),
                        ("libnvtx3interop.so.1", ["nvtxA"]), ("libcufile.so.0", ["cuFileDriverOpen"])]:
    cu13["nvidia/cu13/lib/" + soname] = read(lib(soname, exports))
cu13["nvidia/cu13/lib/libcublas.so.13"] = read(lib("libcublas.so.13", ["cublasCreate_v2"], ["libcublasLt.so.13"],
                                                   runpath="$ORIGIN"))
cudnn = {"nvidia/cudnn/lib/libcudnn.so.9": read(lib("libcudnn.so.9", ["cudnnCreate"]))}
for part in ["graph", "engines_runtime_compiled", "engines_precompiled", "heuristic", "ops", "cnn", "adv"]:
    cudnn["nvidia/cudnn/lib/libcudnn_%s.so.9" % part] = read(lib("libcudnn_%s.so.9" % part, ["cudnn_" + part]))
nccl = {"nvidia/nccl/lib/libnccl.so.2": read(lib("libnccl.so.2", ["ncclGetVersion"]))}
torch = {"torch/__init__.py": b"", "torch/lib/libtorch_global_deps.so": read(lib("libtorch_global_deps.so", ["g"]))}
for name in ["libc10", "libc10_cuda", "libtorch", "libtorch_cpu", "libtorch_cuda", "libtorch_python", "libshm",
             "libgomp", "libcaffe2_nvrtc", "libtorch_cuda_linalg", "libnvfuser", "libaoti_custom_ops"] + \
        ["libtorch_extra%d" % i for i in range(22)]:
    torch["torch/lib/%s.so" % name] = read(lib(name + ".so", [name.replace("lib", "f_")]))
torch["torch/_C.cpython-311-x86_64-linux-gnu.so"] = read(lib("_C.so", ["PyInit__C"]))
core = read(lib("libtransformer_engine.so", ["nvte_cublas_gemm", "cudaMalloc_user"],
                ["libcudart.so.13", "libcublas.so.13", "libcublasLt.so.13", "libcudnn.so.9"], now=True))
te = {"transformer_engine/__init__.py": b""}
wheels = [wheel("nvidia-cuda-runtime", "13.0.96", {k: v for k, v in cu13.items()}),
          wheel("nvidia-cudnn-cu13", "9.14.0.64", cudnn), wheel("nvidia-nccl-cu13", "2.28.9", nccl),
          wheel("torch", "2.9.0", torch, purelib=False), wheel("transformer_engine", "2.9.0", te),
          wheel("transformer_engine_cu13", "2.9.0", {"transformer_engine/wheel_lib/libtransformer_engine.so": core},
                purelib=False),
          wheel("transformer_engine_torch", "2.9.0", {"transformer_engine_torch.cpython-311-x86_64-linux-gnu.so":
                                                       read(lib("te_torch.so", ["PyInit_transformer_engine_torch"]))},
                purelib=False)]
subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-index", "--no-deps",
                "--disable-pip-version-check", "--no-compile", "--target", SITE] + wheels, check=True)
# Six libraries become NVIDIA's real 575 MB cuBLASLt (hard links: the size without the disk).
for big in ["torch/lib/libtorch_cuda.so", "torch/lib/libtorch_cpu.so", "torch/lib/libnvfuser.so",
            "nvidia/cudnn/lib/libcudnn_engines_precompiled.so.9", "nvidia/cudnn/lib/libcudnn_adv.so.9",
            "nvidia/cu13/lib/libcusparse.so.12"]:
    os.remove(os.path.join(SITE, big))
    try:
        os.link(os.path.realpath(REAL), os.path.join(SITE, big))
    except OSError:  # another file system: a copy
        shutil.copyfile(os.path.realpath(REAL), os.path.join(SITE, big))
count, size = 0, 0
for folder, _, files in os.walk(SITE):
    for f in files:
        if ".so" in f:
            count += 1
            size += os.path.getsize(os.path.join(folder, f))
print("%d libraries, %.2f GB in %s" % (count, size / 1e9, SITE))
