"""The oracle of te-wheel doctor's tests: performs the loads `import transformer_engine` (and, when TE's PyTorch
extension is installed, `import transformer_engine.pytorch`, and with its JAX extension `import
transformer_engine.jax`) performs, in TE's order, with ctypes and the real
glibc, and prints the outcome as one JSON object. Written for te-wheel from the behaviour of
transformer_engine/common/__init__.py (NVIDIA/TransformerEngine); it mirrors the order and the flags of each load,
the folders searched and TE's package checks, not TE's code.

    python3 -I -S te_import_oracle.py SITE [SITE...]

The first SITE plays sysconfig's purelib (where TE looks for NVIDIA's pip libraries); all of them are the import
path. The environment variables are the process's own, as TE reads them.
Output: {"ok", "stage", "library", "missing", "kind", "error", "loaded", "nccl"}; a failing load names the file it
opened ("library"), what glibc could not find ("missing": a SONAME, a symbol or a version) and its kind. After an
import that works, "nccl" is the libnccl.so.2 that dlopen("libnccl.so.2") binds in that process, as TE's NCCL EP
check opens it (the copy the import mapped, else glibc's search), with what its ncclGetVersion reports; null when
none loads.
"""
import ctypes
import glob
import importlib.metadata as md
import importlib.util
import json
import os
import re
import sys

SITES = [os.path.abspath(s) for s in sys.argv[1:]]
PURELIB = SITES[0]
sys.path[:0] = SITES
LOADED = []


class Failure(Exception):
    def __init__(self, stage, kind, library=None, missing=None, error=""):
        super().__init__(error)
        self.stage, self.kind, self.library, self.missing, self.error = stage, kind, library, missing, error


def dist(name):
    for d in md.Distribution.discover(name=name, path=SITES):
        return d
    return None


def from_wheel_purelib(name):
    d = dist(name)
    if d is None:
        return False
    for f in d.files or []:
        if f.name == "WHEEL":
            for line in open(d.locate_file(f), encoding="utf-8"):
                if line.startswith("Root-Is-Purelib:"):
                    return line.split(":", 1)[1].strip().lower() == "true"
            return False
    return False


def core_package():
    for name in ("transformer-engine-cu12", "transformer-engine-cu13"):
        d = dist(name)
        if d is not None:
            return d
    return None


def package_checks():
    meta = dist("transformer_engine")
    if meta is None:
        raise Failure("packages", "runtime-error", error="transformer_engine is not installed")
    core = core_package()
    if core is not None:
        if not from_wheel_purelib("transformer_engine"):
            raise Failure("packages", "runtime-error", error="metapackage not installed from a wheel")
        if meta.version != core.version:
            raise Failure("packages", "runtime-error", error="versions differ: %s %s" % (meta.version, core.version))
    elif from_wheel_purelib("transformer_engine"):
        raise Failure("packages", "runtime-error", error="empty metapackage")


def load(stage, path, mode):
    try:
        handle = ctypes.CDLL(path, mode=mode)
    except OSError as e:
        raise failure(stage, path, str(e))
    LOADED.append(path)
    return handle


def failure(stage, path, text):
    library = os.path.basename(path)
    m = re.match(r"^(.*): cannot open shared object file", text)
    if m:
        return Failure(stage, "missing-library", library, os.path.basename(m.group(1)), text)
    m = re.search(r": undefined symbol: (\S+?)(?:, version (\S+))?$", text)
    if m:
        return Failure(stage, "undefined-symbol", library, m.group(1), text)
    m = re.search(r"version `([^']+)' not found", text)
    if m:
        return Failure(stage, "missing-version", library, m.group(1), text)
    return Failure(stage, "load-error", library, None, text)


def from_system(name):
    roots = [os.environ.get(name.upper() + "_HOME"), os.environ.get(name.upper() + "_PATH"),
             os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"]
    for root in roots:
        if root is None:
            continue
        found = [f for f in glob.glob(root + "/**/lib" + name + ".so*", recursive=True) if "stub" not in f]
        if found:
            found.sort(key=os.path.basename, reverse=True)
            load(name, found[0], ctypes.RTLD_GLOBAL)
            return True
    try:
        handle = ctypes.CDLL("lib" + name + ".so", mode=ctypes.RTLD_GLOBAL)
        LOADED.append("lib" + name + ".so")
        return True
    except OSError:
        return False


def from_pip(name, stage, strict):
    nvidia = os.path.join(PURELIB, "nvidia")
    paths = []
    if os.path.isdir(os.path.join(nvidia, "cu13", name)):
        paths = glob.glob(os.path.join(nvidia, "cu13", name, "lib/lib*.so.*[0-9]"))
    if not paths and os.path.isdir(os.path.join(nvidia, "cu13")):
        paths = glob.glob(os.path.join(nvidia, "cu13", "lib/lib" + name + "*.so.*[0-9]"))
    if not paths and os.path.isdir(os.path.join(nvidia, name)):
        paths = glob.glob(os.path.join(nvidia, name, "lib/lib*.so.*[0-9]"))
    if not paths:
        paths = glob.glob(os.path.join(nvidia, "cuda_" + name, "lib/lib*.so.*[0-9]"))
    for path in paths:
        load(stage, path, ctypes.RTLD_GLOBAL)
    if strict and not paths:
        raise Failure(stage, "not-found", "lib" + name, None, name + " shared object not found")
    return bool(paths)


def cuda_library(name):
    if from_system(name):
        return True
    if from_pip(name, name, False):
        return False
    raise Failure(name, "not-found", "lib" + name, None, name + " shared object not found")


def te_file(prefix):
    spec = importlib.util.find_spec("transformer_engine")
    roots = []
    if spec is not None and spec.origin is not None:
        roots.append(os.path.dirname(os.path.dirname(spec.origin)))
    elif spec is not None and spec.submodule_search_locations:
        roots.append(os.path.dirname(list(spec.submodule_search_locations)[0]))
    roots.append(PURELIB)
    for root in roots:
        if not os.path.isdir(root) or not os.path.exists(os.path.join(root, "transformer_engine")):
            continue
        files = []
        for folder in (root, os.path.join(root, "transformer_engine"),
                       os.path.join(root, "transformer_engine", "wheel_lib")):
            if os.path.isdir(folder):
                files += [os.path.join(folder, f) for f in sorted(os.listdir(folder))
                          if f.startswith(prefix) and os.path.splitext(f)[1] == ".so"]
        if len(files) > 1:
            raise Failure("core" if prefix == "libtransformer_engine" else "extension", "runtime-error",
                          None, None, "Multiple files found: %s" % files)
        if files:
            return files[0]
    return None


def framework(module):
    extension = dist(module)
    if extension is not None:
        core = core_package()
        meta = dist("transformer-engine")
        if not from_wheel_purelib("transformer_engine") or core is None or not (
                extension.version == meta.version == core.version):
            raise Failure("extension", "runtime-error", None, None, "framework extension version mismatch")
    path = te_file(module)
    if path is None:
        raise Failure("extension", "not-found", module, None, "no shared object for " + module)
    # import torch first: torch maps its global deps with RTLD_GLOBAL, then imports torch._C.
    torch_spec = importlib.util.find_spec("torch") if module == "transformer_engine_torch" else None
    if torch_spec is not None:
        torch_dir = os.path.dirname(torch_spec.origin)
        load("torch", os.path.join(torch_dir, "lib", "libtorch_global_deps.so"), ctypes.RTLD_GLOBAL)
        for c in sorted(glob.glob(os.path.join(torch_dir, "_C.*.so"))):
            load("torch", c, sys.getdlopenflags())
    # import jax first: it imports jaxlib's extension module (_jax, formerly xla_extension).
    jaxlib_spec = importlib.util.find_spec("jaxlib") if module == "transformer_engine_jax" else None
    if jaxlib_spec is not None:
        jaxlib_dir = os.path.dirname(jaxlib_spec.origin)
        found = sorted(glob.glob(os.path.join(jaxlib_dir, "_jax.*.so"))) or sorted(
            glob.glob(os.path.join(jaxlib_dir, "xla_extension.*.so")))
        if found:
            load("jax", found[0], sys.getdlopenflags())
    # importlib loads an extension module with sys.getdlopenflags() (RTLD_NOW, local).
    load("extension", path, sys.getdlopenflags())


def main():
    package_checks()
    cuda_library("cudnn")
    system_nvrtc = cuda_library("nvrtc")
    system_curand = cuda_library("curand")
    if not system_nvrtc and not system_curand:
        from_pip("cublas", "cublas", True)
        from_pip("cudart", "cudart", True)
        from_pip("cudnn", "cudnn", True)
    core = te_file("libtransformer_engine")
    if core is None:
        raise Failure("core", "not-found", "libtransformer_engine", None, "no core library")
    load("core", core, ctypes.RTLD_GLOBAL | os.RTLD_LAZY)
    if dist("transformer-engine-torch") is not None or te_file("transformer_engine_torch") is not None:
        framework("transformer_engine_torch")
    if dist("transformer-engine-jax") is not None or te_file("transformer_engine_jax") is not None:
        framework("transformer_engine_jax")


def nccl():
    try:
        handle = ctypes.CDLL("libnccl.so.2", mode=ctypes.RTLD_LOCAL)
    except OSError:
        return None
    version = ctypes.c_int(0)
    status = handle.ncclGetVersion(ctypes.byref(version))
    files = set()
    with open("/proc/self/maps", encoding="utf-8") as maps:
        for line in maps:
            parts = line.split(None, 5)
            if len(parts) == 6 and os.path.basename(parts[5].strip()).startswith("libnccl.so"):
                files.add(parts[5].strip())
    return {"file": sorted(files), "status": status, "version": version.value}


try:
    main()
    out = {"ok": True, "nccl": nccl()}
except Failure as f:
    out = {"ok": False, "stage": f.stage, "kind": f.kind, "library": f.library, "missing": f.missing,
           "error": f.error}
out["loaded"] = LOADED
print(json.dumps(out))
